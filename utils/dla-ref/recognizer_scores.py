#!/usr/bin/env python3
"""The recognizer's attention scores and values (PaddleOCR PP-OCRv4 rec,
float, onnxruntime-node) on rendered text lines, for softmax_int8_model.py.

    PYTHONPATH=utils python3 utils/dla-ref/recognizer_scores.py OUT.npz
        [--model build/models/ch_PP-OCRv4_rec_infer.onnx] [--calibration 32] [--count 32]

Per block b1, b2: the scores MatMul(q * scale, k^T) ([lines, 8 heads, 40,
40]) and v ([lines, 8, 40, 15]) on the calibration lines 0.. (`cal`) and
the evaluation lines 1000.. (`eval`), as bench/int8_accuracy.py draws
them. Needs ONNXRUNTIME_NODE as utils/ort/run-ort.js does.
"""

import argparse
import os
import subprocess
import tempfile

import numpy as np
import onnx

import textlines  # utils/ (PYTHONPATH)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Per block: the scores (the Softmax's input) and v (p v's right operand).
TENSORS = {"b1": ("p2o.MatMul.3", "transpose_44.tmp_0_slice_2"),
           "b2": ("p2o.MatMul.15", "transpose_47.tmp_0_slice_2")}
MODEL = os.path.join(ROOT, "build", "models", "ch_PP-OCRv4_rec_infer.onnx")
ORT = os.path.expanduser("~/.cache/dla-mlir/onnxruntime-node-1.20.1/node_modules/onnxruntime-node")


def run_ort(model, arrays, work):
    """The model's outputs on the arrays (its inputs in order), by
    utils/ort/run-ort.js."""
    files = []
    for k, a in enumerate(arrays):
        files.append(os.path.join(work, "in%d.npy" % k))
        np.save(files[-1], a)
    out = os.path.join(work, "out")
    env = dict(os.environ, ONNXRUNTIME_NODE=os.environ.get("ONNXRUNTIME_NODE", ORT))
    subprocess.run(["node", os.path.join(ROOT, "utils", "ort", "run-ort.js"), model, out] + files,
                   check=True, env=env, capture_output=True)
    n = len(onnx.load(model).graph.output)
    return [np.load(os.path.join(out, "%d.npy" % k)) for k in range(n)]


def run(model, first, count, work):
    """The four tensors on lines first.., one line per run."""
    outs = [run_ort(model, [textlines.as_input(textlines.render(i)[0], 48, 320)[None]
                            .astype(np.float32)], work)
            for i in range(first, first + count)]
    return [np.concatenate([o[k] for o in outs]) for k in range(4)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--calibration", type=int, default=32)
    ap.add_argument("--count", type=int, default=32)
    a = ap.parse_args()
    m = onnx.load(a.model)
    del m.graph.output[:]
    for b in sorted(TENSORS):
        for name in TENSORS[b]:
            m.graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT,
                                                                     None))
    with tempfile.TemporaryDirectory() as work:
        model = os.path.join(work, "rec.onnx")
        onnx.save(m, model)
        res = {}
        for tag, first, count in (("cal", 0, a.calibration), ("eval", 1000, a.count)):
            s1, v1, s2, v2 = run(model, first, count, work)
            res.update({"b1_%s_s" % tag: s1, "b1_%s_v" % tag: v1,
                        "b2_%s_s" % tag: s2, "b2_%s_v" % tag: v2})
    np.savez_compressed(a.out, **res)


if __name__ == "__main__":
    main()
