"""JIT execution through MLIR's ExecutionEngine (dla.execution): numpy in,
numpy out, checked against the independent numpy layer reference."""

import os
import sys

import numpy as np
import pytest

import dla
from dla import execution

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "utils", "dla-ref"))
import layer_ref  # noqa: E402

NET = """
func.func @forward(%x: tensor<1x3x6x5xf16>, %w: tensor<4x3x3x3xf16>, %b: tensor<4xf16>)
    -> (tensor<1x4x3x3xf16>, tensor<1x4x3x3xf32>) {
  %c = dla.conv direct %x, %w stride [2, 2] pad [1, 0, 1, 1]
      : tensor<1x3x6x5xf16>, tensor<4x3x3x3xf16> -> tensor<1x4x3x3xf16>
  %y = dla.sdp on_the_fly %c bias %b : tensor<4xf16> relu : tensor<1x4x3x3xf16> -> tensor<1x4x3x3xf16>
  %z = tosa.cast %y : (tensor<1x4x3x3xf16>) -> tensor<1x4x3x3xf32>
  return %y, %z : tensor<1x4x3x3xf16>, tensor<1x4x3x3xf32>
}
func.func @pool(%x: tensor<2x3x5x5xi8>) -> tensor<2x3x2x2xi8> {
  %y = dla.pool average %x kernel [3, 3] stride [2, 2] : tensor<2x3x5x5xi8> -> tensor<2x3x2x2xi8>
  return %y : tensor<2x3x2x2xi8>
}
"""


@pytest.fixture(scope="module")
def engine():
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        module.run_pipeline(execution.reference_pipeline())
        yield execution.ExecutionEngine(module)


def test_layers_and_host_op_two_results(engine):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 3, 6, 5)).astype(np.float16)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float16)
    b = rng.standard_normal(4).astype(np.float16)
    y, z = engine.invoke("forward", [x, w, b], [((1, 4, 3, 3), np.float16),
                                                 ((1, 4, 3, 3), np.float32)])
    conv = layer_ref.conv(x, w, stride=(2, 2), pad=(1, 0, 1, 1))
    expected = layer_ref.sdp(conv, bias=b, relu=True)
    ulp = np.spacing(np.abs(expected)).astype(np.float64)
    assert np.all(np.abs(y.astype(np.float64) - expected.astype(np.float64)) <= ulp)
    assert np.any(y > 0) and np.any(y == 0)  # relu did something, not all zero
    np.testing.assert_array_equal(z, y.astype(np.float32))


def test_integer_pool_non_contiguous_input(engine):
    rng = np.random.default_rng(8)
    big = rng.integers(-128, 128, size=(2, 3, 5, 10)).astype(np.int8)
    x = big[:, :, :, ::2]  # strided view: copied to a contiguous buffer
    (y,) = engine.invoke("pool", [x], [((2, 3, 2, 2), np.int8)])
    np.testing.assert_array_equal(y, layer_ref.pool(np.ascontiguousarray(x), "average",
                                                    (3, 3), (2, 2)))


def test_unknown_function(engine):
    with pytest.raises(dla.DLAError, match="no function @missing"):
        engine.invoke("missing", [], [])


def test_wrong_output_shape(engine):
    x = np.zeros((2, 3, 5, 5), np.int8)
    with pytest.raises(dla.DLAError, match=r"result has shape \[2, 3, 2, 2\], expected \[2, 3, 1, 1\]"):
        engine.invoke("pool", [x], [((2, 3, 1, 1), np.int8)])


def test_module_not_lowered():
    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(NET)
        with pytest.raises(dla.DLAError, match="must be lowered to the LLVM dialect"):
            execution.ExecutionEngine(module)
