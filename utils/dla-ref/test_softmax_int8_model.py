"""softmax_int8_model.py: its chains plan as TablePrograms.cpp does, its
passes compute what they claim, and the measured error bounds of the
softmax program (synthetic scores drawn like the recognizer's; the real
scores' figures are in docs/WholeNetworks.md)."""

import numpy as np
import pytest

import softmax_int8_model as M

LEVELS = np.arange(-128, 128)


def qdq_table(f, xs, zx, ys, zy):
    """An int8 table as qdq_table.py writes it (docs/Activations.md)."""
    v = f(np.float64(np.float32(xs)) * (LEVELS - zx)) / np.float64(np.float32(ys))
    return np.clip(np.rint(v) + zy, -128, 127).astype(np.int64)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


@pytest.mark.parametrize("table, passes", [
    # docs/Activations.md's figures for TablePrograms.cpp's programs
    ((sigmoid, 1 / 16, 0, 1 / 127, 0), 9),
    ((np.tanh, 0.03, 5, 1 / 128, -1), 13),
    ((sigmoid, 0.1, 0, 1 / 256, -128), 13),
])
def test_chain_plans_as_table_programs(table, passes):
    t = qdq_table(*table)
    plan = M.chain_plan(t, -128, None, 16)
    assert len(plan[0]) == passes
    assert np.abs(M.chain_passes(LEVELS, plan) - t).max() <= 1


def test_chain_falling_negates_back():
    t = qdq_table(np.tanh, 0.03, 5, 1 / 128, -1)[::-1].copy()
    plan = M.chain_plan(t, -128, None, 16)
    assert plan[1]
    assert np.abs(M.chain_passes(LEVELS, plan) - t).max() <= 1


@pytest.mark.parametrize("s_scale", [0.02, 0.0317, 0.1, 0.3867, 1.0])
def test_exp_chain(s_scale):
    t = M.exp_table(s_scale)
    plan = M.chain_plan(t, -128, M.EXACT_BELOW)
    got = M.chain_passes(LEVELS, plan)
    assert len(plan[0]) <= 16                       # within TablePrograms' limit
    assert np.abs(got - t).max() <= 1
    small = t < M.EXACT_BELOW
    assert np.array_equal(got[small], t[small])    # the tail exact
    assert got[0] == 127                            # e = 127 at each row's max
    # the table itself: rint of the function, less 1/2 above the tail
    e = 127 * np.exp(-s_scale * (LEVELS + 128.0))
    assert np.all(np.abs(t - e) <= np.where(np.rint(e) < M.EXACT_BELOW, 0.5, 1.0))


def test_recip_chain():
    t = M.recip_table()
    plan = M._recip_plan(M.LOW, M.RECIP_EXACT_BELOW, M.MAX_SEGMENTS, fresh=True)
    assert [tuple(int(v) for v in s) for s in plan[0]] == M.RECIP_SEGMENTS and plan[1]
    sums = np.arange(M.E_TOP, M.KEYS * M.E_TOP + 1)
    got = M.chain_passes(sums, plan)
    assert len(plan[0]) == 21
    assert np.abs(got - t).max() <= 1
    small = t < M.RECIP_EXACT_BELOW
    assert np.array_equal(got[small], t[small])
    assert got[0] == 127 and got[-1] == 3           # 127^2 / 127, 127^2 / 5080
    assert np.all(np.abs(got - M.R / sums) <= 1.5)
    # the chain's operands fit the registers: ALU int16, MUL int16, shift 6 bits
    for lo, _, m, shift, _, _ in plan[0]:
        assert -32768 <= -lo and -32768 <= m <= 32767 and 0 <= shift <= 63


def test_difference_exact():
    rng = np.random.default_rng(5)
    s8 = rng.integers(-128, 128, (3, 40, 40))
    s8[0] = rng.integers(-128, -120, (40, 40))      # rows far below the top
    s8[1, :, 7] = 127                               # a maximum in every row
    s8[2, 3] = -128                                 # a constant row at the bottom
    want = s8.max(-1, keepdims=True) - s8 - 128     # m - s in 0..255, less 128
    assert np.array_equal(M.difference(s8), want)
    assert np.array_equal(M.difference(s8, row_max=False), 127 - s8 - 128)


@pytest.fixture(scope="module")
def profiles():
    """Calibration and evaluation draws like the recognizer's two blocks:
    block 1 (scores' std ~1, each row's e summing to 1.2-31 of its max)
    and block 2 (a few rows spread 30x wider: the scores' scale ~0.35)."""
    out = {}
    for name, spread in (("block1", 0.3), ("block2", 1.0)):
        rng = np.random.default_rng(1)
        cs, cv = M.sample(rng, 64, spread=spread)
        es, ev = M.sample(rng, 32, spread=spread)
        q = M.calibrate(cs, cv)
        out[name] = (es, ev, q, M.plans(q["s"][0]))
    return out


# Measured (seed 1): o's error in its output steps where the float o is
# not saturated (rms; 99.9th percentile), the QDQ model's alongside; p
# (design "p") in levels of 1/127 from the QDQ model's p and in
# probability from the softmax of the dequantized scores; without the row
# max, o's rms error.
BOUNDS = {
    # name: (ev rms, ev 99.9%, qdq rms, p levels, p from softmax(DQ(s)), no-max rms)
    "block1": (1.03, 13.3, 1.43, 3, 0.022, 15.0),
    "block2": (1.66, 8.8, 1.70, 4, 0.033, 17.0),
}


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_error_bounds(profiles, name):
    es, ev, q, chains = profiles[name]
    ev_rms, ev_999, qdq_rms, p_levels, p_dq, no_max_rms = BOUNDS[name]
    r = M.measure(es, ev, q, "ev", chains)
    assert r["o_rms"] <= ev_rms and r["o_999"] <= ev_999
    assert r["qdq_o_rms"] <= qdq_rms
    assert r["o_rms"] <= r["qdq_o_rms"]             # no worse than the QDQ model
    p = M.measure(es, ev, q, "p", chains)
    assert p["p_vs_qdq_levels"] <= p_levels
    assert p["p_vs_dq"] <= p_dq
    no_max = M.measure(es, ev, q, "ev", chains, row_max=False)
    assert no_max["o_rms"] >= no_max_rms            # the row max is needed
