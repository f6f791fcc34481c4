"""dla-run-onnx: compile an ONNX model for an NVDLA target and run it on the CPU.

    dla-run-onnx MODEL.onnx --input x.npy [--input y.pb] [--output-dir OUT]
    dla-run-onnx TEST_DIR                 # model.onnx + test_data_set_*/input_*.pb, output_*.pb
    dla-run-onnx TEST_DIR TEST_DIR...     # several in one process, lines prefixed by the name

The model is imported to TOSA (dla-import-onnx's dla.onnx, or --tosa FILE),
its function type recorded for the checks of each call, compiled by dla-opt
(--dla-compile for the target and precision, then --dla-lower-to-llvm;
--print-pipeline shows the command; one `dla-opt --batch` process for every
model of the run; the verifier runs where the modules are parsed, not after
every pass unless --verify-each), JIT-compiled once through MLIR's
ExecutionEngine and run on every input set, the inputs' number and shapes
checked before compiling.
Outputs are written as OUT/output_<i>.npy (per data set in a test directory;
without --output-dir or expected outputs, into MODEL_STEM.outputs/ here, its
path printed). Where
expected outputs exist (a test directory's output_*.pb, or --expect), the
maximum absolute and relative error of each output is reported and checked
against the tolerance:

    |got - expected| <= rtol * (|expected| + max |expected| of that output)

with rtol = 2^-7 (16 fp16 ulps) by default: fp16 rounds inputs, weights and
every layer output (2^-11 each) and sums in f32; the second term allows the
cancellation of a convolution's sum, whose error scales with the sum of
|products| rather than with its result. A line `offload: N of M layers on
TARGET PRECISION (P% of the multiply-accumulates)` says what runs where
(--dla-convert-tosa's summary). Exit status 1 when any output is outside
the tolerance, 2 on errors (one line naming the model), among them a network
with multiply-accumulates none of which the target runs (a float network on
int8-only nv_small, say) unless --allow-host.
"""

import argparse
import sys

from .. import pipelines, runner


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="dla-run-onnx", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("models", nargs="+", metavar="model",
                   help="MODEL.onnx, or a directory with model.onnx and test_data_set_* "
                        "(several directories: each is run in turn)")
    p.add_argument("--input", action="append", help="an input (.npy or .pb), in model order")
    p.add_argument("--expect", action="append", help="an expected output (.npy or .pb)")
    p.add_argument("--output-dir", help="write outputs as output_<i>.npy here")
    p.add_argument("--target", default="nv_full", choices=list(pipelines.NVDLA_CONFIGS))
    p.add_argument("--precision", default="fp16", choices=["fp16", "int16", "int8"])
    p.add_argument("--rtol", type=float, default=runner.DEFAULT_RTOL,
                   help="tolerance (default 2^-7, see above)")
    p.add_argument("--freeze", type=int, metavar="N",
                   help="keep the first N inputs as inputs and compile the others in as "
                        "constants with each data set's values (default: 1 for a test "
                        "directory, whose weights are inputs; none for a model)")
    p.add_argument("--tosa", help="use this TOSA module instead of importing the model")
    p.add_argument("--allow-host", action="store_true",
                   help="run a network none of whose multiply-accumulating layers the target "
                        "can run (else an error: nothing would run on the accelerator)")
    p.add_argument("--no-offload", dest="offload", action="store_false",
                   help="skip --dla-convert-tosa: TOSA runs on the host in f32 (a baseline), "
                        "dla layer ops already in the module still run")
    p.add_argument("--opt-level", type=int, default=2, choices=[0, 1, 2, 3],
                   help="LLVM optimization level of the JIT (default 2; 0 compiles a large "
                        "network several times faster and runs it slower)")
    p.add_argument("--save-mlir", help="write the LLVM-dialect module here")
    p.add_argument("--layouts", action="store_true",
                   help="assign accelerator layouts (--dla-compile) and execute with every "
                        "offloaded tensor in its NVDLA format (relayouts run on storage bytes)")
    p.add_argument("--reference-layers", action="store_true",
                   help="with --layouts: lower every layer op by --dla-lower-to-reference "
                        "before the memref lowering (relayouts around each layer), instead of "
                        "running the encoded ones on their storage (dla.on_storage)")
    p.add_argument("--cbuf-banks", type=int, default=0, metavar="N",
                   help="convolution-buffer banks the compiler may use (default: all); "
                        "convolutions that do not fit are split by rows")
    p.add_argument("--cbuf-bank-entries", type=int, default=0, metavar="N",
                   help="entries per bank (default: the target's); fewer force splits")
    p.add_argument("--no-compression", dest="compression", action="store_false",
                   help="with --layouts: keep every weight dense (default: weights smaller "
                        "sparse-compressed are stored and run so, on nv_full)")
    p.add_argument("--winograd", action="store_true",
                   help="with --layouts: eligible convolutions with constant weights become "
                        "Winograd (winograd=auto, nv_full) and run from their stored taps in "
                        "the transformed domain")
    p.add_argument("--fp16-arithmetic", choices=list(pipelines.FP16_ARITHMETIC),
                   help="what fp16 layers on nv_full compute: hardware (NVDLA's arithmetic, "
                        "bit-exact with its C model; the default) or ideal (exact products in "
                        "f32, one rounding)")
    p.add_argument("--print-pipeline", action="store_true", help="print the dla-opt pipeline")
    p.add_argument("--verify-each", action="store_true",
                   help="verify the IR after every pass of the pipeline (default: when the "
                        "imported and the lowered modules are parsed; a pass that breaks the IR "
                        "then fails there, unnamed)")
    p.add_argument("--repeat", type=int, default=0,
                   help="run each input set this many more times and print the mean time")
    args = p.parse_args(argv)
    options = runner.RunOptions(
        compile=runner.CompileOptions(
            target=args.target, precision=args.precision, offload=args.offload,
            layouts=args.layouts, reference_layers=args.reference_layers,
            compression=args.compression, winograd=args.winograd, cbuf_banks=args.cbuf_banks,
            cbuf_bank_entries=args.cbuf_bank_entries, allow_host=args.allow_host,
            opt_level=args.opt_level, verify_each=args.verify_each,
            fp16_arithmetic=args.fp16_arithmetic,
            print_pipeline=args.print_pipeline, save_mlir=args.save_mlir, tosa=args.tosa),
        inputs=args.input or [], expect=args.expect or [], output_dir=args.output_dir,
        rtol=args.rtol, freeze=args.freeze, repeat=args.repeat)
    try:
        return runner.run_models(args.models, options)
    except Exception as e:  # Failure, dla.DLAError, and what nothing foresaw
        print("dla-run-onnx: error: %s" % runner.report(e, args.models[0]), file=sys.stderr)
        return 2
    finally:
        runner.DLA_OPT.close()


if __name__ == "__main__":
    sys.exit(main())
