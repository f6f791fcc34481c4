"""A quantized swish as exporters and quantizers leave it: DQ(x) -> Mul by
c -> Sigmoid -> Q -> DQ -> Mul by DQ(x) -> Q (x int8, every level once),
for c = 1.0 (SiLU) and 1.702 (the GELU approximation).

    qdq_swish.py DIR              writes DIR/<case>/model.onnx, x.npy
    qdq_swish.py --check DIR      DIR/<case>/output_0.npy (dla-run-onnx
                                  --output-dir) against numpy's float
                                  x * sigmoid(c x), in output steps: within
                                  |x| 3 / (254 ys) + 3/2 (qdq_table.py's
                                  bound: the gate within 3/254, the output's
                                  rounding, the SDP's int16 multiplier)
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

CASES = [("silu", 1.0, 0.05, 7), ("gelu", 1.702, 0.03, -11)]


def params(xs, xz, c):
    x = (np.arange(-128, 128) - xz) * np.float64(np.float32(xs))
    y = x / (1 + np.exp(-c * x))
    lo, hi = min(y.min(), 0), max(y.max(), 0)
    ys = np.float32((hi - lo) / 255)
    return x, ys, int(np.clip(-128 + round(-lo / ys), -128, 127))


def write(root):
    for name, c, xs, xz in CASES:
        _, ys, yz = params(xs, xz, c)
        i = lambda v, n, t=np.float32: numpy_helper.from_array(np.array(v, t), n)
        inits = [i(xs, "xs"), i(xz, "xz", np.int8), i(c, "c"), i(1 / 255, "gs"), i(-128, "gz", np.int8),
                 i(ys, "ys"), i(yz, "yz", np.int8)]
        nodes = [helper.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]),
                 helper.make_node("Mul", ["xf", "c"], ["cx"]),
                 helper.make_node("Sigmoid", ["cx"], ["g"]),
                 helper.make_node("QuantizeLinear", ["g", "gs", "gz"], ["gq"]),
                 helper.make_node("DequantizeLinear", ["gq", "gs", "gz"], ["gf"]),
                 helper.make_node("Mul", ["xf", "gf"], ["yf"]),
                 helper.make_node("QuantizeLinear", ["yf", "ys", "yz"], ["y"])]
        g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 2, 8, 16])],
                              [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 2, 8, 16])], inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        m.ir_version = 7
        d = os.path.join(root, name)
        os.makedirs(d, exist_ok=True)
        save(m, os.path.join(d, "model.onnx"))
        x = np.random.default_rng(45).permutation(np.arange(-128, 128)).astype(np.int8).reshape(1, 2, 8, 16)
        np.save(os.path.join(d, "x.npy"), x)


def check(root):
    bad = 0
    for name, c, xs, xz in CASES:
        _, ys, yz = params(xs, xz, c)
        x = np.load(os.path.join(root, name, "x.npy")).astype(np.float64)
        out = np.load(os.path.join(root, name, "output_0.npy")).astype(np.float64)
        v = (x - xz) * np.float64(np.float32(xs))
        ref = np.clip(v / (1 + np.exp(-c * v)) / np.float64(ys) + yz, -128, 127)
        err = np.abs(out - ref)
        bound = np.abs(v) * 3 / (254 * np.float64(ys)) + 1.5
        ok = bool(np.all(err <= bound))
        bad += not ok
        print("%s: max %.2f output steps from the float swish (bound at that level %.2f), mean %.3f: %s"
              % (name, err.max(), bound.reshape(-1)[np.argmax(err)], err.mean(), "ok" if ok else "FAIL"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(check(sys.argv[2]) if sys.argv[1] == "--check" else write(sys.argv[1]))
