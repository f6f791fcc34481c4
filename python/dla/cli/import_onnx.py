"""dla-import-onnx: the command line of the ONNX importer (dla.onnx).

    dla-import-onnx MODEL.onnx [-o OUT.mlir] [--input-shape x=1x3x48x192]...
"""

import argparse
import subprocess
import sys

from .. import tools
from ..onnx import ImportFailure, parse_input_shape
from ..onnx.opsets import CONVERTED_RANGE, MAX_OPSET, MIN_OPSET
from ..onnx_import import import_onnx_text


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="dla-import-onnx",
        description="Import an ONNX model as a TOSA module for dla-opt. Opsets %d to %d are read "
                    "natively; a model of an older or newer opset is converted to opset %d or %d "
                    "by onnx.version_converter first, or read natively where the converter "
                    "cannot (opsets up to %d, and older models whose nodes have their opset-%d "
                    "definitions); a remark says which happened. Initializers become "
                    "dense_resource blobs; shape computations fold to constants once every input "
                    "shape is static." % (CONVERTED_RANGE + CONVERTED_RANGE + (MAX_OPSET, MIN_OPSET)))
    p.add_argument("model", nargs="?", help="the .onnx file")
    p.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    p.add_argument("--input-shape", action="append", default=[], metavar="NAME=DxDx...",
                   help="fix the shape of a model input (repeatable), e.g. x=1x3x48x192")
    p.add_argument("--emit-bytecode", action="store_true",
                   help="write MLIR bytecode (through dla-opt) instead of text")
    p.add_argument("--calibration-table", metavar="TABLE",
                   help="quantize the float model to int8 first: onnxruntime's QDQ form with "
                        "this table's activation scales (dla-calibrate's JSON, NVIDIA's JSON or a "
                        "TensorRT calibration cache); Conv / Gemm weights per output channel")
    p.add_argument("--per-tensor-weights", action="store_true",
                   help="with --calibration-table: one scale per weight tensor")
    p.add_argument("--save-qdq", metavar="FILE.onnx",
                   help="with --calibration-table: also write the quantized ONNX model")
    p.add_argument("--function", default="main", help="name of the function (default: main)")
    p.add_argument("--no-verify", action="store_true",
                   help="write the module without parsing and verifying it first through the "
                        "dla package")
    p.add_argument("--list-operators", action="store_true",
                   help="write the supported operators with their opsets (markdown, "
                        "docs/onnx-operators.md) instead of importing a model")
    p.add_argument("--test-dir", metavar="DIR",
                   help="with --list-operators: also list the node tests DIR's lit suites skip")
    args = p.parse_args(argv)
    if args.list_operators:
        from ..onnx.oplist import operator_list
        _write(args.output, operator_list(args.test_dir))
        return 0
    if args.model is None:
        p.error("the model is required (unless --list-operators)")
    try:
        text = import_onnx_text(
            args.model, dict(parse_input_shape(s) for s in args.input_shape),
            calibration_table=args.calibration_table, per_channel=not args.per_tensor_weights,
            save_qdq=args.save_qdq, function=args.function, verify=not args.no_verify,
            remark=lambda t: print("dla-import-onnx: remark: %s" % t, file=sys.stderr))
    except ImportFailure as e:
        print("dla-import-onnx: error: %s" % e, file=sys.stderr)
        return 1
    if args.emit_bytecode:
        tool = tools.find("dla-opt")
        if not tool:
            print("dla-import-onnx: error: --emit-bytecode needs dla-opt", file=sys.stderr)
            return 1
        cmd = [tool, "-", "--emit-bytecode", "-o", args.output]
        proc = subprocess.run(cmd, input=text.encode())
        return proc.returncode
    _write(args.output, text)
    return 0


def _write(path, text):
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
