"""ONNX's LayerNormalization (opset 17) over the tokens of a map of one
row: a Conv, Reshape / Transpose to tokens [1, T, C], LayerNormalization
(axis -1), back to the map, a Conv. Writes OUT/model.onnx, OUT/x.npy,
OUT/y.npy (numpy float64 of the same graph) and OUT/calib/*.npy.

    layernorm_op.py OUT
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def conv(x, w, b):
    return np.einsum("nchw,oc->nohw", x, w[:, :, 0, 0]) + b.reshape(1, -1, 1, 1)


def main(out):
    rng = np.random.default_rng(7)
    cin, c, t = 8, 96, 24
    w1 = rng.normal(0, 0.3, (c, cin, 1, 1)).astype(np.float32)
    b1 = rng.normal(0, 0.5, c).astype(np.float32)
    gamma = (rng.uniform(0.5, 1.5, c) * np.where(rng.random(c) < 0.2, -1, 1)).astype(np.float32)
    beta = rng.normal(0, 0.2, c).astype(np.float32)
    w2 = rng.normal(0, 0.1, (16, c, 1, 1)).astype(np.float32)
    b2 = rng.normal(0, 0.1, 16).astype(np.float32)
    inits = [numpy_helper.from_array(v, n) for v, n in (
        (w1, "w1"), (b1, "b1"), (gamma, "gamma"), (beta, "beta"), (w2, "w2"), (b2, "b2"),
        (np.array([1, c, t], np.int64), "s1"), (np.array([1, 1, t, c], np.int64), "s2"))]
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["m"]),
             helper.make_node("Reshape", ["m", "s1"], ["cw"]),
             helper.make_node("Transpose", ["cw"], ["tokens"], perm=[0, 2, 1]),
             helper.make_node("LayerNormalization", ["tokens", "gamma", "beta"], ["ln"], axis=-1,
                              epsilon=1e-5, name="ln"),
             helper.make_node("Reshape", ["ln", "s2"], ["nhwc"]),
             helper.make_node("Transpose", ["nhwc"], ["map"], perm=[0, 3, 1, 2]),
             helper.make_node("Conv", ["map", "w2", "b2"], ["y"])]
    g = helper.make_graph(nodes, "layernorm_op", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                               [1, cin, 1, t])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16, 1, t])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    os.makedirs(os.path.join(out, "calib"), exist_ok=True)
    onnx.save(m, os.path.join(out, "model.onnx"))

    def run(x):
        tok = conv(x.astype(np.float64), w1, b1).reshape(1, c, t).transpose(0, 2, 1)
        d = tok - tok.mean(-1, keepdims=True)
        ln = gamma * d / np.sqrt((d * d).mean(-1, keepdims=True) + 1e-5) + beta
        return conv(ln.reshape(1, 1, t, c).transpose(0, 3, 1, 2), w2, b2)

    for i in range(8):
        np.save(os.path.join(out, "calib", "%d.npy" % i),
                rng.uniform(-1, 1, (1, cin, 1, t)).astype(np.float32))
    x = rng.uniform(-1, 1, (1, cin, 1, t)).astype(np.float32)
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "y.npy"), run(x).astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1])
