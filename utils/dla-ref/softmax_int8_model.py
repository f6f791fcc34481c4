#!/usr/bin/env python3
"""A numpy model of the proposed int8 softmax over 40 keys on nv_small
(issue 45: the recognizer's attention; docs/WholeNetworks.md, "The
softmax over 40 keys on nv_small"), pass by pass in the units' integer
arithmetic (int_sdp.sdp_x / sdp_cvt, int_pdp.pdp_pool, exact int32
convolutions), against the float softmax and the QDQ softmax. The
compiler does not emit it yet: softmax_head.py writes one head as a dla
module from this model's chains, whose layers run on NVIDIA's C model and
whose output equals this model's (test/NvdlaCModel/trace-softmax-head.test).

    PYTHONPATH=utils/dla-ref python3 utils/dla-ref/softmax_int8_model.py [--scores S.npz]

Per head, scores s [40 queries, 40 keys] int8 at (s_s, z_s), the layout
queries as channels, keys as the 5 x 8 positions (s^T: the convolution of
k's map by dla.as_weights(q): step 1):

2. m = the PDP's max pooling over the 5 x 8 keys: [40, 1, 1], exact.
3. d = m - s - 128: one SDP pass over a map of -1s (X1 multiplies it by
   m per channel, X2 adds s per element, the output converter's scale -1
   and offset -128), exact: m - s is 0..255 levels.
4. e = exp(-s_s (d + 128)) at 1/127 (zero point 0; e = 127 at each row's
   max): the falling int8 table as TablePrograms.cpp's chain, one SDP pass
   per segment (`chain_plan`), exact where e < 8 and centred elsewhere
   (`exp_table`).
5. e^T: a convolution of the 40 x 40 identity map by dla.as_weights(e)
   (keys now channels, queries positions): exact, not modelled.
6. S = sum over keys: a 1x1 convolution of e by ones (int32, exact) and,
   on the fly, the reciprocal r = rint(R / S), R = 127^2, S in 127..5080,
   as a chain over the accumulator's values (one convolution + SDP per
   segment, the same chain over a wider domain; 21 segments, exact where
   r < 16).
7a. (`design="p"`) p = e r / 127: one SDP pass (X1 multiplies by r per
   element, X2 by 1/127 as multiplier and shift) at 1/127, zero point 0
   (as the QDQ model quantizes p: p v's left operand has zero point 0);
   then p v a convolution requantized at o's scale.
7b. (`design="ev"`) o = (e v) r: the convolution of e by dla.as_weights(v^T)
   multiplies its accumulator by r per element on the fly (X1) and by
   s_v / (R s_o) (X2), so p is never rounded to int8.
"""

import argparse
import functools
import math

import numpy as np

from int_arith import rha
from int_pdp import pdp_pool
from int_sdp import sdp_cvt, sdp_x

KEYS = 40
E_TOP = 127                # e at each row's max
R = 127 * 127              # r = R / S: 127 at S = 127 (one key)
# A tosa.table keeps 16 segments (TablePlans.h kMaxTableSegments); the
# reciprocal exact below 16 levels takes 21 (SoftmaxTables.h
# kSoftmaxMaxSegments: 24).
MAX_SEGMENTS = 24
MAX_SHIFT = 24             # TablePlans.cpp kMaxShift
TABLE_ERROR = 1            # kTableProgramError
LOW = 0.5                  # the tables' values lowered by 1/2 where the chain may err by 1
EXACT_BELOW = 8            # the exp chain exact where e < 8
RECIP_EXACT_BELOW = 16     # the reciprocal's exact where r < 16


# -- the monotone chain of TablePlans.cpp (planChain), over any integer domain
# (test/Conversion/TosaToDLA/table-chains-softmax.mlir: the C++ plans the
# same segments as chain_plan, exp_table and recip_table here) ----------

def _llround(v):
    return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


def _multiplier(slope):
    for shift in range(MAX_SHIFT, -1, -1):
        m = _llround(math.ldexp(slope, shift))
        if -32768 <= m <= 32767:
            return m, shift
    return None


def _ramp(seg, x):
    lo, _, m, shift, _, _ = seg
    return np.maximum(0, rha((np.asarray(x, dtype=np.int64) - lo) * m, shift))


