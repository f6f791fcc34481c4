"""The performance model (dla.performance over the C API) against cycles
measured on NVIDIA's nv_small RTL: bench/data/rtl-cycles-nv_small-*.json,
written by bench/rtl_cycles.py from the RTL simulation (docs/NvdlaRtl.md),
the independent reference. The calibration (docs/PerformanceModel.md,
"Calibration") was fitted on half of seed 1's cases and half of the
convolutions of seed 3 at latency 32; the bounds hold on the other halves,
on seed 2 (never fitted) and at other memory latencies. bench/rtl_perf_error.py prints the same per layer."""

import importlib.util
import os

import pytest

from dla import performance

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "bench", "data")
_spec = importlib.util.spec_from_file_location(
    "rtl_perf_error", os.path.join(ROOT, "bench", "rtl_perf_error.py"))
rtl_perf_error = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rtl_perf_error)


def _path(name):
    path = os.path.join(DATA, name)
    assert os.path.isfile(path), path
    return path


def _errors(rows):
    return [(est - rtl) / rtl for _, _, est, rtl, _ in rows]


def _check(rows, within, share, total):
    """At least `share` of the layers within `within`, their sum within `total`."""
    assert rows
    errs = _errors(rows)
    good = sum(abs(e) <= within for e in errs) / len(errs)
    est, rtl = sum(r[2] for r in rows), sum(r[3] for r in rows)
    worst = max(zip(errs, rows), key=lambda x: abs(x[0]))
    assert good >= share, "%.0f%% of %d layers within %.0f%% (worst %s %+.1f%%)" % (
        100 * good, len(rows), 100 * within, worst[1][0], 100 * worst[0])
    assert abs(est - rtl) / rtl <= total, "sum: model %.0f, RTL %d" % (est, rtl)


@pytest.mark.parametrize("half", ["fit", "check"])
def test_seed1_latency32(half):
    rows = rtl_perf_error.rows(performance, [_path("rtl-cycles-nv_small-seed1.json")], half)
    assert len(rows) == (52 if half == "fit" else 48)
    _check(rows, 0.15, 0.90, 0.05)


def test_seed2_never_fitted():
    rows = rtl_perf_error.rows(performance, [_path("rtl-cycles-nv_small-seed2.json")])
    assert len(rows) == 100
    _check(rows, 0.15, 0.85, 0.05)


@pytest.mark.parametrize("half", ["fit", "check"])
def test_convolutions_seed3(half):
    rows = rtl_perf_error.rows(performance, [_path("rtl-cycles-nv_small-conv-seed3.json")], half)
    assert len(rows) == 50
    _check(rows, 0.15, 0.85, 0.05)


@pytest.mark.parametrize("kind,share,total", [
    ("convolution", 0.85, 0.05), ("sdp", 0.95, 0.02), ("cdp", 0.95, 0.02),
    # The PDP's extra passes over padded windows with a stride of 1 are
    # not modelled (docs/PerformanceModel.md): those pools take up to 2x.
    ("pdp", 0.70, 0.10)])
def test_each_kind(kind, share, total):
    rows = rtl_perf_error.rows(performance, [_path("rtl-cycles-nv_small-seed1.json"),
                                             _path("rtl-cycles-nv_small-seed2.json"),
                                             _path("rtl-cycles-nv_small-conv-seed3.json")])
    _check([r for r in rows if r[1] == kind], 0.15, share, total)


@pytest.mark.parametrize("half", ["fit", "check", "all"])
def test_classifier(half):
    # The PaddleOCR classifier's 297 hardware layers, each run on the RTL
    # with its inputs from the CPU execution of the whole network
    # (bench/rtl_network_cycles.py); the model through the manifest's
    # entries as dla-compile asks it. The network: all of them.
    rows = rtl_perf_error.rows(performance, [_path("rtl-cycles-nv_small-cls.json")], half)
    assert len(rows) == {"fit": 149, "check": 148, "all": 297}[half]
    _check(rows, 0.15, 0.88, 0.05)


def test_pools_seed4():
    # 100 random pools never fitted on; 3 never finish on the RTL (left out).
    rows = rtl_perf_error.rows(performance, [_path("rtl-cycles-nv_small-pool-seed4.json")])
    assert len(rows) == 97
    _check(rows, 0.15, 0.80, 0.05)


def test_other_latencies():
    # Seed 1's first 40 layers at memory latencies of 16 to 128 cycles: the
    # start-up's latencies and, at long latencies, the SDP / PDP / CDP
    # reads in flight follow the latency.
    for latency in (16, 64, 96, 128):
        name = "rtl-cycles-nv_small-seed1-latency%d.json" % latency
        rows = rtl_perf_error.rows(performance, [_path(name)])
        assert len(rows) == 40
        _check(rows, 0.15, 0.85, 0.05)


def test_uncalibrated_configurations_unchanged():
    # nv_full and nv_large have no RTL here: no calibration terms.
    for name in ("nv_full", "nv_large"):
        c = performance.hardware_config(name, "int8").c
        assert (c.convStartCycles, c.sdpStartCycles, c.stripeAtomics, c.readsInFlight) == (0, 0, 0, 0)
    s = performance.spreadsheet_config().c
    assert (s.convStartCycles, s.startLatencies, s.stripeAtomics, s.readsInFlight,
            s.memoryLatencyCycles) == (0, 0, 0, 0, 0)
