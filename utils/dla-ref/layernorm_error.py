#!/usr/bin/env python3
"""The int8 LayerNorm program (python/dla/onnx/qdq_layernorm.py) against
the float LayerNorm: random token sets (per-channel offsets and ranges,
per-token standard deviations spread by e^+-SPREAD), each a QDQ model
(x [1, T, C] quantized at its range, the LayerNorm spelled out as
exporters write it, x - mean (at zero point 0), var + eps and the
normalized values quantized at their ranges as qdq.py does from a
calibration table, the output at its range), compiled for nv_small int8 by dla-run-onnx and run on the CPU
(the offloaded program's CPU execution; test/NvdlaCModel shows it equal
to NVIDIA's C model). Reference: numpy's float64 LayerNorm of the
quantized input, in output steps; errors where the float output leaves
the output's range are clamped as the output is.

    layernorm_error.py --dla-run-onnx TOOL --keep DIR [--seeds 0-4] [--spread 0.5]
        [--bound MEAN P99 MAX]
"""

import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def params(lo, hi):
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    s = np.float32(max(hi - lo, 1e-6) / 255)
    return s, int(np.clip(-128 + round(-lo / s), -128, 127))


def layernorm(x, gamma, beta, eps):
    d = x - x.mean(-1, keepdims=True)
    return gamma * d / np.sqrt((d * d).mean(-1, keepdims=True) + eps) + beta


def build(seed, spread):
    rng = np.random.default_rng(seed)
    c, t = int(rng.integers(8, 129)), int(rng.integers(4, 48))
    eps = float(rng.choice([1e-5, 1e-6]))
    gamma = rng.uniform(0.3, 1.5, c) * np.where(rng.random(c) < 0.2, -1, 1)
    beta = rng.normal(0, 0.2, c)
    offs, scale = rng.normal(0, 0.3, c), np.exp(rng.normal(0, 0.5, c))

    def sample(n):
        return (rng.normal(0, 1, (n, t, c)) * scale * np.exp(rng.uniform(-spread, spread, (n, t, 1)))
                + offs)
    cal = sample(8)  # the "calibration" tokens: every range from them
    xs, xz = params(cal.min(), cal.max())
    xq = (np.clip(np.rint(cal / xs) + xz, -128, 127) - xz) * np.float64(xs)
    d = xq - xq.mean(-1, keepdims=True)
    var = (d * d).mean(-1, keepdims=True) + eps
    n = d / np.sqrt(var)
    y = n * gamma + beta
    q = {"x": (xs, xz), "d": (np.float32(np.abs(d).max() / 127), 0), "var": params(0.0, var.max()),
         "n": params(n.min(), n.max()),
         "y": params(y.min(), y.max())}
    inits, nodes = [], []

    def init(name, v):
        inits.append(numpy_helper.from_array(np.asarray(v), name))
        return name

    def qdq(src, key):
        s, z = q[key]
        nodes.extend([helper.make_node("QuantizeLinear", [src, init(key + "_s", np.float32(s)),
                                                          init(key + "_z", np.int8(z))], [key + "_q"]),
                      helper.make_node("DequantizeLinear", [key + "_q", key + "_s", key + "_z"], [key + "_dq"])])
        return key + "_dq"

    x = qdq("x", "x")
    ax = {"axes": [-1]}
    nodes += [helper.make_node("ReduceMean", [x], ["mean"], **ax),
              helper.make_node("Sub", [x, "mean"], ["d"])]
    dd = qdq("d", "d")
    nodes += [helper.make_node("Pow", [dd, init("two", np.float32(2))], ["sq"]),
              helper.make_node("ReduceMean", ["sq"], ["msq"], **ax),
              helper.make_node("Add", ["msq", init("eps", np.float32(eps))], ["var"])]
    v = qdq("var", "var")
    nodes += [helper.make_node("Sqrt", [v], ["sd"]), helper.make_node("Div", [dd, "sd"], ["n"])]
    nd = qdq("n", "n")
    nodes += [helper.make_node("Mul", [nd, init("gamma", gamma.astype(np.float32))], ["g"]),
              helper.make_node("Add", ["g", init("beta", beta.astype(np.float32))], ["y"])]
    s, z = q["y"]
    nodes.append(helper.make_node("QuantizeLinear", ["y", init("y_s", np.float32(s)), init("y_z", np.int8(z))],
                                  ["out"]))
    g = helper.make_graph(nodes, "layernorm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, t, c])],
                          [helper.make_tensor_value_info("out", TensorProto.INT8, [1, t, c])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    return m, sample(1).astype(np.float32), q, (gamma, beta, eps)


def seeds(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dla-run-onnx", required=True)
    p.add_argument("--keep", required=True)
    p.add_argument("--seeds", type=seeds, default=seeds("0-4"))
    p.add_argument("--spread", type=float, default=0.5)
    p.add_argument("--bound", type=float, nargs=3, metavar=("MEAN", "P99", "MAX"),
                   help="print FAIL when the mean, the 99th percentile or the largest error "
                        "(output steps) exceeds these")
    a = p.parse_args()
    worst, errs = 0.0, []
    for seed in a.seeds:
        m, x, q, (gamma, beta, eps) = build(seed, a.spread)
        d = os.path.join(a.keep, "ln_%d" % seed)
        os.makedirs(d, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        np.save(os.path.join(d, "x.npy"), x)
        ran = subprocess.run([a.dla_run_onnx, os.path.join(d, "model.onnx"), "--input", os.path.join(d, "x.npy"),
                              "--target", "nv_small", "--precision", "int8", "--opt-level", "0",
                              "--output-dir", d], capture_output=True, text=True)
        if ran.returncode:
            print("seed %d: FAILED\n%s" % (seed, (ran.stdout + ran.stderr)[-2000:]))
            return 1
        out = np.load(os.path.join(d, "output_0.npy")).astype(np.float64)
        xs, xz = q["x"]
        xq = (np.clip(np.rint(x.astype(np.float64) / xs) + xz, -128, 127) - xz) * np.float64(xs)
        ys, yz = q["y"]
        ref = np.clip(layernorm(xq, gamma, beta, eps) / np.float64(ys) + yz, -128, 127)
        e = np.abs(out - ref).reshape(-1)
        errs.append(e)
        print("seed %d (%d tokens of %d channels): max %.2f, mean %.3f output steps"
              % (seed, x.shape[1], x.shape[2], e.max(), e.mean()))
    e = np.concatenate(errs)
    figures = (e.mean(), np.quantile(e, 0.99), e.max())
    print("all: max %.2f, mean %.3f, 99%% within %.2f output steps of the float LayerNorm"
          % (figures[2], figures[0], figures[1]))
    if a.bound:
        bad = [w for w, v, b in zip(("mean", "99%", "max"), figures, a.bound) if v > b]
        print("FAIL: %s above the bound" % ", ".join(bad) if bad else "within the bound")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
