"""The project's executables as the package finds them: beside the
package's prefix (P/bin for P/python_packages/dla, in an install prefix and
in a build tree alike; lexically, so that a directory of symlinks with its
own bin/ and python_packages/ uses its own), else on PATH."""

import os
import shutil

__all__ = ["BIN_DIR", "find", "tool"]

#: P/bin for this package in P/python_packages/dla.
BIN_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bin"))


def find(name):
    """The path of executable `name` in BIN_DIR, else on PATH; None when
    neither has it."""
    path = os.path.join(BIN_DIR, name)
    return path if os.path.exists(path) else shutil.which(name)


def tool(name):
    """find(name), else `name` itself (for a command line that then fails
    as the shell would)."""
    return find(name) or name
