# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "DLA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dla_obj_root, "test")
config.excludes = ["Unit", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%dla_ref", os.path.join(config.dla_src_root, "utils", "dla-ref")))
config.substitutions.append(("%dla_src", config.dla_src_root))
# mlir-opt / mlir-runner and their runtime libraries (../lib) for execution tests.
config.substitutions.append(("%llvm_bin", config.llvm_tools_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Python in the tests imports the build's dla package and the helpers the
# test inputs and utils/ share (utils/textlines.py, the numpy reference in
# utils/dla-ref): on PYTHONPATH here, never by a script editing sys.path.
dla_pythonpath = os.pathsep.join([
    os.path.join(config.dla_obj_root, "python_packages"),
    os.path.join(config.dla_src_root, "utils"),
    os.path.join(config.dla_src_root, "utils", "dla-ref"),
])
config.environment["PYTHONPATH"] = dla_pythonpath
config.substitutions.append(("%dla_pythonpath", dla_pythonpath))

tool_dirs = [config.dla_tools_dir, config.llvm_tools_dir]
tools = [ToolSubst("dla-opt", unresolved="fatal"), ToolSubst("dla-translate", unresolved="fatal"),
         ToolSubst("dla-lsp-server", unresolved="fatal"),
         ToolSubst("dla-table-chains", unresolved="fatal"),
         ToolSubst("not", unresolved="fatal")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Debian's stock mlir-opt (mlir-22-tools) loading libDLAPlugin.so (test/Plugin):
# absent, those tests are UNSUPPORTED (REQUIRES: mlir-opt-22).
mlir_opt_22 = os.path.join(config.llvm_tools_dir, "mlir-opt")
if os.access(mlir_opt_22, os.X_OK):
    config.available_features.add("mlir-opt-22")
config.substitutions.append(("%mlir_opt_22", mlir_opt_22))
config.substitutions.append(("%dla_plugin", os.path.join(config.dla_obj_root, "lib", "libDLAPlugin.so")))
# The functions the lowered code of fp16 layers on nv_full calls
# (include/dla/ExecutionRuntime/NvdlaRuntime.h), for mlir-runner's -shared-libs.
config.substitutions.append(("%dla_runtime", os.path.join(config.dla_obj_root, "lib", "libDLARuntime.so")))

# A hung test fails after 10 minutes instead of holding the suite (lit's
# per-test timeout needs psutil, python3-psutil in scripts/setup.sh). The
# longest test takes about 2 minutes on 2 cores.
lit_config.maxIndividualTestTime = 600
