"""ONNX models as dla modules, in this process: the importer (dla.onnx)
writes the TOSA module, which is verified or parsed into a context."""

from . import Context, DLAError, Diagnostic

__all__ = ["import_onnx", "import_onnx_text", "verify_module"]


def import_onnx_text(path, input_shapes=None, *, calibration_table=None, per_channel=True,
                     save_qdq=None, function="main", remark=None, verify=True):
    """The TOSA text of the ONNX model in file `path` (dla-import-onnx's
    work): `input_shapes` ({input name: [sizes]}) fixes dynamic input
    sizes; with `calibration_table` (a file: dla-calibrate's JSON, NVIDIA's
    JSON or a TensorRT cache) the float model is quantized to int8 first
    (onnxruntime's QDQ form; Conv / Gemm weights per output channel unless
    not `per_channel`), and written to `save_qdq` when given (at opset 13
    at least: qdq_opset). `remark(text)`
    hears the importer's remarks; with `verify` the module is parsed and
    verified first (verify_module). Every failure is an
    importer.ImportFailure naming the file (and the node)."""
    from . import onnx as importer
    model = importer.load_model(path, remark)
    if (save_qdq or not per_channel) and not calibration_table:
        raise importer.ImportFailure("--save-qdq and --per-tensor-weights need --calibration-table")
    if calibration_table:
        from .onnx.calibration_table import read_table
        from .onnx.qdq import quantize_model
        model = quantize_model(model, read_table(calibration_table), calibration_table,
                               per_channel=per_channel)
        if save_qdq:
            import onnx
            from .onnx.qdq_opset import raise_opset
            saved = onnx.ModelProto()
            saved.CopyFrom(model)
            onnx.save(raise_opset(saved), save_qdq)
    text = importer.import_model(model, {k: list(v) for k, v in (input_shapes or {}).items()},
                                 function, source=path, remark=remark)
    if verify:
        verify_module(text, path)
    return text


def verify_module(text, model_path):
    """Parses and verifies the module with the dialects dla-opt has, so
    that nothing dla-opt rejects is written: a failure is the importer's
    (an importer.ImportFailure), reported with the model."""
    from .onnx import ImportFailure
    try:
        with Context() as ctx:
            ctx.parse_module(text)
    except DLAError as e:
        raise ImportFailure("%s: the imported module does not verify (an importer bug): %s"
                            % (model_path, str(e).splitlines()[0]))


def import_onnx(path, input_shapes=None, *, context=None, function="main"):
    """The ONNX model in file `path` as a module of TOSA (and nothing else
    yet) in `context` (default: a new execution.ExecutionContext, ready for
    execution.compile). `input_shapes` ({input name: [sizes]}) fixes dynamic
    input sizes. The module's `remarks` are the importer's (an opset
    converted), as Diagnostic(path, "remark", text). Every failure is a
    DLAError naming the file and the node."""
    from . import onnx as importer
    remarks = []
    try:
        model = importer.load_model(path, remarks.append)
        text = importer.import_model(model, {k: list(v) for k, v in (input_shapes or {}).items()},
                                     function, remark=remarks.append)
    except importer.ImportFailure as e:
        message = str(e)
        raise DLAError(message if message.startswith(str(path)) else "%s: %s" % (path, message))
    if context is None:
        from .execution import ExecutionContext
        context = ExecutionContext()
    try:
        module = context.parse_module(text)
    except DLAError as e:
        raise DLAError("%s: the imported module does not parse: %s" % (path, e))
    module.remarks = [Diagnostic(str(path), "remark", r) for r in remarks]
    return module