def _fit(t, base, lo, hi, last, tol):
    """fitChain: segment [lo, hi] of the rising table t (t[x - base]),
    each level within tol[x - base] of the table."""
    frm, to = int(t[lo - base]), int(t[hi - base])
    ms = _multiplier((to - frm) / (hi - lo))
    if ms is None:
        return None
    seg = [lo, hi, ms[0], ms[1], frm, to]
    if not last and frm + int(_ramp(seg, hi)) < to:
        seg[2] += 1
        if seg[2] > 32767 or frm + int(_ramp(seg, hi)) < to:
            return None
    xs = np.arange(lo, hi + 1)
    p = frm + _ramp(seg, xs)
    if not last:
        p = np.minimum(p, to)
    if np.any(np.abs(p - t[lo - base:hi - base + 1]) > tol[lo - base:hi - base + 1]):
        return None
    return tuple(seg)


def chain_plan(table, base, exact_below=None, max_segments=MAX_SEGMENTS):
    """The chain of a monotone table over levels base .. base + len - 1:
    (segments, falling). Greedy longest segments as TablePlans.cpp,
    within TABLE_ERROR of the table, or exactly where |table| <
    exact_below (a tail whose errors would add up in a sum)."""
    t = np.asarray(table, dtype=np.int64)
    tol = np.full(len(t), TABLE_ERROR)
    if exact_below is not None:
        tol[np.abs(t) < exact_below] = 0
    rising = bool(np.all(np.diff(t) >= 0))
    falling = bool(np.all(np.diff(t) <= 0))
    if not (rising or falling):
        raise ValueError("not monotone")
    if not rising:
        t = -t
    top = base + len(t) - 1
    segs, lo = [], base
    while lo < top:
        best = None
        # the longest fitting segment (as the C++ loop keeps the last fit)
        for hi in range(lo + 1, top + 1):
            s = _fit(t, base, lo, hi, hi == top, tol)
            if s is not None:
                best = s
        if best is None or len(segs) == max_segments:
            raise ValueError("no chain of %d segments" % max_segments)
        segs.append(best)
        lo = best[1]
    return segs, not rising


def chain_passes(x, plan):
    """The chain's SDP passes on x (int8 levels, or a convolution's int32
    accumulator on the fly), each in the units' arithmetic:
    X1: ALU sum -b_k, MUL m_k, shift s_k, ReLU; X2: ALU sum of the
    previous pass's map per element; output converter offset / scale,
    int8 saturation."""
    segs, falling = plan
    n = len(segs)
    stored, carry = None, 0
    for k, (lo, _, m, shift, frm, to) in enumerate(segs):
        x1 = sdp_x(x, alu_bypass=0, alu_algo="sum", alu_operand=-lo, mul_bypass=0,
                   mul_operand=m, mul_shift_value=shift, relu_bypass=0)
        if k:
            x2 = sdp_x(x1, alu_bypass=0, alu_algo="sum", alu_operand=stored.astype(np.int64),
                       mul_bypass=1, relu_bypass=1)
        else:
            x2 = x1
        c = 127 - to if k + 1 < n else 0
        offset = -(frm + c) if k == 0 else carry - c
        scale = -1 if (k + 1 == n and falling) else 1
        stored = sdp_cvt(x2, cvt_offset=offset, cvt_scale=scale, cvt_shift=0,
                         out_precision="int8")
        carry = c
    return stored.astype(np.int64)


# -- the tables ---------------------------------------------------------

def exp_table(s_scale, low=LOW, exact_below=EXACT_BELOW):
    """e at level d = -128..127 (d + 128 = m - s levels): the int8 table
    of exp(-s_s (d + 128)) at 1/127, rint as QuantizeLinear; at and above
    `exact_below` of the value less `low` (a chain within 1 level of its
    table errs upwards: low = 1/2 centres it on the function; below
    exact_below the chain is exact, so the many small e of a row add no
    bias to its sum)."""
    d = np.arange(-128, 128)
    e = E_TOP * np.exp(-s_scale * (d + 128.0))
    t = np.where(np.rint(e) < (exact_below or 0), np.rint(e), np.rint(e - low))
    t[0] = E_TOP                                    # the row's max: exact
    return np.clip(t, 0, 127).astype(np.int64)


