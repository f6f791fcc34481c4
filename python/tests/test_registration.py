"""Everything dla-opt registers of the dla project (passes, conversions,
pipelines) is registered in-process too (dlaRegisterAllPasses): each name
dla-opt --help lists parses as a pipeline from Python."""

import os
import re
import subprocess

import pytest

import dla

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DLA_OPT = os.path.join(ROOT, os.environ.get("DLA_BUILD_DIR", "build"), "bin", "dla-opt")


def dla_opt_names():
    help_text = subprocess.run([DLA_OPT, "--help"], capture_output=True, text=True,
                               check=True).stdout
    return sorted(set(re.findall(r"^      --(dla-[a-z0-9-]+)", help_text, re.M)))


@pytest.mark.skipif(not os.path.exists(DLA_OPT), reason="dla-opt not built")
def test_every_dla_opt_pass_and_pipeline_is_registered():
    names = dla_opt_names()
    # The passes, the TOSA conversion and both pipelines at least.
    assert {"dla-assign-layouts", "dla-convert-tosa", "dla-compile",
            "dla-lower-to-llvm"} <= set(names), names
    ctx = dla.Context()
    for name in names:
        # Function passes (dla-free-after-last-use) nest in func.func.
        for anchor in ("builtin.module(%s)", "builtin.module(func.func(%s))"):
            module = ctx.parse_module("module {}")
            try:
                module.run_pipeline(anchor % name)
            except dla.DLAError as e:
                if "restricted to 'func.func'" in str(e) and "func.func(" not in anchor:
                    continue
                # Running may fail on an empty module; parsing must not.
                assert "invalid pass pipeline" not in str(e), (name, str(e))
            break


@pytest.mark.skipif(not os.path.exists(DLA_OPT), reason="dla-opt not built")
def test_in_process_pass_list_equals_dla_opt():
    """Every registered pass, names, descriptions and options: what Python
    (and so the C API) has is what dla-opt has, and its dla passes are the
    ones dla-opt --help lists beside the pipelines (--list-passes
    prints no pipelines; the test above parses them in-process)."""
    listed = subprocess.run([DLA_OPT, "--list-passes"], capture_output=True, text=True,
                            check=True).stdout
    passes = dla.registered_passes()
    assert isinstance(passes, list) and all(isinstance(p, dla.RegisteredPass) for p in passes)
    in_process = "Passes:\n" + "".join(p.text for p in passes)
    assert in_process == listed
    names = sorted(set(re.findall(r"^  --(dla-[a-z0-9-]+)", in_process, re.M)))
    assert sorted(p.name for p in passes if p.name.startswith("dla-")) == names
    convert = next(p for p in passes if p.name == "dla-convert-tosa")
    assert convert.summary and convert.text.startswith("  --dla-convert-tosa ")
    assert "    --target=" in convert.text
    pipelines = ("dla-compile", "dla-lower-to-memref", "dla-lower-to-llvm")
    assert names == [n for n in dla_opt_names() if n not in pipelines]
    assert "dla-convert-tosa" in names and "dla-outline-kernels" in names
