"""The package loads libDLACAPI.so at the first call into it, not at import:
what needs no library (dla.pipelines, the importer's graph code) imports in
a process that cannot load it (an instrumented build without its runtime),
and the first call then says which library failed."""

import os
import subprocess
import sys

PROBE = r"""
import dla, dla.pipelines, dla.onnx, dla.runner, dla.compiler, dla.bundle, dla.execution
print(dla.pipelines.compile_pipeline(target="nv_small", precision="int8").split("{")[0])
try:
    dla.Context()
except ImportError as e:
    print("ImportError:", e)
"""


def test_import_needs_no_library(tmp_path):
    not_a_library = tmp_path / "libDLACAPI.so"
    not_a_library.write_text("not an ELF file\n")
    env = dict(os.environ, DLA_CAPI_LIBRARY=str(not_a_library))
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert first == "builtin.module(dla-compile"
    assert second.startswith("ImportError: dla: cannot load %s (" % not_a_library)
    assert "set DLA_CAPI_LIBRARY to its path" in second
