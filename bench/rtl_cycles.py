#!/usr/bin/env python3
"""Cycles per hardware layer on NVIDIA's nv_small RTL for random layers of
the project's register programs (docs/NvdlaRtl.md), written as JSON for
the performance model's calibration (issue 48).

    PYTHONPATH=build/python_packages python3 bench/rtl_cycles.py --build build
        [--kinds conv,sdp,pool,lrn] [--count 100] [--seed 1] [--out rtl-cycles.json]
        [--latency 32] [--bandwidth 8] [--keep DIR] [--no-cmodel]

Each case is drawn as utils/dla-ref/run_trace.py --kind draws it (the kinds
taken in turn), its program written by dla-translate --dla-to-nvdla-trace
with the CRCs of the project's CPU execution of the layer, and run on the
RTL (build/nvdla-rtl, scripts/build-nvdla-rtl.sh) and, unless --no-cmodel,
on the C model (build/nvdla-cmod): both must pass, i.e. the RTL's result
bytes equal the CPU execution's and the C model's. Prints one line per
layer (cycles from its last register write to its last interrupt, under
the stated memory model) and a summary; writes every case's layers, shapes
and cycles to --out. Exits 1 when a case fails on either simulator.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "utils", "dla-ref"))
import run_trace  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", required=True, help="the build directory (bin/, nvdla-rtl/, nvdla-cmod/)")
    p.add_argument("--kinds", default="conv,sdp,pool,lrn",
                   help="run_trace.py kinds, taken in turn (default conv,sdp,pool,lrn)")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="the JSON to write (default: none)")
    p.add_argument("--latency", type=int, default=32, help="memory latency in cycles")
    p.add_argument("--bandwidth", type=float, default=8, help="memory bytes per cycle")
    p.add_argument("--keep", help="write the programs here (default: a scratch dir)")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--no-cmodel", action="store_true", help="run the RTL only")
    a = p.parse_args()
    kinds = a.kinds.split(",")
    bad = [k for k in kinds if k not in run_trace.KINDS]
    if bad:
        p.error(f"unknown kind {bad[0]} (one of {', '.join(sorted(run_trace.KINDS))})")
    build = os.path.abspath(a.build)
    rtl = os.path.join(build, "nvdla-rtl", "nv_small", "nvdla-rtl-player")
    cmod = os.path.join(build, "nvdla-cmod", "nv_small", "nvdla-trace-player")
    for tool, how in ((rtl, "scripts/build-nvdla-rtl.sh"), (cmod, "scripts/build-nvdla-cmod.sh")):
        if tool == cmod and a.no_cmodel:
            continue
        if not os.access(tool, os.X_OK):
            sys.exit(f"rtl_cycles.py: no {tool}: build it with `bash {how}`")
    run_trace.configure("nv_small")
    rng = np.random.default_rng(a.seed)
    cases = [run_trace.KINDS[kinds[n % len(kinds)]](rng, n) for n in range(a.count)]
    inputs = [[rng.integers(-128, 128, size=sh).astype(np.int8) if d is None else d
               for (_, sh, _), d in zip(c.args, c.data)] for c in cases]
    results = run_trace.cpu_run(cases, inputs, build, a.llvm_bin)
    root = a.keep or tempfile.mkdtemp(prefix="dla-rtl-")
    translate = os.path.join(build, "bin", "dla-translate")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    memory = f"memory: latency {a.latency} cycles, {a.bandwidth:g} B/cycle"
    report, failed, sim_cycles, sim_seconds, layers_run = [], 0, 0, 0.0, 0
    for n, (c, (xs, ys)) in enumerate(zip(cases, results)):
        kind = kinds[n % len(kinds)]
        tdir, tr = run_trace.write_program(c, xs, ys, root, translate)
        entry = {"name": c.name, "kind": kind, "body": c.body,
                 "arguments": {name: list(sh) for name, sh, _ in c.args},
                 "result": list(c.out_shape)}
        if tr.returncode:
            entry["refused"] = tr.stderr.strip()
            print(f"{c.name}: dla-translate refused: {tr.stderr.strip()}")
            report.append(entry)
            continue
        if not a.no_cmodel:
            cm = subprocess.run([cmod, tdir], capture_output=True, text=True, cwd=tdir, env=env)
            entry["cmodel"] = "pass" if cm.returncode == 0 else "fail"
            if cm.returncode:
                print(f"{c.name}: C model differs: {(cm.stdout + cm.stderr).strip()}")
        js = os.path.join(tdir, "rtl.json")
        t0 = time.monotonic()
        run = subprocess.run([rtl, "--json", js, "--latency", str(a.latency), "--bandwidth",
                              str(a.bandwidth), "--timeout", "600", tdir],
                             capture_output=True, text=True, cwd=tdir)
        wall = time.monotonic() - t0
        if not os.path.exists(js):
            entry["rtl"] = "fail"
            print(f"{c.name}: RTL player failed: {(run.stdout + run.stderr).strip()}")
            failed += 1
            report.append(entry)
            continue
        with open(js) as f:
            r = json.load(f)
        entry["rtl"] = "pass" if run.returncode == 0 else "fail"
        entry["layers"] = r["layers"]
        entry["rtl_cycles_total"] = r["cycles"]
        entry["rtl_wall_seconds"] = round(wall, 3)
        sim_cycles += r["simulated_cycles"]
        sim_seconds += r["wall_seconds"]
        if run.returncode:
            print(f"{c.name}: RTL differs: {(run.stdout + run.stderr).strip()}\n  {c.body}")
        if entry["rtl"] != "pass" or entry.get("cmodel", "pass") != "pass":
            failed += 1
        for layer in r["layers"]:
            layers_run += 1
            print(f"{c.name} layer {layer['index']}: {layer['cycles']} cycles "
                  f"({layer['name'] or kind}) [{memory}]")
        report.append(entry)
    ran = sum(1 for e in report if "refused" not in e)
    both = "the CPU execution's" + ("" if a.no_cmodel else " and the C model's")
    print(f"{ran - failed} of {ran} programs: RTL result bytes equal {both} "
          f"({layers_run} hardware layers; {memory})")
    if sim_seconds:
        print(f"RTL simulation: {sim_cycles} cycles in {sim_seconds:.1f} s "
              f"({sim_cycles / sim_seconds:.0f} cycles/s; each run's reset included)")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"config": "nv_small", "simulator": "rtl", "seed": a.seed, "kinds": kinds,
                       "memory": {"latency_cycles": a.latency, "bandwidth_bytes_per_cycle": a.bandwidth,
                                  "width_bytes": 8},
                       "cycles_definition": "from the cycle the layer's last register write is "
                                            "accepted to the cycle its last interrupt is raised",
                       "cases": report}, f, indent=1)
        print(f"wrote {a.out}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
