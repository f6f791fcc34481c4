"""--dla-split-convolutions' weight banks by time (docs/PerformanceModel.md
"Decisions"): for random convolutions nv_small must cut into bands, the
banks the pass gives the weights (its `weight_banks`, else NVIDIA's order)
are the ones the performance model, asked through the C API for every
bank count, estimates fastest among NVIDIA's choice and the allotments of
two kernel groups or more (one group instead of two stalls each group's
fetch, which the model does not count: the pass does not make that trade).
nv_small's buffer: 32 banks of 512 8-byte entries (4 KB, CBUF_BANK_DEPTH x
CBUF_BANK_WIDTH); a kernel group is 8 kernels (MAC_ATOMIC_K)."""

BANK_BYTES = 512 * 8
GROUP_KERNELS = 8

import os
import re
import subprocess

import numpy as np
import pytest

import dla
import dla.tools
from dla import performance

DLA_OPT = dla.tools.find("dla-opt")


def _convs(rng, n):
    out = []
    while len(out) < n:
        c, k = int(rng.choice([16, 32, 64, 128])), int(rng.choice([8, 32, 64, 128, 256]))
        h, w = int(rng.integers(40, 161)), int(rng.integers(40, 161))
        r = int(rng.choice([1, 3, 5]))
        s = int(rng.choice([1, 2]))
        p = r // 2
        oh, ow = (h + 2 * p - r) // s + 1, (w + 2 * p - r) // s + 1
        out.append(dict(channels=c, height=h, width=w, kernels=k, kernel=[r, r],
                        stride=[s, s], padding=[p, p, p, p], out=(oh, ow)))
    return out


def _module(convs):
    funcs = []
    for i, v in enumerate(convs):
        c, h, w, k = v["channels"], v["height"], v["width"], v["kernels"]
        r, s, p = v["kernel"][0], v["stride"][0], v["padding"][0]
        oh, ow = v["out"]
        funcs.append(
            f"func.func @conv{i}(%x: tensor<1x{c}x{h}x{w}xi8>, %w: tensor<{k}x{c}x{r}x{r}xi8>) "
            f"-> tensor<1x{k}x{oh}x{ow}xi8> {{\n"
            f"  %y = dla.conv direct %x, %w stride [{s}, {s}] pad [{p}, {p}, {p}, {p}] : "
            f"tensor<1x{c}x{h}x{w}xi8>, tensor<{k}x{c}x{r}x{r}xi8> -> tensor<1x{k}x{oh}x{ow}xi8>\n"
            f"  return %y : tensor<1x{k}x{oh}x{ow}xi8>\n}}")
    return "module {\n" + "\n".join(funcs) + "\n}\n"


def _split(text, policy):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    run = subprocess.run([DLA_OPT, f"--dla-split-convolutions=target=nv_small weight-banks={policy}",
                          "-"], input=text, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    convs = re.findall(r"dla\.conv direct[^\n]*", run.stdout)
    out = []
    for line in convs:
        rows = re.search(r"rows_per_part (\d+)", line)
        banks = re.search(r"weight_banks (\d+)", line)
        out.append((int(rows.group(1)) if rows else None, int(banks.group(1)) if banks else 0))
    return out, run.stderr


def test_fastest_weight_banks_are_the_models():
    rng = np.random.default_rng(48)
    convs = _convs(rng, 60)
    chosen, remarks = _split(_module(convs), "fastest")
    nvidia, _ = _split(_module(convs), "nvidia")
    config = performance.hardware_config("nv_small", "int8")
    cut = by_time = 0
    for v, (rows, banks), (nv_rows, nv_banks) in zip(convs, chosen, nvidia):
        assert nv_banks == 0
        if nv_rows is None:
            assert (rows, banks) == (None, 0)
            continue
        cut += 1
        layer = {k: v[k] for k in ("channels", "height", "width", "kernels", "kernel", "stride",
                                   "padding")}
        r, s = v["kernel"]
        group = -(-GROUP_KERNELS * v["channels"] * r * s // BANK_BYTES)
        estimates = {}
        for b in [0] + list(range(2 * group, 32)):
            e = performance.estimate(config, **layer, weight_banks=b)
            if not e["bufferPlan"].startswith("does not fit"):
                estimates[b] = e["cycles"]
        assert banks in estimates
        assert estimates[banks] == pytest.approx(min(estimates.values()), rel=1e-12), (v, estimates)
        if banks:
            by_time += 1
            # Chosen only when strictly faster than NVIDIA's own.
            assert estimates[banks] < estimates[0]
    assert cut >= 20
    assert by_time >= 1, "no random layer where the model's choice differs: the test is vacuous"
    assert remarks.count("weight banks by time") == by_time
