#!/usr/bin/env python3
"""Runs one ONNX model with dla-run-onnx and with onnxruntime-node on the
same deterministic inputs and compares the outputs.

    compare_with_ort.py MODEL.onnx --shape 1x3x48x192 [--batch-seed S]
        --dla-run-onnx build/bin/dla-run-onnx --ort PKG_DIR
        [--atol A] [--classes] [--repeat N] [-- EXTRA dla-run-onnx ARGS]
    compare_with_ort.py MODEL.onnx --input x.npy ... [--mean-atol M]
        [--threshold T --max-flipped F] ...

Inputs: one float32 array per model input, uniform in [-1, 1) from numpy's
PCG64 seeded with --seed (the same bytes for both runtimes). For each output
it prints the maximum absolute error; with --classes it also compares the
arg-max of every row (the predicted class) and requires it to be equal.
Exit status 1 when an output differs by more than --atol or a class differs.
With --repeat N both runtimes also time N runs after a warm-up, and the
ratio dla / onnxruntime is printed (bench/). --input gives the inputs as
.npy files instead (a picture rather than noise); --mean-atol bounds the
mean absolute error too; --threshold T with --max-flipped F compares a
map binarized at T (a detector's text mask): at most F times the elements
onnxruntime puts above T may fall on the other side in ours.
--fp16-emulation-factor F also runs onnxruntime on the model with fp16
storage emulated (fp16_emulation.py: weights and every activation rounded to
fp16, f32 arithmetic) and requires our maximum error to be at most F times
that copy's: what fp16 storage costs by itself bounds ours. --step-classes
compares the arg-max over the last axis at every other index (a sequence
model's class per time step). --ort-model M runs onnxruntime on M instead:
a model that computes what MODEL's import must (the float form of a
dynamically quantized MODEL).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def shape_arg(text):
    return tuple(int(d) for d in text.split("x"))


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model")
    p.add_argument("--shape", type=shape_arg, action="append",
                   help="shape of each model input, e.g. 1x3x48x192")
    p.add_argument("--input", action="append", help="an input .npy, in model order")
    p.add_argument("--mean-atol", type=float)
    p.add_argument("--threshold", type=float)
    p.add_argument("--max-flipped", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--dla-run-onnx", required=True)
    p.add_argument("--ort", required=True, help="the onnxruntime-node package directory")
    p.add_argument("--atol", type=float, default=2.0 ** -7)
    p.add_argument("--classes", action="store_true")
    p.add_argument("--repeat", type=int, default=0)
    p.add_argument("--fp16-emulation-factor", type=float)
    p.add_argument("--step-classes", action="store_true")
    p.add_argument("--ort-model", help="the model onnxruntime runs (default: MODEL)")
    p.add_argument("--ort-no-optimize", action="store_true",
                   help="onnxruntime without graph optimizations: a QDQ model then runs as "
                        "written (float operators between quantize steps), not as the int8 "
                        "kernels its fusions pick, whose u8s8 products saturate on x86 "
                        "without VNNI (AVX2) and so differ by machine")
    a = p.parse_args(argv)
    if not a.shape and not a.input:
        p.error("give --shape or --input")

    rng = np.random.default_rng(a.seed)
    with tempfile.TemporaryDirectory(prefix="compare-ort-") as work:
        inputs = list(a.input or [])
        for i, shape in enumerate(a.shape or []):
            path = os.path.join(work, "input_%d.npy" % i)
            np.save(path, rng.uniform(-1.0, 1.0, size=shape).astype(np.float32))
            inputs.append(path)
        ort_dir, dla_dir = os.path.join(work, "ort"), os.path.join(work, "dla")
        env = dict(os.environ, ONNXRUNTIME_NODE=a.ort)
        cmd = ["node", os.path.join(HERE, "run-ort.js"), a.ort_model or a.model, ort_dir] + inputs
        if a.repeat:
            cmd += ["--repeat", str(a.repeat)]
        if a.ort_no_optimize:
            cmd.append("--no-optimize")
        ort = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if ort.returncode:
            sys.exit("onnxruntime failed:\n" + ort.stderr)
        cmd = [a.dla_run_onnx, a.model, "--output-dir", dla_dir] + extra
        for path in inputs:
            cmd += ["--input", path]
        if a.repeat:
            cmd += ["--repeat", str(a.repeat)]
        emu_dir = None
        if a.fp16_emulation_factor is not None:
            import onnx
            from fp16_emulation import emulate
            emu_model = os.path.join(work, "fp16-emulated.onnx")
            shapes = [np.load(path, mmap_mode="r").shape for path in inputs]
            onnx.save(emulate(onnx.load(a.model), shapes), emu_model)
            emu_dir = os.path.join(work, "ort-fp16")
            emu = subprocess.run(["node", os.path.join(HERE, "run-ort.js"), emu_model, emu_dir]
                                 + inputs, env=env, capture_output=True, text=True)
            if emu.returncode:
                sys.exit("onnxruntime failed on the fp16-emulated model:\n" + emu.stderr)
        dla = subprocess.run(cmd, capture_output=True, text=True)
        sys.stdout.write(dla.stdout)
        if dla.returncode:
            sys.exit("dla-run-onnx failed:\n" + dla.stderr)

        ok = True
        i = 0
        while os.path.exists(os.path.join(ort_dir, "%d.npy" % i)):
            want = np.load(os.path.join(ort_dir, "%d.npy" % i)).astype(np.float64)
            got = np.load(os.path.join(dla_dir, "output_%d.npy" % i)).astype(np.float64)
            if got.shape != want.shape:
                print("output %d: shape %s, onnxruntime %s" % (i, got.shape, want.shape))
                ok = False
                i += 1
                continue
            err = float(np.max(np.abs(got - want))) if got.size else 0.0
            good = err <= a.atol
            print("output %d: max abs error vs onnxruntime %.3g (atol %g): %s"
                  % (i, err, a.atol, "ok" if good else "FAIL"))
            ok &= good
            if a.mean_atol is not None:
                mean = float(np.mean(np.abs(got - want))) if got.size else 0.0
                good = mean <= a.mean_atol
                print("output %d: mean abs error %.3g (atol %g): %s"
                      % (i, mean, a.mean_atol, "ok" if good else "FAIL"))
                ok &= good
            if emu_dir is not None:
                emu = np.load(os.path.join(emu_dir, "%d.npy" % i)).astype(np.float64)
                emu_err = float(np.max(np.abs(emu - want))) if want.size else 0.0
                good = err <= a.fp16_emulation_factor * emu_err
                print("output %d: fp16 storage alone (onnxruntime, weights and activations "
                      "rounded to fp16) %.3g, ours %.3g (at most %g x): %s"
                      % (i, emu_err, err, a.fp16_emulation_factor, "ok" if good else "FAIL"))
                ok &= good
            if a.step_classes:
                steps_got = got.reshape(-1, got.shape[-1]).argmax(-1)
                steps_want = want.reshape(-1, want.shape[-1]).argmax(-1)
                differ = int(np.count_nonzero(steps_got != steps_want))
                print("output %d: class per step: %d of %d differ from onnxruntime's: %s"
                      % (i, differ, steps_want.size, "same" if not differ else "DIFFERENT"))
                ok &= not differ
            if a.threshold is not None:
                above = int(np.count_nonzero(want > a.threshold))
                flipped = int(np.count_nonzero((got > a.threshold) != (want > a.threshold)))
                good = flipped <= a.max_flipped * above
                print("output %d: onnxruntime has %d elements above %g, %d are on the other "
                      "side in ours (at most %g of %d): %s"
                      % (i, above, a.threshold, flipped, a.max_flipped, above,
                         "ok" if good else "FAIL"))
                ok &= good
            if a.classes:
                rows_got = got.reshape(got.shape[0], -1)
                rows_want = want.reshape(want.shape[0], -1)
                for r, (g, w) in enumerate(zip(rows_got, rows_want)):
                    same = int(np.argmax(g)) == int(np.argmax(w))
                    print("output %d row %d: class %d (p %.4f), onnxruntime class %d (p %.4f): %s"
                          % (i, r, np.argmax(g), g.max(), np.argmax(w), w.max(),
                             "same" if same else "DIFFERENT"))
                    ok &= same
            i += 1
        if i == 0:
            sys.exit("onnxruntime wrote no outputs")
        if a.repeat:
            t_dla = float(re.search(r"([0-9.eE+-]+) s per run", dla.stdout).group(1))
            t_ort = float(re.search(r"ort_seconds ([0-9.eE+-]+)", ort.stdout).group(1))
            print("time per run: dla reference %.4f s, onnxruntime %.4f s, ratio %.1fx"
                  % (t_dla, t_ort, t_dla / t_ort))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
