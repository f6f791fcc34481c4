"""dla-calibrate: the command line of dla.calibrate (see its documentation,
which is this tool's --help).

    dla-calibrate MODEL.onnx --data DIR -o TABLE.json [--method max|percentile|entropy]
"""

import argparse
import sys
import time

from .. import DLAError, calibrate
from ..onnx.builder import ImportError_
from ..onnx.calibration_table import write_table
from ..onnx.importer import parse_input_shape


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="dla-calibrate", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=calibrate.__doc__.split("\n\n")[0].split(": ", 1)[1],
        epilog=calibrate.__doc__.split("\n\n", 2)[2])
    p.add_argument("model", help="the float .onnx model")
    p.add_argument("--data", required=True, metavar="DIR", help="directory of samples (see below)")
    p.add_argument("-o", "--output", required=True, metavar="TABLE",
                   help="the table: JSON, or a TensorRT cache if it ends in .cache")
    p.add_argument("--method", default="max", choices=["max", "percentile", "entropy"],
                   help="how a scale is chosen (default max, see below)")
    p.add_argument("--percentile", type=float, default=99.99, help="for --method percentile (default 99.99)")
    p.add_argument("--asymmetric", action="store_true",
                   help="zero points: each tensor's range (its extremes clipped at the method's "
                        "threshold) on int8's 256 levels, written as \"offset\"")
    p.add_argument("--per-channel", action="store_true",
                   help="also one scale per channel of N x C x H x W tensors and of "
                        "N x T x C tokens (\"channel_axis\": -1), with the tensor's zero "
                        "point (\"channel_scales\"; the importer uses them where a Conv "
                        "or a token fully connected layer writes or reads the tensor)")
    p.add_argument("--input-shape", action="append", default=[], metavar="NAME=DxDx...",
                   help="fix the input's shape (a dynamic batch dimension defaults to 1)")
    p.add_argument("--mean", type=float, nargs=3, default=[0.5] * 3, help="image mean per channel (RGB)")
    p.add_argument("--std", type=float, nargs=3, default=[0.5] * 3, help="image std per channel (RGB)")
    p.add_argument("--opt-level", type=int, default=1, choices=[0, 1, 2, 3],
                   help="LLVM optimization level of the JIT (default 1: PaddleOCR's "
                        "classifier on 32 lines, idle machine, 8.7 s in all at 0, 6.5 s at 1, "
                        "7.2 s at 2; the tables are equal)")
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="samples run at once (default: the CPUs, at most %d); the "
                        "tables do not depend on it" % calibrate.MAX_JOBS)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    if not 0 < args.percentile <= 100:
        p.error("--percentile must be in (0, 100]")
    if args.jobs is not None and args.jobs < 1:
        p.error("--jobs must be at least 1")
    try:
        shapes = dict(parse_input_shape(s) for s in args.input_shape)
        t0 = time.perf_counter()
        stats, n, compile_s = calibrate.collect(args.model, args.data, shapes, args.mean,
                                                args.std, args.opt_level, args.quiet,
                                                jobs=args.jobs)
        table, ranges = calibrate.make_table(stats, args.method, args.percentile,
                                             args.asymmetric, args.per_channel)
        if (args.asymmetric or args.per_channel) and args.output.endswith(".cache"):
            raise calibrate.Failure("a TensorRT calibration cache holds no zero points or "
                                    "channel scales: write JSON")
        try:
            write_table(args.output, table,
                        calibrate.TRT_HEADERS[args.method] if args.output.endswith(".cache") else None,
                        ranges)
        except OSError as e:
            raise calibrate.Failure("cannot write %s: %s" % (args.output, e))
    except (calibrate.Failure, ImportError_, DLAError) as e:  # DLAError: from the JIT
        print("dla-calibrate: error: %s" % e, file=sys.stderr)
        return 1
    if not args.quiet:
        print("dla-calibrate: %d tensors, %d samples, %s scales in %s (compile %.1f s, total %.1f s)"
              % (len(table), n, args.method, args.output, compile_s, time.perf_counter() - t0),
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