def recip_table(low=LOW, exact_below=RECIP_EXACT_BELOW):
    """r at S = E_TOP .. KEYS E_TOP (the sum of a row's e: at least its
    max, 127); at and above exact_below of the value less `low` (as
    exp_table's: r's own rounding is the program's largest error, and a
    chain's upward error of 1 where r is a few levels would be a
    systematic relative error of the whole row; r = 127 at S = 127, a
    knot, stays exact as e = 127 at the max does)."""
    r = R / np.arange(E_TOP, KEYS * E_TOP + 1)
    t = np.where(np.rint(r) < (exact_below or 0), np.rint(r), np.rint(r - low))
    t[0] = 127                                      # one key: p = 1 exactly
    return np.clip(t, 0, 127).astype(np.int64)


# chain_plan(recip_table(), E_TOP, RECIP_EXACT_BELOW, MAX_SEGMENTS): the
# greedy over 4954 levels takes ~10 s in Python, so the default plan is
# written out here; test_softmax_int8_model.py checks it equals a fresh one.
# (lo, hi, m, shift, from, to) of the negated table (a falling chain).
RECIP_SEGMENTS = [
    (127, 151, 28672, 15, -127, -106), (151, 190, 18485, 15, -106, -84),
    (190, 245, 22640, 16, -84, -65), (245, 331, 25910, 17, -65, -48),
    (331, 476, 27118, 18, -48, -33), (476, 742, 23652, 19, -33, -21),
    (742, 1033, 21620, 20, -21, -15), (1033, 1192, 26379, 22, -15, -14),
    (1192, 1197, 26214, 17, -14, -13), (1197, 1384, 22429, 22, -13, -12),
    (1384, 1421, 28340, 20, -12, -11), (1421, 1653, 18079, 22, -11, -10),
    (1653, 1743, 23302, 21, -10, -9), (1743, 2052, 27148, 23, -9, -8),
    (2052, 2249, 21291, 22, -8, -7), (2249, 2714, 18040, 23, -7, -6),
    (2714, 3151, 19196, 23, -6, -5), (3151, 4019, 19329, 24, -5, -4),
    (4019, 4608, 0, 24, -4, -4), (4608, 4610, 16384, 15, -4, -3),
    (4610, 5080, 0, 24, -3, -3)]


@functools.lru_cache(maxsize=None)
def _recip_plan(low, exact_below, max_segments, fresh=False):
    if not fresh and (low, exact_below, max_segments) == (LOW, RECIP_EXACT_BELOW, MAX_SEGMENTS):
        return RECIP_SEGMENTS, True
    return chain_plan(recip_table(low, exact_below), E_TOP, exact_below, max_segments)


def plans(s_scale, low=LOW, exact_below=EXACT_BELOW, recip_exact_below=RECIP_EXACT_BELOW,
          max_segments=MAX_SEGMENTS):
    """The exp and reciprocal chains for scores at s_scale: exact below
    `exact_below` (the reciprocal's below recip_exact_below), within 1
    level of their tables elsewhere, at most max_segments each."""
    return (chain_plan(exp_table(s_scale, low, exact_below), -128, exact_below, max_segments),
            _recip_plan(low, recip_exact_below, max_segments))


def multiplier(f):
    """f as an int16 multiplier and shift (the finest shift that fits)."""
    for shift in range(63, -1, -1):
        m = _llround(math.ldexp(f, shift))
        if -32768 <= m <= 32767:
            return m, shift
    raise ValueError("multiplier %g" % f)


# -- the program ----------------------------------------------------------

def difference(s, row_max=True):
    """Steps 2 and 3 on scores s [heads, 40 queries, 40 keys] (int8
    levels): d = m - s - 128, m each row's max (the PDP's max pooling of
    the keys as a 5 x 8 window) or, without row_max, the top level 127."""
    m = pdp_pool(s.reshape(-1, KEYS, 5, 8), pooling_method="max", kernel=(5, 8),
                 stride=(1, 1), pad=(0, 0, 0, 0), input_data="int8").astype(np.int64)
    if not row_max:
        m = np.full_like(m, 127)
    # the pass's input is a map of -1s: X1 multiplies it by m per channel
    # (dla.sdp's prelu operand), X2 adds s per element, the output
    # converter gives -(s - m + 128)
    ones = np.full(s.shape, -1, dtype=np.int64).reshape(-1, KEYS, 5, 8)
    x1 = sdp_x(ones, alu_bypass=1, mul_bypass=0, mul_operand=m, relu_bypass=1)
    x2 = sdp_x(x1, alu_bypass=0, alu_algo="sum", alu_operand=s.reshape(-1, KEYS, 5, 8),
               mul_bypass=1, relu_bypass=1)
    d = sdp_cvt(x2, cvt_offset=-128, cvt_scale=-1, cvt_shift=0, out_precision="int8")
    return d.astype(np.int64).reshape(-1, KEYS, KEYS)


