"""Every misuse of the Python API raises the package's own error type
(dla.DLAError; a wrong type, value or range also as the built-in
TypeError / ValueError / OverflowError), never a bare built-in error, and
nothing is clamped or skipped silently (issue 46's audit: a NUL or
non-string function name, opt_level=99 clamped, a missing shared library
that compiled with a printed error)."""

import numpy as np
import pytest

import dla
from dla import execution, pipelines

NET = """
func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tosa.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


@pytest.fixture(scope="module")
def engine():
    with execution.ExecutionContext() as ctx:
        yield execution.compile(ctx.parse_module(NET))


def test_the_engine_still_runs(engine):
    (y,) = engine.invoke("double", [np.arange(4, dtype=np.float32)])
    np.testing.assert_array_equal(y, [0, 2, 4, 6])


@pytest.mark.parametrize("name, kind, message", [
    ("dou\0ble", dla.DLAValueError, "contains a NUL character"),
    (7, dla.DLATypeError, "a function name must be a str, got 7"),
    (b"double", dla.DLATypeError, "a function name must be a str"),
    (None, dla.DLATypeError, "a function name must be a str, got None"),
])
def test_bad_function_names(engine, name, kind, message):
    for call in (lambda: engine.invoke(name, [np.zeros(4, np.float32)]),
                 lambda: engine.generate_code(name), lambda: engine.signature(name)):
        with pytest.raises(kind, match=message) as e:
            call()
        assert isinstance(e.value, dla.DLAError)


@pytest.mark.parametrize("level, kind, message", [
    (99, dla.DLAValueError, "opt_level 99: LLVM's optimization levels are 0 to 3"),
    (-1, dla.DLAValueError, "opt_level -1"),
    ("2", dla.DLATypeError, "opt_level must be an int"),
    (True, dla.DLATypeError, "opt_level must be an int"),
])
def test_opt_level_is_checked_not_clamped(level, kind, message):
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        with pytest.raises(kind, match=message):
            execution.compile(module, opt_level=level)


def test_missing_shared_library_is_an_error(tmp_path):
    missing = str(tmp_path / "libnothing.so")
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        with pytest.raises(dla.DLAValueError, match="shared library .*libnothing.so: no such file"):
            execution.compile(module, shared_libraries=[missing])
        with pytest.raises(dla.DLATypeError, match="a list of paths"):
            execution.compile(module, shared_libraries=missing)


@pytest.mark.parametrize("call, kind", [
    (lambda: pipelines.compile_pipeline(target="nv_tiny"), dla.DLAValueError),
    (lambda: pipelines.compile_pipeline(precision="fp8"), dla.DLAValueError),
    (lambda: pipelines.compile_pipeline(layouts="yes"), dla.DLATypeError),
    (lambda: pipelines.compile(bogus=1), dla.DLATypeError),
    (lambda: dla.Context().parse_module(3), dla.DLATypeError),
    (lambda: dla.Context().parse_module("module {}\0"), dla.DLAValueError),
    (lambda: dla.Context().parse_module("module {}").run_pipeline(None), dla.DLATypeError),
    (lambda: dla.chunked_layout("flat", (1, 1, 1, 2 ** 64)), dla.DLAOverflowError),
    (lambda: dla.chunked_layout("flat", (1, 1, 1, 2.5)), dla.DLATypeError),
    (lambda: dla.chunked_layout([(0, 1, 2)], (4,)), dla.DLAValueError),
    (lambda: dla.Context().chunked(), dla.DLAValueError),
    (lambda: dla.nvdla_scales([0.5], rounding="up"), dla.DLAValueError),
])
def test_misuse_raises_dla_errors(call, kind):
    with pytest.raises(kind) as e:
        call()
    assert isinstance(e.value, dla.DLAError)
