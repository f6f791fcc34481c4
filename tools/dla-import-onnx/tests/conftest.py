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
