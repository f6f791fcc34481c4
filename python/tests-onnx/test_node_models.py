"""Structural import checks on the backend node tests of Debian's
libonnx-testdata: the module imports, dla-opt verifies it, and it holds the
TOSA ops the node must become. (Numeric checks: dla-run-onnx, helper tests.)

Weights that the node tests pass as graph inputs are frozen into
initializers from test_data_set_0, as a deployed model holds them."""

import os
import re

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from conftest import NODE_DIR
from dla.onnx import ImportFailure, import_model

pytestmark = pytest.mark.skipif(not os.path.isdir(NODE_DIR), reason="libonnx-testdata is not installed")


# Node tests written at an opset below 9 whose operator is unchanged since
# (GlobalAveragePool-1, HardSigmoid-6): imported as opset 9.
UNCHANGED_SINCE_BEFORE_9 = {"test_globalaveragepool", "test_hardsigmoid"}


def load(name, keep=1):
    """The node test's model with inputs from index `keep` on frozen."""
    d = os.path.join(NODE_DIR, name)
    model = onnx.load(os.path.join(d, "model.onnx"))
    if name in UNCHANGED_SINCE_BEFORE_9:
        model.opset_import[0].version = 9
    graph = model.graph
    for i, inp in enumerate(list(graph.input)[keep:], start=keep):
        t = onnx.TensorProto()
        with open(os.path.join(d, "test_data_set_0", "input_%d.pb" % i), "rb") as f:
            t.ParseFromString(f.read())
        t.name = inp.name
        graph.initializer.append(t)
    return model


def ops(text):
    return re.findall(r"= (tosa\.[a-z_0-9]+|\"tosa\.const\")", text)


# (node test, inputs kept as arguments, {TOSA op: count})
CASES = [
    ("test_conv_with_strides_padding", 1, {"tosa.conv2d": 1, "tosa.transpose": 2}),
    ("test_conv_with_strides_no_padding", 1, {"tosa.conv2d": 1}),
    ("test_conv_with_autopad_same", 1, {"tosa.conv2d": 1}),
    ("test_convtranspose", 1, {"tosa.transpose_conv2d": 1}),
    ("test_convtranspose_pads", 1, {"tosa.transpose_conv2d": 1}),
    ("test_maxpool_2d_pads", 1, {"tosa.max_pool2d": 1}),
    ("test_maxpool_2d_ceil", 1, {"tosa.max_pool2d": 1}),
    ("test_maxpool_2d_strides", 1, {"tosa.max_pool2d": 1}),
    ("test_averagepool_2d_default", 1, {"tosa.avg_pool2d": 1}),
    ("test_averagepool_2d_pads_count_include_pad", 1, {"tosa.pad": 1, "tosa.avg_pool2d": 1}),
    ("test_globalaveragepool", 1, {"tosa.avg_pool2d": 1}),
    ("test_batchnorm_example", 1, {"tosa.mul": 1, "tosa.add": 1}),
    ("test_relu", 1, {"tosa.clamp": 1}),
    ("test_clip", 1, {"tosa.clamp": 1}),
    ("test_leakyrelu", 1, {"tosa.maximum": 1, "tosa.mul": 1}),
    ("test_prelu_broadcast", 1, {"tosa.select": 1, "tosa.greater_equal": 1}),
    ("test_hardsigmoid", 1, {"tosa.clamp": 1}),
    ("test_hardswish", 1, {"tosa.clamp": 1, "tosa.mul": 2}),
    ("test_sigmoid", 1, {"tosa.sigmoid": 1}),
    ("test_add_bcast", 2, {"tosa.add": 1, "tosa.reshape": 1}),
    ("test_sub", 2, {"tosa.sub": 1}),
    ("test_mul", 2, {"tosa.mul": 1}),
    ("test_div", 2, {"tosa.reciprocal": 1, "tosa.mul": 1}),
    ("test_pow", 2, {"tosa.pow": 1}),
    ("test_sqrt", 1, {"tosa.pow": 1}),
    ("test_cast_FLOAT_to_FLOAT16", 1, {"tosa.cast": 1}),
    ("test_concat_3d_axis_1", 2, {"tosa.concat": 1}),
    ("test_reduce_mean_keepdims_example", 1, {"tosa.reduce_sum": 1, "tosa.mul": 1}),
    ("test_reshape_reordered_all_dims", 1, {"tosa.reshape": 1}),
    ("test_transpose_all_permutations_2", 1, {"tosa.transpose": 1}),
    ("test_flatten_axis2", 1, {"tosa.reshape": 1}),
    ("test_squeeze", 1, {"tosa.reshape": 1}),
    ("test_unsqueeze_two_axes", 1, {"tosa.reshape": 1}),
    ("test_slice", 1, {"tosa.slice": 1}),
    ("test_shape", 1, {}),
    ("test_gemm_default_matrix_bias", 1, {"tosa.matmul": 1, "tosa.add": 1}),
    ("test_matmul_3d", 2, {"tosa.matmul": 1}),
    ("test_softmax_axis_1", 1, {"tosa.exp": 1, "tosa.reduce_max": 1, "tosa.reduce_sum": 1}),
    ("test_lrn", 1, {"tosa.conv2d": 1, "tosa.pow": 1}),
    ("test_resize_upsample_scales_nearest", 1, {"tosa.resize": 1}),
]


@pytest.mark.parametrize("name,keep,expected", CASES, ids=[c[0] for c in CASES])
def test_node_imports(name, keep, expected, verify):
    if not os.path.isdir(os.path.join(NODE_DIR, name)):
        pytest.skip("not in this libonnx-testdata")
    text = import_model(load(name, keep))
    printed = verify(text)
    found = ops(printed)
    for op, count in expected.items():
        assert found.count(op) == count, (op, found)
    # Every graph input kept is a function argument.
    model = onnx.load(os.path.join(NODE_DIR, name, "model.onnx"))
    assert printed.count("%arg") >= min(keep, len(model.graph.input))


def test_weights_as_inputs_name_the_node():
    with pytest.raises(ImportFailure, match=r"node '.*' \(Conv\): the weight must be known at import time"):
        import_model(onnx.load(os.path.join(NODE_DIR, "test_conv_with_strides_padding", "model.onnx")))


def test_resize_beyond_tosa_is_gathers_and_products(verify):
    """Nearest Resize tosa.resize cannot compute gathers its rows and
    columns; cubic is a constant interpolation matrix per axis."""
    found = ops(verify(import_model(load("test_resize_upsample_sizes_nearest"))))
    assert "tosa.resize" not in found and found.count("tosa.gather") == 2, found
    found = ops(verify(import_model(load("test_resize_upsample_scales_cubic"))))
    assert "tosa.resize" not in found and found.count("tosa.matmul") == 2, found


def test_sweep_never_crashes():
    """Every node test either imports or fails with an ImportFailure."""
    crashes = []
    for name in sorted(os.listdir(NODE_DIR)):
        path = os.path.join(NODE_DIR, name, "model.onnx")
        if not os.path.exists(path):
            continue
        try:
            import_model(onnx.load(path))
        except ImportFailure:
            pass
        except Exception as e:  # noqa: BLE001 - the point is to catch anything
            crashes.append("%s: %s: %s" % (name, type(e).__name__, e))
    assert not crashes, "\n".join(crashes[:20])
