"""dla-compile: one command from a model to a deployable bundle.

    dla-compile MODEL.onnx|MODULE.mlir --target nv_full|nv_large|nv_small|htp
                --precision fp16|int8|int16 [--calibration-table T]
                [--input-shape NAME=DxD...] [--no-compression] [--no-emulator] -o OUT_DIR
                [--estimate] [--macs N] [--cbuf-kb KB] [--clock-mhz MHZ]
                [--dram-gbps GBPS] [--memory-latency CYCLES]

The stages are dla.compiler's (its documentation, below); a progress line
per stage on a terminal.

A network with multiply-accumulates none of which the target runs (a
float network on int8-only nv_small, say), or less of them than
--min-offload, is refused and no bundle written, unless --allow-host. A
failing compile prints its errors, then with --remarks=all (-v) the
remarks, each once; by default their count. With -v a compile that
succeeds prints its remarks too, each once, before its summary.

The summary, the report and the manifest carry the performance model's
estimate (docs/PerformanceModel.md) on the target, at 1000 MHz and 10 GB/s
unless --clock-mhz / --dram-gbps / --macs / --cbuf-kb / --memory-latency
say otherwise; --estimate also prints the frame time on nv_small, nv_large
and nv_full and on the target so changed, as a table.

Exit status 1 on a failing stage (its errors on stderr), 2 on usage errors
and on a network refused for what it offloads.
"""

import argparse
import sys
import time

from .. import DLAError, compiler, performance, pipelines
from ..onnx import ImportFailure, parse_input_shape


class Progress(compiler.Progress):
    """One line per stage on stderr: on a terminal written when the stage
    starts and completed in place when it ends; with --progress elsewhere,
    written when it ends."""

    def __init__(self, tty, forced, total):
        self.tty, self.enabled, self.total, self.n = tty, tty or forced, total, 0

    def start(self, stage, what):
        self.n += 1
        self.stage, self.t0 = "[%d/%d] %s: %s" % (self.n, self.total, stage, what), time.time()
        if self.tty:
            print(self.stage + " ...", end="", file=sys.stderr, flush=True)

    def done(self, note=""):
        if self.enabled:
            print("%s%s: %.2f s%s" % ("\r\033[K" if self.tty else "", self.stage,
                                      time.time() - self.t0, note and ", " + note),
                  file=sys.stderr, flush=True)


