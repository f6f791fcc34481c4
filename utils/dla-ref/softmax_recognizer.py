#!/usr/bin/env python3
"""The recognizer (PP-OCRv4 rec) in float on onnxruntime-node with its two
attention cores' softmax and p v replaced by softmax_int8_model.py's int8
program, or by the QDQ model's softmax: the per-step argmax agreement with
the float model, the softmax's own share of the int8 recognizer's loss.

    PYTHONPATH=utils:utils/dla-ref python3 utils/dla-ref/softmax_recognizer.py SCORES.npz
        [--model build/models/ch_PP-OCRv4_rec_infer.onnx] [--count 64]

SCORES.npz: recognizer_scores.py's (the scales are calibrated on its
`cal` lines, as the compiled network's). The model is cut at each block's
p v (onnx.utils.Extractor): A = x -> (scores, v, what the rest reads), B
= block 1's p v and the rest -> block 2's scores, v, ..., C = block 2's p
v ... -> the output; the evaluation lines 1000.. run batched. The int8 p
v is dequantized at its calibrated scale; everything else stays float.
"""

import argparse
import os
import tempfile

import numpy as np
import onnx
from onnx import utils as onnx_utils

import softmax_int8_model as M
import textlines  # utils/ (PYTHONPATH)
from recognizer_scores import MODEL, TENSORS, run_ort as run

# Per block, the p v MatMul's output (the cut).
PV = {"b1": "p2o.MatMul.5", "b2": "p2o.MatMul.17"}


def forward_reach(graph, start):
    reach, nodes = {start}, []
    for n in graph.node:  # topological order
        if any(i in reach for i in n.input):
            nodes.append(n)
            reach.update(n.output)
    return nodes, reach


def cut_inputs(graph, tensor, from_x):
    """The tensors computed from x before `tensor` that nodes after it read."""
    nodes, reach = forward_reach(graph, tensor)
    need = []
    for n in nodes:
        for i in n.input:
            if i and i not in reach and i in from_x and i not in need:
                need.append(i)
    return need


def attend(s, v, q, chains, mode):
    """p v of scores s [.., 40, 40] and v [.., 40, 15] (float): exact,
    the QDQ model's, or the int8 program's, dequantized."""
    if mode == "float":
        return (M.softmax(s) @ v).astype(np.float32)
    s8 = M.quantize(s, *q["s"])
    v8 = np.zeros(v.shape[:-1] + (16,), np.int64)
    v8[..., :15] = M.quantize(v, q["v"])
    if mode == "qdq":
        _, o8 = M.qdq_softmax(s8, v8, q)
    else:
        _, o8, _ = M.program(s8, v8, q, "ev", chains)
    return ((o8[..., :15] - q["o"][1]) * q["o"][0]).astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scores")
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--count", type=int, default=64)
    a = ap.parse_args()
    z = np.load(a.scores)
    scales = {b: M.calibrate(z[b + "_cal_s"], z[b + "_cal_v"]) for b in PV}
    chains = {b: M.plans(scales[b]["s"][0]) for b in PV}
    m = onnx.load(a.model)
    g = m.graph
    _, from_x = forward_reach(g, g.input[0].name)
    c1, c2 = cut_inputs(g, PV["b1"], from_x), cut_inputs(g, PV["b2"], from_x)
    ex = onnx_utils.Extractor(m)
    x = np.stack([textlines.as_input(textlines.render(i)[0], 48, 320)
                  for i in range(1000, 1000 + a.count)]).astype(np.float32)
    with tempfile.TemporaryDirectory() as work:
        parts = {}
        for name, ins, outs in (("A", [g.input[0].name], list(TENSORS["b1"]) + c1),
                                ("B", [PV["b1"]] + c1, list(TENSORS["b2"]) + c2),
                                ("C", [PV["b2"]] + c2, [g.output[0].name])):
            parts[name] = os.path.join(work, name + ".onnx")
            onnx.save(ex.extract_model(ins, outs), parts[name])
        ref = run(a.model, [x], work)[0]
        first = run(parts["A"], [x], work)
        for mode in ("float", "qdq", "int8"):
            o1 = attend(first[0].astype(np.float64), first[1].astype(np.float64), scales["b1"],
                        chains["b1"], mode)
            second = run(parts["B"], [o1] + first[2:], work)
            o2 = attend(second[0].astype(np.float64), second[1].astype(np.float64),
                        scales["b2"], chains["b2"], mode)
            y = run(parts["C"], [o2] + second[2:], work)[0]
            print("%s: %d lines, per-step argmax agreement with the float model %.2f%%"
                  % (mode, a.count, 100 * np.mean(np.argmax(y, -1) == np.argmax(ref, -1))),
                  flush=True)


if __name__ == "__main__":
    main()
