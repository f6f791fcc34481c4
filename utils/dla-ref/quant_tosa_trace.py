#!/usr/bin/env python3
"""The integer TOSA layers of quant-tosa-layers.test on NVIDIA's C model
(issue 28 part 3: the integer execution tests that fit).

    quant_tosa_trace.py --count N --seed S --config nv_small|nv_large
                        --build BUILD --keep DIR [--llvm-bin DIR]
                        [--large-averages | --rescales | --products | --gates |
                         --bilinear]

Draws the cases `run_quant_tosa.py --count N --seed S` draws (convolutions,
depthwise convolutions, matrix products, adds, pools with their rescales;
the same inputs), compiles each as its own network for the configuration,
int8, with layouts (as run_quant_tosa.py --layouts compiles them) and gives
it to run_network_trace.py: every hardware layer runs on the model as its
own register program, its result bytes equal to the CPU execution's. A case
the compiler leaves wholly on the host has no layer to run and is counted
apart. Prints a line per case that fails and a summary; exits 1 when one
fails.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

import run_quant_tosa as qt
from dla import pipelines  # PYTHONPATH=BUILD/python_packages (lit sets it)

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--config", choices=["nv_small", "nv_large"], default="nv_small")
    p.add_argument("--build", required=True, help="the build directory (bin/, nvdla-cmod/)")
    p.add_argument("--keep", required=True, help="write the networks and programs here")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--large-averages", action="store_true",
                   help="run_quant_tosa.py --large-averages' cases: average pools chained")
    p.add_argument("--rescales", action="store_true",
                   help="run_quant_tosa.py --rescales' cases: int8 maps rescaled offline")
    p.add_argument("--products", action="store_true",
                   help="run_quant_tosa.py --products' cases: hard-swish products per element")
    p.add_argument("--channel-products", action="store_true",
                   help="run_quant_tosa.py --channel-products' cases: products requantized per "
                        "channel")
    p.add_argument("--gates", action="store_true",
                   help="run_quant_tosa.py --gates' cases: a layer's gate read in place by the "
                        "product")
    p.add_argument("--bilinear", action="store_true",
                   help="run_quant_tosa.py --bilinear's cases: bilinear resizes (an upsampling "
                        "with a border, a depthwise convolution)")
    a = p.parse_args()
    bin_dir = os.path.join(os.path.abspath(a.build), "bin")
    pipeline = pipelines.module(pipelines.compile(
        convert_tosa=True, target=a.config, precision="int8", layouts=True, compression=False))
    good, host, bad, layers = 0, 0, 0, 0
    for name, b, ins, out, y, data in qt.make_cases(np.random.default_rng(a.seed), a.count,
                                                   large_averages=a.large_averages,
                                                   rescales=a.rescales,
                                                   products=a.products, gates=a.gates,
                                                   bilinear=a.bilinear,
                                                   channel_products=a.channel_products):
        d = os.path.join(a.keep, name)
        os.makedirs(d, exist_ok=True)
        params = ", ".join("%%a%d: %s" % (i, qt.ttype(s, "i8")) for i, s in enumerate(ins))
        text = "\n".join(["func.func @main(%s) -> %s {" % (params, qt.ttype(out, "i8"))] + b.lines +
                         ["  return %s : %s" % (y, qt.ttype(out, "i8")), "}"]) + "\n"
        inputs = []
        for i, x in enumerate(data):
            inputs.append(os.path.join(d, "x%d.npy" % i))
            np.save(inputs[-1], x.astype(np.int8))
        compiled = subprocess.run([os.path.join(bin_dir, "dla-opt"), "--pass-pipeline=" + pipeline,
                                   "-"], input=text, capture_output=True, text=True)
        if compiled.returncode:
            bad += 1
            print("%s: dla-opt failed:\n%s" % (name, compiled.stderr[:2000]))
            continue
        if "dla.conv" not in compiled.stdout and "dla.sdp" not in compiled.stdout and \
                "dla.pool" not in compiled.stdout:
            host += 1
            continue
        path = os.path.join(d, "compiled.mlir")
        with open(path, "w") as f:
            f.write(compiled.stdout)
        ran = subprocess.run([sys.executable, os.path.join(HERE, "run_network_trace.py"), path,
                              "--input"] + inputs + ["--build", a.build, "--llvm-bin", a.llvm_bin,
                                                     "--keep", os.path.join(d, "net")],
                             capture_output=True, text=True)
        summary = (ran.stdout + ran.stderr).strip().splitlines()
        if ran.returncode:
            bad += 1
            print("%s: FAILED\n%s" % (name, "\n".join(summary[-15:])))
            continue
        good += 1
        layers += int(summary[-1].split(" of ")[1].split()[0])
    print("%d of %d cases run on the model, %d layers, every one equal to the CPU execution on "
          "%s; %d cases stay on the host; %d fail" % (good, a.count, layers, a.config, host, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