def program(s8, v8, q, design="ev", chains=None, row_max=True):
    """s8: [..., 40, 40] int8 scores (queries, keys); v8: [..., 40, dims]
    int8 values (zero point 0); q: the scales {"s": (s_s, z_s), "v": s_v,
    "o": (s_o, z_o)}. row_max = False: each row's max replaced by the
    scores' top level, 127 (no PDP pass). Returns (p8 or None, o8, info)."""
    s_s, _ = q["s"]
    s_v = q["v"]
    s_o, z_o = q["o"]
    lead = s8.shape[:-2]
    exp_plan, recip_plan = chains if chains is not None else plans(s_s)
    s = s8.reshape(-1, KEYS, KEYS).astype(np.int64)          # [heads, q, k]
    d = difference(s, row_max)
    # 4. e
    e = chain_passes(d, exp_plan)
    # 6. S and r (the convolution by ones: exact int32, on the fly)
    acc = e.sum(-1, keepdims=True)
    r = chain_passes(np.broadcast_to(acc, e.shape), recip_plan)[..., :1]
    v = v8.reshape(-1, KEYS, v8.shape[-1]).astype(np.int64)
    info = dict(exp_passes=len(exp_plan[0]), recip_passes=len(recip_plan[0]))
    if design == "p":
        mp, sp = multiplier(1.0 / 127)
        x1 = sdp_x(e, alu_bypass=1, mul_bypass=0, mul_operand=np.broadcast_to(r, e.shape),
                   mul_shift_value=0, relu_bypass=1)
        x2 = sdp_x(x1, alu_bypass=1, mul_bypass=0, mul_operand=mp, mul_shift_value=sp,
                   relu_bypass=1)
        p8 = sdp_cvt(x2, cvt_offset=0, cvt_scale=1, cvt_shift=0,
                     out_precision="int8").astype(np.int64)
        acc_o = p8 @ v                                        # p v: exact int32
        mo, so = multiplier(s_v / (127 * s_o))
        y = sdp_x(acc_o, alu_bypass=1, mul_bypass=0, mul_operand=mo, mul_shift_value=so,
                  relu_bypass=1)
    else:
        p8 = None
        acc_o = e @ v                                         # e v: exact int32
        x1 = sdp_x(acc_o, alu_bypass=1, mul_bypass=0,
                   mul_operand=np.broadcast_to(r, acc_o.shape), mul_shift_value=0, relu_bypass=1)
        mo, so = multiplier(s_v / (R * s_o))
        y = sdp_x(x1, alu_bypass=1, mul_bypass=0, mul_operand=mo, mul_shift_value=so,
                  relu_bypass=1)
    o8 = sdp_cvt(y, cvt_offset=-z_o, cvt_scale=1, cvt_shift=0, out_precision="int8")
    o8 = o8.astype(np.int64).reshape(lead + (KEYS, v8.shape[-1]))
    if p8 is not None:
        p8 = p8.reshape(lead + (KEYS, KEYS))
    return p8, o8, info


# -- references ------------------------------------------------------------

