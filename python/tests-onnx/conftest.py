import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.dirname(HERE))

NODE_DIR = "/usr/share/libonnx-testdata/data/node"


@pytest.fixture(scope="session")
def dla_opt():
    tool = os.environ.get("DLA_OPT") or os.path.join(ROOT, "build", "bin", "dla-opt")
    if not os.path.exists(tool):
        tool = shutil.which("dla-opt")
    if not tool:
        pytest.skip("dla-opt is not built")
    return tool


@pytest.fixture(scope="session")
def verify(dla_opt):
    """Parses and verifies a module with dla-opt; returns its printed form."""
    def run(text, *passes):
        proc = subprocess.run([dla_opt, "-", *passes], input=text.encode(), capture_output=True)
        assert proc.returncode == 0, proc.stderr.decode()
        return proc.stdout.decode()
    return run


@pytest.fixture(scope="session")
def tool_bin(tmp_path_factory, dla_opt):
    """A bin directory with this tree's dla-run-onnx and importer and the
    build's dla-opt and dla package, in their installed places."""
    build = os.path.dirname(os.path.dirname(dla_opt))
    if not os.path.isdir(os.path.join(build, "python_packages", "dla")):
        pytest.skip("the dla Python package is not built")
    root = tmp_path_factory.mktemp("tools")
    for d in ("bin", "python_packages"):
        os.makedirs(root / d)
    os.symlink(os.path.join(ROOT, "tools", "dla-run-onnx", "dla-run-onnx"), root / "bin" / "dla-run-onnx")
    os.symlink(dla_opt, root / "bin" / "dla-opt")
    os.symlink(os.path.join(build, "python_packages", "dla"), root / "python_packages" / "dla")
    os.symlink(os.path.join(os.path.dirname(HERE), "dla_onnx"), root / "python_packages" / "dla_onnx")
    os.symlink(os.path.join(build, "lib"), root / "lib")
    return root / "bin"


def run_cases(root, tool_bin, cases, args=()):
    """Each case {name: (model, input, [expected outputs])} as an ONNX
    backend-test directory under `root`, all run by one dla-run-onnx
    process; {case name: its output lines}."""
    import numpy as np
    import onnx
    from onnx import numpy_helper
    dirs = []
    for name, (m, x, expected) in cases.items():
        d = root / name
        os.makedirs(d / "test_data_set_0")
        onnx.save(m, str(d / "model.onnx"))
        onnx.save_tensor(numpy_helper.from_array(x), str(d / "test_data_set_0" / "input_0.pb"))
        for i, e in enumerate(expected):
            onnx.save_tensor(numpy_helper.from_array(np.asarray(e, np.float32)),
                             str(d / "test_data_set_0" / ("output_%d.pb" % i)))
        dirs.append(str(d))
    proc = subprocess.run(["/usr/bin/python3", str(tool_bin / "dla-run-onnx"), "--allow-host"] + list(args) + dirs,
                          capture_output=True, text=True)
    lines = {}
    for line in (proc.stdout + proc.stderr).splitlines():
        lines.setdefault(line.split(" ", 1)[0].rstrip(":"), []).append(line)
    return lines
