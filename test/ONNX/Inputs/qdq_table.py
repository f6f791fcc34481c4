"""ONNX backend-style test directories (model.onnx, test_data_set_0) of a
quantized Sigmoid or Tanh as quantizers leave it, DQ -> f -> Q, written to
DIR, each input holding all 256 levels of its type (shuffled):

  sigmoid        int8, x at 1/16 zero point 0, y at 1/127 zero point 0
                 (bench/seg_net.py's table)
  sigmoid_u8     uint8, x at 0.05 zero point 131, y at 1/255 zero point 0
                 (onnxruntime's uint8 sigmoid output)
  tanh           int8, x at 0.03 zero point 5, y at 1/128 zero point -1
  sigmoid_full   int8, x at 0.1, y at 1/256 zero point -128 (onnxruntime's
                 int8 sigmoid output: all 256 output levels)
  float.onnx     a float Conv -> Sigmoid, Tanh and float.table.json, its
                 calibration table (the calibrated compile's QDQ form)

Expected outputs: numpy written from ONNX's operator definitions, float64:
DequantizeLinear (x - zp) * s, the function, QuantizeLinear
saturate(round_even(y / s) + zp). Each directory also holds the input as
x.npy (test/NvdlaCModel/trace-qdq-table.test).

    qdq_table.py DIR
    qdq_table.py --check OUT DIR BOUND
        OUT/<case>/output_0.npy (dla-run-onnx --output-dir) against the
        float function: each case's largest distance in output steps, and
        whether it is within BOUND"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

F = {"Sigmoid": lambda v: 1.0 / (1.0 + np.exp(-v)), "Tanh": np.tanh}
CASES = [("sigmoid", "Sigmoid", np.int8, 1 / 16, 0, 1 / 127, 0),
         ("sigmoid_u8", "Sigmoid", np.uint8, 0.05, 131, 1 / 255, 0),
         ("tanh", "Tanh", np.int8, 0.03, 5, 1 / 128, -1),
         ("sigmoid_full", "Sigmoid", np.int8, 0.1, 0, 1 / 256, -128)]


def expected(op, x, xs, xz, ys, yz, dtype):
    v = (x.astype(np.float64) - xz) * np.float64(np.float32(xs))
    y = F[op](v) / np.float64(np.float32(ys))
    info = np.iinfo(dtype)
    return np.clip(np.rint(y) + yz, info.min, info.max).astype(dtype)


def write(root, name, op, dtype, xs, xz, ys, yz):
    shape = [1, 2, 8, 16]
    info = np.iinfo(dtype)
    x = np.random.default_rng(45).permutation(np.arange(info.min, info.max + 1)).astype(dtype)
    x = x.reshape(shape)
    tp = TensorProto.INT8 if dtype == np.int8 else TensorProto.UINT8
    inits = [numpy_helper.from_array(np.array(xs, np.float32), "xs"),
             numpy_helper.from_array(np.array(xz, dtype), "xz"),
             numpy_helper.from_array(np.array(ys, np.float32), "ys"),
             numpy_helper.from_array(np.array(yz, dtype), "yz")]
    nodes = [helper.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]),
             helper.make_node(op, ["xf"], ["yf"], name="act"),
             helper.make_node("QuantizeLinear", ["yf", "ys", "yz"], ["y"])]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", tp, shape)],
                              [helper.make_tensor_value_info("y", tp, shape)], inits)
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(d, "model.onnx"))
    np.save(os.path.join(d, "x.npy"), x)  # run_network_trace.py's input
    for kind, a in (("input", x), ("output", expected(op, x, xs, xz, ys, yz, dtype))):
        with open(os.path.join(d, "test_data_set_0", kind + "_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())


def write_float(root):
    """float.onnx, x -> Conv 1x1 -> Sigmoid and Tanh (two outputs), and a
    calibration table of stated scales (NVIDIA's JSON) for it: what a
    calibrated compile quantizes."""
    import json
    w = numpy_helper.from_array(np.ones((2, 2, 1, 1), np.float32), "w")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
             helper.make_node("Sigmoid", ["c"], ["s"], name="sig"),
             helper.make_node("Tanh", ["c"], ["t"], name="tanh")]
    graph = helper.make_graph(
        nodes, "float", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 2, 4, 4]) for n in "st"], [w])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(root, "float.onnx"))
    scales = {"x": 1 / 32, "c": 1 / 16, "s": 1 / 127, "t": 1 / 127}
    with open(os.path.join(root, "float.table.json"), "w") as f:
        json.dump({k: {"scale": v, "min": 0, "max": 0, "offset": 0} for k, v in scales.items()}, f)


def check(out_root, root, bound):
    """Distance of each saved output from saturate(f(x) / ys + zy), the
    float function in output steps (numpy, float64)."""
    for name, op, dtype, xs, xz, ys, yz in CASES:
        x = np.load(os.path.join(root, name, "x.npy"))
        y = np.load(os.path.join(out_root, name, "output_0.npy")).astype(np.float64)
        v = (x.astype(np.float64) - xz) * np.float64(np.float32(xs))
        info = np.iinfo(dtype)
        exact = np.clip(F[op](v) / np.float64(np.float32(ys)) + yz, info.min, info.max)
        worst = np.abs(y - exact).max()
        print("%s: at most %.3f output steps from the function: %s"
              % (name, worst, "within %g" % bound if worst <= bound else "EXCEEDS %g" % bound))


if sys.argv[1] == "--check":
    check(sys.argv[2], sys.argv[3], float(sys.argv[4]))
else:
    for case in CASES:
        write(sys.argv[1], *case)
    write_float(sys.argv[1])
