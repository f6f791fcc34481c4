#!/usr/bin/env python3
"""The performance model (dla.performance, the format library's
NvdlaPerformance.h) against cycles measured on NVIDIA's nv_small RTL
(bench/rtl_cycles.py's JSON, docs/NvdlaRtl.md): per hardware layer the
estimate, the RTL's cycles and the error, by kind, and the sum over all
layers as one "network" (docs/PerformanceModel.md, "Calibration").

    PYTHONPATH=build/python_packages python3 bench/rtl_perf_error.py
        [bench/data/rtl-cycles-nv_small-seed1.json ...] [--half fit|check|all] [--layers]

The model runs nv_small's hardware configuration under the JSON's memory
model (its bytes per cycle at 1 GHz; its latency). The kinds are drawn in
turn, so --half fit takes each kind's 1st, 3rd, 5th ... case (index //
kinds even: the calibration was fitted on these), --half check the others.
"""

import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "data", "rtl-cycles-nv_small-seed1.json")

def _ints(text):
    return [int(x) for x in re.findall(r"-?\d+", text)]

def _attr(body, name, n, default):
    m = re.search(r"\b%s \[([^\]]*)\]" % name, body)
    return _ints(m.group(1)) if m else list(default)

def layer_of(case):
    """dla.performance.estimate's arguments for the case's one hardware
    layer (a convolution with its SDP on the fly, or one SDP / PDP / CDP),
    read off the case's dla body; None for what the model does not cover."""
    body = case["body"]
    first = body.split("\n")[0]
    shapes = [[int(v) for v in s[:-1].split("x")] for s in re.findall(r"tensor<((?:\d+x){4})", first)]
    n, c, h, w = shapes[0]
    base = {"channels": c, "height": h, "width": w}
    if "dla.conv" in first:
        k, _, r, s = shapes[1]
        return dict(base, kind="convolution", kernels=k, kernel=(r, s),
                    stride=tuple(_attr(first, "stride", 2, (1, 1))),
                    padding=tuple(_attr(first, "pad", 4, (0, 0, 0, 0))),
                    dilation=tuple(_attr(first, "dilation", 2, (1, 1))),
                    winograd=" winograd " in first)
    if "dla.sdp" in first:
        return dict(base, kind="sdp", kernels=c, elementwise=len(shapes) > 2)
    if "dla.pool" in first:
        k = _attr(first, "kernel", 2, (1, 1))
        return dict(base, kind="pdp", kernels=c, pool=tuple(k),
                    pool_stride=tuple(_attr(first, "stride", 2, k)),
                    pool_padding=tuple(_attr(first, "pad", 4, (0, 0, 0, 0))))
    if "dla.lrn" in first:
        return dict(base, kind="cdp", kernels=c)
    return None

def rtl_config(performance, memory):
    """nv_small under the RTL harness's memory model."""
    config = performance.hardware_config("nv_small", "int8", clock_mhz=1000,
                                         dram_gbps=memory["bandwidth_bytes_per_cycle"])
    config.c.memoryLatencyCycles = memory["latency_cycles"]
    return config

def rows(performance, paths, half="all"):
    """(case name, kind, estimate, RTL cycles, RTL result status) of every
    single-layer case of the JSON files."""
    out = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        config = rtl_config(performance, data["memory"])
        turn = len(data.get("kinds", [None]))
        for index, case in enumerate(data["cases"]):
            if half != "all" and (index // turn % 2 == 0) != (half == "fit"):
                continue
            layers = case.get("layers", [])
            if any(l["cycles"] is None for l in layers):
                continue  # a layer that never finished (docs/NvdlaRtl.md)
            if "manifest_layers" in case:
                # A network's layer (bench/rtl_network_cycles.py): the
                # model through the manifest's entries, as dla-compile asks.
                if not layers:
                    continue
                est = performance.estimate_bundle(
                    {"layers": json.loads(json.dumps(case["manifest_layers"]))}, config,
                    annotate=False)
                if est["errors"] or not est["layers"]:
                    raise ValueError("%s: %s" % (case["name"], est["errors"]))
                kind = next(l["hardware"]["kind"] for l in case["manifest_layers"]
                            if not l["hardware"].get("fused"))
                out.append((case["name"], kind, est["frame_cycles"],
                            sum(l["cycles"] for l in layers), case.get("rtl", "?")))
                continue
            # One hardware layer, or one convolution the buffer plan runs
            # in passes (the model estimates all its passes).
            if not layers or len(layers) > 1 and not all(" pass " in l["name"] for l in layers):
                continue
            layer = layer_of(case)
            if layer is None:
                continue
            est = performance.estimate(config, **layer)
            out.append((case["name"], layer["kind"], est["cycles"],
                        sum(l["cycles"] for l in layers), case.get("rtl", "?")))
    return out

def summary(rs):
    """Per kind and overall: layers, within 15%, mean |error|, worst, sum error."""
    lines = []
    kinds = sorted({r[1] for r in rs})
    for kind in kinds + ["all"]:
        sel = [r for r in rs if kind == "all" or r[1] == kind]
        errs = [(e - t) / t for _, _, e, t, _ in sel]
        est, rtl = sum(r[2] for r in sel), sum(r[3] for r in sel)
        within = sum(abs(x) <= 0.15 for x in errs)
        lines.append("%-12s %4d layers  within 15%%: %4d (%3.0f%%)  mean |error| %5.1f%%  "
                     "worst %+7.1f%%  sum: model %9.0f RTL %9d (%+.1f%%)" % (
                         kind, len(sel), within, 100 * within / len(sel),
                         100 * sum(abs(x) for x in errs) / len(errs),
                         100 * max(errs, key=abs), est, rtl, 100 * (est - rtl) / rtl))
    return lines

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("json", nargs="*", default=[DEFAULT])
    p.add_argument("--half", choices=("fit", "check", "all"), default="all")
    p.add_argument("--layers", action="store_true", help="one line per layer")
    p.add_argument("--fit", action="store_true",
                   help="also print, per kind, the start-up cycles that would zero the median "
                        "error of the selected cases (how RtlCalibration's SDP and CDP "
                        "start-ups were fitted: docs/PerformanceModel.md)")
    a = p.parse_args()
    from dla import performance
    rs = rows(performance, a.json, a.half)
    if a.layers:
        for name, kind, est, rtl, status in rs:
            print("%-10s %-12s model %9.0f  RTL %8d  error %+7.1f%%%s" % (
                name, kind, est, rtl, 100 * (est - rtl) / rtl,
                "" if status == "pass" else "  (RTL result: %s)" % status))
    print("\n".join(summary(rs)))
    if a.fit:
        config = performance.hardware_config("nv_small", "int8").c
        current = {"convolution": config.convStartCycles, "sdp": config.sdpStartCycles,
                   "pdp": config.pdpStartCycles, "cdp": config.cdpStartCycles}
        for kind in sorted(current):
            gaps = sorted(rtl - est for _, k, est, rtl, _ in rs if k == kind)
            if gaps:
                print("%-12s start-up now %g cycles; median gap %+g: fitted %g" % (
                    kind, current[kind], gaps[len(gaps) // 2],
                    current[kind] + gaps[len(gaps) // 2]))

if __name__ == "__main__":
    main()
