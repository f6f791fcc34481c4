"""Writes ONNX backend-style test directories (model.onnx, test_data_set_0)
of pooling layers whose windows the PDP cannot hold, with numpy's expected
outputs: --dla-convert-tosa splits each into a chain of dla.pool layers.
Inputs are fp16 values, so the max chains must be exact."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def max_pool(x, k, s, pads):
    """ONNX MaxPool (pads = [top, left, bottom, right], padding ignored)."""
    t, l, b, r = pads
    xp = np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)), constant_values=-np.inf)
    oh = (xp.shape[2] - k[0]) // s[0] + 1
    ow = (xp.shape[3] - k[1]) // s[1] + 1
    y = np.empty(x.shape[:2] + (oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = xp[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]].max(axis=(2, 3))
    return y


def avg_pool(x, k, s):
    oh = (x.shape[2] - k[0]) // s[0] + 1
    ow = (x.shape[3] - k[1]) // s[1] + 1
    y = np.empty(x.shape[:2] + (oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = x[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]].astype(
                np.float64).mean(axis=(2, 3))
    return y


def write(root, name, op, shape, y, **attrs):
    rng = np.random.default_rng(len(name))
    x = rng.uniform(-4, 4, size=shape).astype(np.float16).astype(np.float32)
    y = y(x)
    node = helper.make_node(op, ["x"], ["y"], **attrs)
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)])
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              os.path.join(d, "model.onnx"))
    for kind, a in (("input", x), ("output", y)):
        with open(os.path.join(d, "test_data_set_0", kind + "_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a.astype(np.float32)).SerializeToString())


root = sys.argv[1]
write(root, "maxpool_12x12_s3_pads", "MaxPool", [1, 4, 20, 21],
      lambda x: max_pool(x, (12, 12), (3, 3), (5, 2, 6, 11)),
      kernel_shape=[12, 12], strides=[3, 3], pads=[5, 2, 6, 11])
write(root, "maxpool_3x20_s1x2", "MaxPool", [1, 3, 6, 30],
      lambda x: max_pool(x, (3, 20), (1, 2), (0, 0, 0, 0)), kernel_shape=[3, 20], strides=[1, 2])
write(root, "globalmaxpool_30x17", "GlobalMaxPool", [1, 5, 30, 17],
      lambda x: x.max(axis=(2, 3), keepdims=True))
write(root, "globalaveragepool_24x96", "GlobalAveragePool", [1, 8, 24, 96],
      lambda x: x.astype(np.float64).mean(axis=(2, 3), keepdims=True).astype(np.float32))
write(root, "averagepool_16x1_s8", "AveragePool", [1, 2, 24, 3],
      lambda x: avg_pool(x, (16, 1), (8, 1)), kernel_shape=[16, 1], strides=[8, 1])
