#!/usr/bin/python3
"""ONNX -> NVDLA layers -> CPU execution, in one Python process.

    PYTHONPATH=build/python_packages python3 python/examples/onnx_end_to_end.py \
        [TEST_DIR] [--target nv_full] [--precision fp16]

TEST_DIR is an ONNX backend test directory (model.onnx and
test_data_set_*/input_*.pb, output_*.pb; default: libonnx-testdata's
pytorch-converted/test_Conv2d_groups). The model is imported with
dla.import_onnx, compiled for the target by the pipeline dla-run-onnx uses
(execution.compile_pipeline), JIT-compiled, run on every data set and
compared with ONNX's expected outputs as dla-run-onnx compares them
(dla.runner.compare: |got - expected| <= 2^-7 (|expected| + max
|expected|), its fp16 tolerance). Exit status 1 when an output is outside
it.
"""

import argparse
import glob
import os
import sys

import dla  # the build tree's (PYTHONPATH=build/python_packages) or an installed one
from dla import execution, runner

DEFAULT = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d_groups"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("test_dir", nargs="?", default=DEFAULT)
    p.add_argument("--target", default="nv_full")
    p.add_argument("--precision", default="fp16")
    args = p.parse_args(argv)

    module = dla.import_onnx(os.path.join(args.test_dir, "model.onnx"))
    for remark in module.remarks:
        print(remark)
    entry = execution.public_functions(module)[0]
    engine = execution.compile(module, pipeline=execution.compile_pipeline(
        args.target, args.precision, summary=True))
    for remark in engine.remarks:
        if "layers on" in remark.message:  # --dla-convert-tosa's summary
            print(remark.message)
    ok = True
    for data_set in sorted(glob.glob(os.path.join(args.test_dir, "test_data_set_*"))):
        inputs = [runner.load_array(f)
                  for f in sorted(glob.glob(os.path.join(data_set, "input_*.pb")))]
        expected = [runner.load_array(f)
                    for f in sorted(glob.glob(os.path.join(data_set, "output_*.pb")))]
        outputs = engine.invoke(entry, inputs)
        for i, (got, want) in enumerate(zip(outputs, expected)):
            abs_err, _, good = runner.compare(got, want, runner.DEFAULT_RTOL)
            ok &= good
            print("%s output %d %s: max abs error %.3g: %s" % (
                os.path.basename(data_set), i, list(got.shape), abs_err, "ok" if good else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
