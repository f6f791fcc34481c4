"""Finds the `dla` package of a build tree when it is not importable already.

scripts/test.sh sets PYTHONPATH=<build>/python_packages; run by hand, this
falls back to $DLA_BUILD_DIR (default: build) under the repository root.
"""

import importlib.util
import os
import sys

if importlib.util.find_spec("dla") is None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.environ.get("DLA_BUILD_DIR", "build")
    sys.path.insert(0, os.path.join(root, build, "python_packages"))