def _epilog():
    """The usage, dla.compiler's stages, the exit statuses."""
    usage, _, statuses = __doc__.split("\n\n", 3)[1:]
    stages = "Stages" + compiler.__doc__.split("\n\nStages", 1)[1].split("\n\n")[0]
    return "\n\n".join([usage, stages, statuses])


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="dla-compile", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_epilog())
    p.add_argument("model", help="MODEL.onnx or MODULE.mlir (TOSA and/or dla layer ops)")
    p.add_argument("--target", required=True, choices=list(pipelines.TARGETS))
    p.add_argument("--precision", required=True, choices=list(pipelines.PRECISIONS))
    p.add_argument("--calibration-table", metavar="T",
                   help="int8 activation scales (dla-calibrate's JSON, NVIDIA's JSON or a "
                        "TensorRT cache): the float model is quantized first")
    p.add_argument("--input-shape", action="append", default=[], metavar="NAME=DxDx...",
                   help="fix the shape of a model input (repeatable), e.g. x=1x3x48x192")
    p.add_argument("--no-compression", action="store_true",
                   help="store every weight dense (default: compressed where that is smaller)")
    p.add_argument("--no-emulator", action="store_true",
                   help="keep an int8 network's softmax on the host in float (default: in "
                        "NVIDIA's runtime emulator, an EMU task of the loadable, int8 "
                        "probabilities in steps of 1/128)")
    p.add_argument("-o", "--output", required=True, metavar="OUT_DIR")
    p.add_argument("--progress", action="store_true",
                   help="print the progress lines even when stderr is not a terminal")
    p.add_argument("--allow-host", action="store_true",
                   help="write the bundle however little runs on the accelerator")
    p.add_argument("--min-offload", type=float, metavar="PERCENT",
                   help="refuse a network with less than PERCENT%% of its multiply-accumulates "
                        "on the accelerator (default: refuse only when none are)")
    p.add_argument("--remarks", choices=["summary", "all"], default="summary",
                   help="count the remarks of a failing compile (summary), or list them, "
                        "each once, after its errors and before a summary (all)")
    p.add_argument("-v", dest="remarks", action="store_const", const="all",
                   help="--remarks=all")
    e = p.add_argument_group("performance estimate (docs/PerformanceModel.md)")
    e.add_argument("--estimate", action="store_true",
                   help="print the frame time on nv_small, nv_large, nv_full and the target "
                        "with the changes below, as a table")
    e.add_argument("--macs", type=int, metavar="N",
                   help="multiply-accumulates per cycle (a multiple of the kernels per group)")
    e.add_argument("--cbuf-kb", type=float, metavar="KB", dest="conv_buffer_kb",
                   help="convolution buffer size in KB")
    e.add_argument("--clock-mhz", type=float, metavar="MHZ", help="clock (default 1000)")
    e.add_argument("--dram-gbps", type=float, metavar="GBPS",
                   help="DRAM bandwidth in GB/s of 1e9 bytes (default 10)")
    e.add_argument("--memory-latency", type=float, metavar="CYCLES",
                   dest="memory_latency_cycles",
                   help="the memory's latency in cycles: each layer waits it (twice on "
                        "nv_small, calibrated on its RTL) and it bounds SDP / PDP / CDP reads "
                        "(default 0; NVIDIA's RTL harness: 32)")
    args = p.parse_args(argv)
    try:
        options = compiler.BundleOptions(
            target=args.target, precision=args.precision, calibration_table=args.calibration_table,
            input_shapes=dict(parse_input_shape(s) for s in args.input_shape),
            compression=not args.no_compression, emulator=not args.no_emulator,
            allow_host=args.allow_host,
            min_offload=args.min_offload, remarks=args.remarks, macs=args.macs,
            conv_buffer_kb=args.conv_buffer_kb, clock_mhz=args.clock_mhz,
            dram_gbps=args.dram_gbps, memory_latency_cycles=args.memory_latency_cycles)
        for name in ("macs", "conv_buffer_kb", "clock_mhz", "dram_gbps"):
            value = getattr(args, name)
            if value is not None and not value > 0:
                p.error("--%s %s: must be positive" % ({"conv_buffer_kb": "cbuf-kb"}.get(
                    name, name.replace("_", "-")), value))
        if args.target in performance.CONFIGURATIONS and options.changes_config():
            options.perf_config()  # a bad --macs fails before the compile
        manifest = compiler.compile_bundle(
            args.model, args.output, options,
            progress=Progress(sys.stderr.isatty(), args.progress, len(compiler.STAGES)),
            remark=lambda t: print("dla-import-onnx: remark: %s" % t, file=sys.stderr))
    except compiler.Refused as e:
        print("dla-compile: error: %s" % e, file=sys.stderr)
        return 2
    except (compiler.Failure, ImportFailure, DLAError) as e:  # DLAError: from the C API
        print("dla-compile: error: %s" % e, file=sys.stderr)
        return 1
    if args.remarks == "all":
        # The compile's remarks, each once, before the summary.
        for r in dict.fromkeys("%s: remark: %s" % (r["location"] or manifest["model"], r["message"])
                               for r in manifest["remarks"]):
            print(r, file=sys.stderr)
    print("\n".join(compiler.summary_lines(manifest, args.output)))
    if args.estimate:
        try:
            print("\n".join(compiler.estimate_table(manifest, options)))
        except DLAError as e:
            print("dla-compile: error: %s" % e, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
