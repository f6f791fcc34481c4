#!/usr/bin/env python3
"""A compiled network's hardware layers on NVIDIA's nv_small RTL: the cycles
of each layer's register program and what the performance model needs of
it, as JSON for bench/rtl_perf_error.py and python/tests/
test_performance_rtl.py (issue 48; docs/PerformanceModel.md, "Calibration").

    PYTHONPATH=build/python_packages python3 bench/rtl_network_cycles.py KEEP_DIR
        --build build --out cycles.json [--latency 32] [--bandwidth 8] [--name NAME]

KEEP_DIR is utils/dla-ref/run_network_trace.py's --keep directory: per
hardware layer N, layer_N.mlir (the one-layer function) and layer_N/ (its
register program, inputs from the CPU execution of the whole network).
Each program runs on the RTL player (build/nvdla-rtl); each layer's
manifest entries (dla.bundle.describe of layer_N.mlir, the "hardware" the
model takes) go beside its cycles. A layer whose result differs from the
CPU execution is recorded with "rtl": "fail" (its cycles still count).
"""

import argparse
import glob
import json
import os
import subprocess
import sys

from dla import Context, bundle


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("keep", help="run_network_trace.py's --keep directory")
    p.add_argument("--build", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--latency", type=int, default=32)
    p.add_argument("--bandwidth", type=float, default=8)
    p.add_argument("--name", default="network")
    a = p.parse_args()
    rtl = os.path.join(os.path.abspath(a.build), "nvdla-rtl", "nv_small", "nvdla-rtl-player")
    if not os.access(rtl, os.X_OK):
        sys.exit("rtl_network_cycles.py: no %s: build it with `bash scripts/build-nvdla-rtl.sh`" % rtl)
    cases = []
    for mlir in sorted(glob.glob(os.path.join(os.path.abspath(a.keep), "layer_*.mlir"))):
        name = os.path.basename(mlir)[:-len(".mlir")]
        tdir = mlir[:-len(".mlir")]
        with Context() as ctx:
            manifest, _ = bundle.describe(ctx.parse_module_file(mlir))
        entries = [{"name": l["name"], "hardware": l["hardware"]}
                   for l in manifest["layers"] if l.get("hardware")]
        js = os.path.join(tdir, "rtl.json")
        run = subprocess.run([rtl, "--json", js, "--latency", str(a.latency), "--bandwidth",
                              str(a.bandwidth), "--timeout", "1800", tdir],
                             capture_output=True, text=True, cwd=tdir)
        entry = {"name": name, "manifest_layers": entries}
        if not os.path.exists(js):
            entry["rtl"] = "fail"
            print("%s: RTL player failed: %s" % (name, (run.stdout + run.stderr).strip()))
        else:
            with open(js) as f:
                r = json.load(f)
            entry.update(rtl="pass" if run.returncode == 0 else "fail", layers=r["layers"])
            print("%s: %d cycles in %d hardware layers%s" % (
                name, sum(l["cycles"] for l in r["layers"]), len(r["layers"]),
                "" if run.returncode == 0 else " (result differs)"), flush=True)
        cases.append(entry)
    with open(a.out, "w") as f:
        json.dump({"config": "nv_small", "simulator": "rtl", "network": a.name,
                   "memory": {"latency_cycles": a.latency, "bandwidth_bytes_per_cycle": a.bandwidth,
                              "width_bytes": 8},
                   "cycles_definition": "from the cycle the layer's last register write is "
                                        "accepted to the cycle its last interrupt is raised",
                   "cases": cases}, f, indent=1)
    print("wrote %s" % a.out)


if __name__ == "__main__":
    main()
