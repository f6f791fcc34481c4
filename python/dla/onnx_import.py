"""ONNX models as dla modules, in this process: dla-import-onnx's package
(dla_onnx) writes the TOSA module, which is parsed into a context."""

import os
import sys

from . import DLAError, Diagnostic

__all__ = ["import_onnx"]


def _importer():
    """dla_onnx: installed beside this package (python_packages/), else
    in the source tree (tools/dla-import-onnx)."""
    try:
        import dla_onnx
        return dla_onnx
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    source = os.path.normpath(os.path.join(here, "..", "..", "tools", "dla-import-onnx"))
    if os.path.isdir(os.path.join(source, "dla_onnx")) and source not in sys.path:
        sys.path.append(source)
    try:
        import dla_onnx
        return dla_onnx
    except ImportError as e:
        raise DLAError("the ONNX importer (dla_onnx, installed with dla-import-onnx) is not "
                       "found: %s" % e)


def import_onnx(path, input_shapes=None, *, context=None, function="main"):
    """The ONNX model in file `path` as a module of TOSA (and nothing else
    yet) in `context` (default: a new execution.ExecutionContext, ready for
    execution.compile). `input_shapes` ({input name: [sizes]}) fixes dynamic
    input sizes. The module's `remarks` are the importer's (an opset
    converted), as Diagnostic(path, "remark", text). Every failure is a
    DLAError naming the file and the node."""
    importer = _importer()
    remarks = []
    try:
        model = importer.load_model(path)
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
