"""NVIDIA's performance spreadsheet, read from NVIDIA's own .xlsx, against
the checked-in transcription (unittests/Format/NvdlaPerformanceSheet.txt,
which the C++ unit test reads) and against the performance model through
the C API (dla.performance); and the model's Python entry points' errors.
The .xlsx is ../shared/nvdla-hw-v1/perf/ from the checkout: without it the
tests that read it are skipped and say so."""

import os
import re
import subprocess
import sys

import pytest

import dla
from dla import performance

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "utils", "nvdla-perf-sheet", "read_perf_sheet.py")
XLSX = os.path.join(ROOT, "..", "shared", "nvdla-hw-v1", "perf",
                    "NVDLA_OpenSource_Performance.xlsx")
TRANSCRIPTION = os.path.join(ROOT, "unittests", "Format", "NvdlaPerformanceSheet.txt")

needs_xlsx = pytest.mark.skipif(not os.path.isfile(XLSX),
                                reason="NVIDIA's spreadsheet is not at %s" % XLSX)


def _fresh():
    out = subprocess.run([sys.executable, SCRIPT, XLSX], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _lines(text, what):
    rows = []
    for line in text.splitlines():
        if line.startswith(what + " "):
            rows.append({k: v for k, v in re.findall(r"(\w+)=([^@\s]+)", line)})
    return rows


@needs_xlsx
def test_transcription_is_nvidias_file():
    with open(TRANSCRIPTION) as f:
        assert f.read() == _fresh()


@needs_xlsx
def test_headline_numbers():
    # The (and NVIDIA's summary sheet's) frame times.
    totals = {t["net"]: float(t["ms"]) for t in _lines(_fresh(), "total")}
    assert totals == pytest.approx({"AlexNet": 0.8954, "GoogLeNet": 1.2221,
                                    "ResNet50": 7.1137}, abs=1e-4)


def _same_pads(n, k, s, same):
    total = max(0, (-(-n // s) - 1) * s + k - n) if same else 0
    return total // 2, total - total // 2


@needs_xlsx
def test_model_reproduces_every_layer_through_the_c_api():
    text = _fresh()
    totals = {}
    for row in _lines(text, "layer"):
        config = performance.spreadsheet_config()
        c = config.c
        c.kernelGranule = int(row["kernel_granule"])
        c.winogradWeightsExpanded = int(row["wino_weights_expanded"])
        c.fcWeightsAmortized = int(row["fc_weights_amortized"])
        c.bufferReloads = int(row["reloads"])
        c.minInputExtraRows = int(row["min_input_extra_rows"])
        c.sideByLeastInput = int(row["side_least_input"])
        c.sideByAllWeights = int(row["side_all_weights"])
        n = {k: int(float(row[k])) for k in ("C", "H", "W", "K", "R", "S", "sy", "sx", "same",
                                                "pool", "pr", "ps", "psy", "psx", "wino")}
        top, bottom = _same_pads(n["H"], n["R"], n["sy"], n["same"])
        left, right = _same_pads(n["W"], n["S"], n["sx"], n["same"])
        e = performance.estimate(
            config, kind="fully-connected" if row["kind"] == "fc" else "convolution",
            channels=n["C"], height=n["H"], width=n["W"], kernels=n["K"],
            kernel=(n["R"], n["S"]), stride=(n["sy"], n["sx"]),
            padding=(top, bottom, left, right), winograd=n["wino"],
            pool=(n["pr"], n["ps"]) if n["pool"] else None, pool_stride=(n["psy"], n["psx"]),
            elementwise="elwise" in row["kind"])
        where = "%s row %s" % (row["net"], row["row"])
        assert e["trafficBytes"] / 1024 == pytest.approx(float(row["traffic"]), rel=0.01), where
        assert e["macCycles"] == pytest.approx(float(row["mac"]), rel=0.01), where
        assert e["cycles"] == pytest.approx(float(row["max"]), rel=0.01), where
        assert {"MAC": "MAC", "memory": "DRAM"}[e["longPole"]] == row["pole"], where
        totals[row["net"]] = totals.get(row["net"], 0) + e["cycles"]
    for t in _lines(text, "total"):
        assert totals[t["net"]] == pytest.approx(float(t["cycles"]), rel=0.01), t["net"]


def test_reader_rejects_what_is_not_an_xlsx(tmp_path):
    bad = tmp_path / "sheet.xlsx"
    bad.write_text("not a zip")
    out = subprocess.run([sys.executable, SCRIPT, str(bad)], capture_output=True, text=True)
    assert out.returncode == 1
    assert out.stderr.startswith("read_perf_sheet: error: %s: not a readable .xlsx" % bad)
    assert "Traceback" not in out.stderr


def test_hardware_configurations():
    assert performance.hardware_config("nv_full", "int8").c.macs == 2048
    assert performance.hardware_config("nv_full", "fp16").c.macs == 1024
    assert performance.hardware_config("nv_small", "int8").c.macs == 64
    with pytest.raises(dla.DLAError, match=r"nv_small computes int8 only"):
        performance.hardware_config("nv_small", "fp16")
    with pytest.raises(dla.DLAError, match=r"nv_tiny"):
        performance.hardware_config("nv_tiny", "int8")


def test_custom_configuration():
    c = performance.custom_config("nv_full", "int8", macs=1024, conv_buffer_kb=256,
                                  clock_mhz=500, dram_gbps=25.6)
    assert (c.c.macs, c.c.channelGranule, c.c.kernelGranule) == (1024, 32, 32)
    assert c.c.convBufferBytes == 256 * 1024
    assert (c.c.clockHz, c.c.dramBytesPerSecond) == (500e6, 25.6e9)
    assert c.name == "nv_full (1024 MACs, 256 KB buffer, 500 MHz, 25.6 GB/s)"
    with pytest.raises(dla.DLAError, match=r"--macs 1000: not a positive multiple of "
                                           r"nv_full's 32 kernels per group"):
        performance.custom_config("nv_full", "int8", macs=1000)
    with pytest.raises(dla.DLAError, match=r"--memory-latency -1: not a cycle count"):
        performance.custom_config("nv_full", "int8", memory_latency_cycles=-1)
    assert performance.custom_config("nv_small", "int8", memory_latency_cycles=64) \
        .c.memoryLatencyCycles == 64


def test_estimate_by_hand():
    # nv_small int8: 12 channels in 2 atoms of 8, 9 kernels in 2 groups of 8,
    # 8 x 8 outputs, 9 taps: 2 * 2 * 64 * 9 MAC cycles; the SDP's 64
    # outputs of 16 channels (2 atoms) at 1 a cycle or the CACC's hand-over
    # of the 128 output atoms; 2 * 9 * 2 * 2 stripes
    # of at most 32 outputs; the start-up (latency 0) and the first
    # stripe's input, 6 rows of 10 pixels of 2 atoms.
    c = performance.hardware_config("nv_small", "int8")
    e = performance.estimate(c, channels=12, height=10, width=10, kernels=9, kernel=(3, 3))
    assert e["macCycles"] == 2 * 2 * 64 * 9
    assert e["sdpCycles"] == max(16 * 64, 128 * c.c.convSdpAtomCycles)
    assert e["stripeCycles"] == 72 * c.c.stripeCycles
    assert e["startCycles"] == pytest.approx(c.c.convStartCycles + 120 * c.c.firstStripeAtomCycles)
    assert e["cycles"] == pytest.approx(e["macCycles"] + e["stripeCycles"] + e["startCycles"])
    assert e["longPole"] == "MAC"
    with pytest.raises(dla.DLAError, match=r"layer kind 'conv'"):
        performance.estimate(c, kind="conv")
    with pytest.raises(dla.DLAError, match=r"input 12x0x10 is not a positive C x H x W"):
        performance.estimate(c, channels=12, height=0, width=10, kernels=9)
