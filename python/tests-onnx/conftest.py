"""Fixtures of the ONNX importer's tests (dla.onnx, and the tools over it).
The dla package is the build's: scripts/test.sh runs them with
PYTHONPATH=<build>/python_packages; pytest.ini adds the helpers they share
with the lit tests."""

import os
import pathlib
import subprocess

import pytest

import dla.tools

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

NODE_DIR = "/usr/share/libonnx-testdata/data/node"


@pytest.fixture(scope="session")
def dla_opt():
    tool = os.environ.get("DLA_OPT") or dla.tools.find("dla-opt")
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
def tool_bin():
    """The bin directory of the package's tools (dla-run-onnx beside
    dla-opt: the build's bin for the build's package)."""
    if not os.path.exists(os.path.join(dla.tools.BIN_DIR, "dla-run-onnx")):
        pytest.skip("the tools are not built beside the dla package")
    return pathlib.Path(dla.tools.BIN_DIR)


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
    proc = subprocess.run([str(tool_bin / "dla-run-onnx"), "--allow-host"] + list(args) + dirs,
                          capture_output=True, text=True)
    lines = {}
    for line in (proc.stdout + proc.stderr).splitlines():
        lines.setdefault(line.split(" ", 1)[0].rstrip(":"), []).append(line)
    return lines
