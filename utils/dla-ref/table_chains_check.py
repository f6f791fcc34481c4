#!/usr/bin/env python3
"""Compares a plan printed by dla-table-chains (the compiler's
TablePlans.cpp / SoftmaxTables.cpp) with softmax_int8_model.py's own
planner (issue 45: the numpy model states what the C++ must plan):

    table_chains_check.py PLAN exp S_SCALE        the softmax's exp at S_SCALE
    table_chains_check.py PLAN reciprocal 40      the reciprocal over 40 keys
    table_chains_check.py PLAN table F XS ZX YS ZY  a tosa.table of sigmoid | tanh
                                                    as qdq_table.py writes it
    table_chains_check.py --entries F XS ZX YS ZY   prints that table's 256 entries
                                                    (dla-table-chains table's input)

Prints "same: ..." or each difference (exit 1); then runs the printed
plan's passes (softmax_int8_model.chain_passes, the units' arithmetic) over
its domain and prints the largest error from its table and from the
function (in output steps; the table's exact levels exact)."""

import sys

import numpy as np

import softmax_int8_model as M

LEVELS = np.arange(-128, 128)


def read_plan(path):
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    head = dict(kv.split("=") for kv in lines[0][1:])
    segs = [tuple(int(v) for v in l) for l in lines[1:]]
    return lines[0][0], bool(int(head["falling"])), segs


def qdq_table(name, xs, zx, ys, zy):
    """The function in output steps at levels -128..127 and its int8 table."""
    f = {"sigmoid": lambda x: 1 / (1 + np.exp(-x)), "tanh": np.tanh}[name]
    v = f(np.float64(np.float32(float(xs))) * (LEVELS - int(zx))) / np.float64(np.float32(float(ys)))
    v = v + int(zy)
    return np.clip(v, -128, 127), np.clip(np.rint(v), -128, 127).astype(np.int64)


def main():
    if sys.argv[1] == "--entries":
        print(" ".join(str(v) for v in qdq_table(*sys.argv[2:7])[1]))
        return
    path, kind = sys.argv[1], sys.argv[2]
    shape, falling, segs = read_plan(path)
    if kind == "exp":
        s = float(sys.argv[3])
        e = 127 * np.exp(-s * (LEVELS + 128.0))
        table, base, exact = M.exp_table(s), -128, M.EXACT_BELOW
        want = M.chain_plan(table, base, exact, M.MAX_SEGMENTS)
        domain, function = LEVELS, e
    elif kind == "reciprocal":
        keys = int(sys.argv[3])
        if keys != M.KEYS:
            sys.exit("the model's reciprocal is over %d keys" % M.KEYS)
        # the model's written-out plan (its pytest checks it equals a fresh one)
        table, base, exact = M.recip_table(), M.E_TOP, M.RECIP_EXACT_BELOW
        want = (M.RECIP_SEGMENTS, True)
        domain = np.arange(M.E_TOP, M.KEYS * M.E_TOP + 1)
        function = M.R / domain
    elif kind == "table":
        function, table = qdq_table(*sys.argv[3:8])
        base, exact, domain = -128, None, LEVELS
        # As TablePlans.cpp's planTableProgram: exact (every level) within
        # 48 passes, else within one step of 16 segments.
        try:
            want = M.chain_plan(table, base, 129, 48)
        except ValueError:
            want = M.chain_plan(table, base, None, 16)
    else:
        sys.exit("unknown kind " + kind)
    want_segs = [tuple(int(v) for v in seg) for seg in want[0]]
    bad = shape != "chain" or falling != want[1] or segs != want_segs
    if bad:
        print("differs: C++ %s falling=%d, numpy falling=%d" % (shape, falling, want[1]))
        for i in range(max(len(segs), len(want_segs))):
            c = segs[i] if i < len(segs) else None
            n = want_segs[i] if i < len(want_segs) else None
            if c != n:
                print("  segment %d: C++ %s, numpy %s" % (i, c, n))
        sys.exit(1)
    got = M.chain_passes(domain, (segs, falling))
    small = np.abs(table) < exact if exact else np.zeros(len(table), bool)
    print("same: %s %s, %d segments (knots, multipliers, shifts, values)"
          % (kind, " ".join(sys.argv[3:]), len(segs)))
    print("passes: from the table %d (exact below %s: %d), from the function %.3f"
          % (np.abs(got - table).max(), exact,
             np.abs(got - table)[small].max() if small.any() else 0,
             np.abs(got - function).max()))


if __name__ == "__main__":
    main()