def softmax(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def quantize(x, scale, zp=0):
    return np.clip(np.rint(np.asarray(x) / scale) + zp, -128, 127).astype(np.int64)


def qdq_softmax(s8, v8, q):
    """The QDQ model's arithmetic in numpy (float32 as onnxruntime): DQ(s)
    -> Softmax -> Q(1/127, 0) -> DQ, MatMul with DQ(v) -> Q(o)."""
    s_s, z_s = q["s"]
    s_o, z_o = q["o"]
    x = ((s8 - z_s) * np.float32(s_s)).astype(np.float32)
    e = np.exp(x - x.max(-1, keepdims=True))
    p = (e / e.sum(-1, keepdims=True)).astype(np.float32)
    p8 = np.clip(np.rint(p / np.float32(1 / 127)), -128, 127).astype(np.int64)
    o = (p8 * np.float32(1 / 127)).astype(np.float32) @ (v8 * np.float32(q["v"])).astype(np.float32)
    return p8, quantize(o / np.float32(s_o), 1.0, z_o)


def asymmetric(values, lo=0.01, hi=99.99):
    """Scale and zero point of an int8 tensor as a percentile calibration
    with zero points sets them (the range widened to hold 0)."""
    a, b = np.percentile(values, [lo, hi])
    a, b = min(a, 0.0), max(b, 0.0)
    scale = (b - a) / 255
    return float(scale), int(np.clip(np.rint(-128 - a / scale), -128, 127))


def symmetric(values, hi=99.99):
    return float(np.percentile(np.abs(values), hi) / 127)


def calibrate(s_cal, v_cal):
    """The scales of s, v and o from calibration data (float)."""
    o = softmax(s_cal) @ v_cal
    return {"s": asymmetric(s_cal), "v": symmetric(v_cal), "o": asymmetric(o)}


def sample(rng, heads, dims=15, spread=0.0, scale=1.0):
    """Scores and values drawn like the recognizer's: q, k Gaussian over
    `dims`, each query's norm spread by e^N(0, spread); scores q k^T /
    sqrt(dims) * scale; v Gaussian."""
    q = rng.standard_normal((heads, KEYS, dims)) * np.exp(spread * rng.standard_normal((heads, KEYS, 1)))
    k = rng.standard_normal((heads, KEYS, dims))
    s = np.einsum("hqd,hkd->hqk", q, k) / math.sqrt(dims) * scale
    v = rng.standard_normal((heads, KEYS, dims)) * 0.8
    return s, v


def measure(s_eval, v_eval, q, design="ev", chains=None, row_max=True):
    """Errors of the program and of the QDQ softmax (numpy) on float
    scores / values quantized at q."""
    s8 = quantize(s_eval, q["s"][0], q["s"][1])
    v8 = quantize(v_eval, q["v"])
    p8, o8, info = program(s8, v8, q, design, chains, row_max)
    qp8, qo8 = qdq_softmax(s8, v8, q)
    pf = softmax(s_eval)                                     # float scores
    pd = softmax((s8 - q["s"][1]) * q["s"][0])               # dequantized scores
    s_o, z_o = q["o"]
    of = pf @ v_eval / s_o + z_o                             # float o in o's levels
    inside = (of >= -128.5) & (of <= 127.5)                  # not saturated
    res = dict(info)

    def o_err(o8, tag):
        err = np.abs(o8 - of)[inside]
        res[tag + "o_max"] = float(err.max())
        res[tag + "o_999"] = float(np.percentile(err, 99.9))
        res[tag + "o_rms"] = float(np.sqrt(np.mean(err ** 2)))

    res["qdq_p_vs_float"] = float(np.abs(qp8 / 127 - pf).max())
    res["qdq_p_vs_dq"] = float(np.abs(qp8 / 127 - pd).max())
    o_err(qo8, "qdq_")
    if p8 is not None:
        res["p_vs_float"] = float(np.abs(p8 / 127 - pf).max())
        res["p_vs_dq"] = float(np.abs(p8 / 127 - pd).max())
        res["p_vs_qdq_levels"] = int(np.abs(p8 - qp8).max())
        res["p_vs_qdq_mean"] = float(np.abs(p8 - qp8).mean())
    o_err(o8, "")
    res["o_vs_qdq_max"] = int(np.abs(o8 - qo8).max())
    res["o_vs_qdq_mean"] = float(np.abs(o8 - qo8).mean())
    return res


def ort_qdq(s8, v8, q, work):
    """onnxruntime-node's own QDQ softmax and p v (the QDQ model's nodes:
    DQ(s) -> Softmax -> Q(1/127, 0) -> DQ, MatMul with DQ(v) -> Q(o)) on
    the same int8 scores: (p8, o8). Needs node and ONNXRUNTIME_NODE."""
    import os
    import subprocess
    import onnx
    from onnx import TensorProto, helper

    def const(name, value, dtype):
        return helper.make_tensor(name, dtype, [], [value])

    s_s, z_s = q["s"]
    s_o, z_o = q["o"]
    inits = [const("ss", s_s, TensorProto.FLOAT), const("zs", z_s, TensorProto.INT8),
             const("sp", 1 / 127, TensorProto.FLOAT), const("zp", 0, TensorProto.INT8),
             const("sv", q["v"], TensorProto.FLOAT), const("zv", 0, TensorProto.INT8),
             const("so", s_o, TensorProto.FLOAT), const("zo", z_o, TensorProto.INT8)]
    nodes = [helper.make_node("DequantizeLinear", ["s8", "ss", "zs"], ["s"]),
             helper.make_node("Softmax", ["s"], ["p"], axis=-1),
             helper.make_node("QuantizeLinear", ["p", "sp", "zp"], ["p8"]),
             helper.make_node("DequantizeLinear", ["p8", "sp", "zp"], ["pd"]),
             helper.make_node("DequantizeLinear", ["v8", "sv", "zv"], ["v"]),
             helper.make_node("MatMul", ["pd", "v"], ["o"]),
             helper.make_node("QuantizeLinear", ["o", "so", "zo"], ["o8"])]
    shape_s, shape_v = list(s8.shape), list(v8.shape)
    graph = helper.make_graph(
        nodes, "qdq_softmax",
        [helper.make_tensor_value_info("s8", TensorProto.INT8, shape_s),
         helper.make_tensor_value_info("v8", TensorProto.INT8, shape_v)],
        [helper.make_tensor_value_info("p8", TensorProto.INT8, shape_s),
         helper.make_tensor_value_info("o8", TensorProto.INT8, shape_s[:-1] + shape_v[-1:])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, os.path.join(work, "qdq.onnx"))
    np.save(os.path.join(work, "s8.npy"), s8.astype(np.int8))
    np.save(os.path.join(work, "v8.npy"), v8.astype(np.int8))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run(["node", os.path.join(root, "utils", "ort", "run-ort.js"),
                    os.path.join(work, "qdq.onnx"), os.path.join(work, "out"),
                    os.path.join(work, "s8.npy"), os.path.join(work, "v8.npy")],
                   check=True, capture_output=True)
    return (np.load(os.path.join(work, "out", "0.npy")).astype(np.int64),
            np.load(os.path.join(work, "out", "1.npy")).astype(np.int64))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scores", help="npz with cal_s, cal_v, eval_s, eval_v per block "
                    "(recognizer_scores.py)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ort", action="store_true",
                    help="also compare with onnxruntime-node's QDQ softmax (ONNXRUNTIME_NODE)")
    a = ap.parse_args()
    if a.scores:
        z = np.load(a.scores)
        blocks = sorted({k.split("_")[0] for k in z.files})
        cases = [(b, z[b + "_cal_s"], z[b + "_cal_v"], z[b + "_eval_s"], z[b + "_eval_v"])
                 for b in blocks]
    else:
        rng = np.random.default_rng(a.seed)
        cases = []
        for name, spread, scale in (("flat", 0.3, 1.0), ("peaked", 1.0, 3.0)):
            cs, cv = sample(rng, 64, spread=spread, scale=scale)
            es, ev = sample(rng, 64, spread=spread, scale=scale)
            cases.append((name, cs, cv, es, ev))
    for name, cs, cv, es, ev in cases:
        q = calibrate(cs, cv)
        chains = plans(q["s"][0])
        print("%s: s at %.4g zp %d, v at %.4g, o at %.4g zp %d; %d score rows"
              % (name, q["s"][0], q["s"][1], q["v"], q["o"][0], q["o"][1], es.size // KEYS))
        for design, row_max in (("p", True), ("ev", True), ("ev", False)):
            res = measure(es, ev, q, design, chains, row_max)
            print("  %s%s:" % (design, "" if row_max else ", no row max"),
                  " ".join("%s=%.4g" % kv for kv in sorted(res.items())))
        if a.ort:
            import tempfile
            s8 = quantize(es, q["s"][0], q["s"][1])
            v8 = quantize(ev, q["v"])
            with tempfile.TemporaryDirectory() as work:
                op8, oo8 = ort_qdq(s8, v8, q, work)
            np8, no8 = qdq_softmax(s8, v8, q)
            p8, o8, _ = program(s8, v8, q, "p", chains)
            _, e8, _ = program(s8, v8, q, "ev", chains)
            print("  onnxruntime QDQ: p differs from numpy's QDQ at %d of %d (max %d levels), "
                  "o at %d (max %d); program p vs onnxruntime p: max %d levels, mean %.4f; "
                  "o (p) vs onnxruntime o: max %d, mean %.4f; o (ev): max %d, mean %.4f"
                  % (np.count_nonzero(op8 != np8), op8.size, np.abs(op8 - np8).max(),
                     np.count_nonzero(oo8 != no8), np.abs(oo8 - no8).max(),
                     np.abs(p8 - op8).max(), np.abs(p8 - op8).mean(),
                     np.abs(o8 - oo8).max(), np.abs(o8 - oo8).mean(),
                     np.abs(e8 - oo8).max(), np.abs(e8 - oo8).mean()))


if __name__ == "__main__":
    main()
