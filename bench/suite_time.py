#!/usr/bin/env python3
"""Time of lit test files under two builds, each with its own checkout's
tests, in the same script run (issue 25 part 4).

    python3 bench/suite_time.py BUILD --baseline OTHER_BUILD
        [--tests ONNX/node-*.test Models] [--rounds N] [--all]

Each build directory's lit configuration points at its own source tree,
so the baseline runs the tests as its commit wrote them (options such as
--opt-level included). The tests are paths under each build's test/
(globs allowed); by default only the test files present in both
checkouts run (--all: each build runs every file it has). Builds run
alternately, N rounds; per round and build: wall seconds, CPU seconds of
lit and all its children (what load inflates least), pass or fail. Prints
the medians and the ratios new / baseline.
"""

import argparse
import glob
import os
import resource
import statistics
import subprocess
import sys
import time

LIT = "/usr/lib/llvm-22/bin/lit"


def source_root(build):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    sys.exit(f"{build}: no CMakeCache.txt with CMAKE_HOME_DIRECTORY")


def test_files(build, patterns):
    """{path relative to test/: absolute source path} of the patterns."""
    src = os.path.join(source_root(build), "test")
    found = {}
    for pat in patterns:
        for path in glob.glob(os.path.join(src, pat)):
            if os.path.isdir(path):
                for root, _, files in os.walk(path):
                    for f in files:
                        if f.endswith(".test") and "Inputs" not in root:
                            full = os.path.join(root, f)
                            found[os.path.relpath(full, src)] = full
            elif path.endswith(".test"):
                found[os.path.relpath(path, src)] = path
    return found


def run(build, tests):
    """(wall s, CPU s, passed) of one lit run over `tests`."""
    paths = [os.path.join(build, "test", t) for t in sorted(tests)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    proc = subprocess.run(["/usr/bin/python3", LIT, "-q"] + paths, capture_output=True, text=True)
    wall = time.time() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode:
        print(proc.stdout[-3000:] + proc.stderr[-2000:], file=sys.stderr)
    return wall, cpu, proc.returncode == 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("build")
    p.add_argument("--baseline", required=True, help="the other build directory")
    p.add_argument("--tests", nargs="+", default=["ONNX/node-*.test", "ONNX/pytorch-*.test", "Models"],
                   help="paths or globs under test/ (default: the node, PyTorch and model tests)")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--all", action="store_true", help="each build runs every test file it has")
    a = p.parse_args()
    builds = {"new": os.path.abspath(a.build), "base": os.path.abspath(a.baseline)}
    files = {k: test_files(b, a.tests) for k, b in builds.items()}
    common = sorted(set(files["new"]) & set(files["base"]))
    chosen = {k: sorted(f) if a.all else common for k, f in files.items()}
    for k in builds:
        print(f"{k}: {builds[k]}: {len(chosen[k])} test files"
              + ("" if a.all else f" ({len(files[k]) - len(common)} of its own left out)"))
    if not all(chosen.values()):
        sys.exit("no test files to run")
    results = {k: [] for k in builds}
    for r in range(a.rounds):
        for k in ("base", "new"):
            wall, cpu, ok = run(builds[k], chosen[k])
            results[k].append((wall, cpu))
            print(f"round {r + 1} {k:4}: wall {wall:7.1f} s  CPU {cpu:7.1f} s  "
                  f"{'passed' if ok else 'FAILED'}  (load {os.getloadavg()[0]:.1f})", flush=True)
    med = {k: [statistics.median(x[i] for x in v) for i in (0, 1)] for k, v in results.items()}
    print(f"median wall new / base: {med['new'][0]:.1f} / {med['base'][0]:.1f} s = "
          f"{med['new'][0] / med['base'][0]:.2f}")
    print(f"median CPU  new / base: {med['new'][1]:.1f} / {med['base'][1]:.1f} s = "
          f"{med['new'][1] / med['base'][1]:.2f}")


if __name__ == "__main__":
    main()
