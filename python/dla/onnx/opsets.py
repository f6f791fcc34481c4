"""Opsets: which the importer reads natively, and ONNX's version converter
for the rest.

The converters are written for the definitions of opsets 9 to 18 (and of
19 to 21 where those only add element types). A model of another opset is
first converted by `onnx.version_converter` to the nearest of 9 and 18; a
model the converter cannot convert still imports natively when each of its
nodes has the definition the converters know."""

import onnx

from .builder import ImportError_

MIN_OPSET, MAX_OPSET = 9, 21
# Models outside CONVERTED_RANGE are converted to its nearest end first.
CONVERTED_RANGE = (9, 18)
# Opsets 19 to 21 are accepted for QuantizeLinear / DequantizeLinear (their
# float8, int4 and blocked forms are diagnosed by the converters); most
# other definitions of 19 to 21 only add element types (float8, int4) that
# are rejected anyway. These change meaning and are refused there. (Debian's
# onnx 1.12 knows schemas up to opset 17 only, so the list is by hand.)
CHANGED_AFTER_18 = {"AveragePool", "Pad", "Resize", "GroupNormalization", "DeformConv",
                    "ReduceMax", "ReduceMin", "Gelu", "AffineGrid", "GridSample", "DFT"}


def newest_opset():
    """The newest opset a model may have: ours, or the newest ONNX's version
    converter knows (it converts down to 18)."""
    return max(MAX_OPSET, onnx.defs.onnx_opset_version())


def default_opset(model):
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            return o.version
    raise ImportError_("the model imports no default-domain opset")


def _node_name(node):
    return node.name or (node.output[0] if node.output else node.op_type)


def _old_definitions(graph, opset):
    """The first node whose definition at `opset` differs from opset
    MIN_OPSET's (the converters know only those), as (node, since), or None."""
    for node in graph.node:
        try:
            old = onnx.defs.get_schema(node.op_type, opset, node.domain).since_version
            new = onnx.defs.get_schema(node.op_type, MIN_OPSET, node.domain).since_version
        except onnx.defs.SchemaError:
            old, new = None, -1
        if old != new:
            return node, old
    return None


def _convert(model, target):
    """The model converted to `target`, or the converter's reason."""
    from onnx import helper, version_converter
    listed = {i.name for i in model.graph.input}
    missing = [t for t in model.graph.initializer if t.name not in listed]
    if missing and model.ir_version < 4:
        # Before IR 4 every initializer is also a graph input; the converter
        # insists (a model whose inputs were frozen into initializers).
        model = onnx.ModelProto.FromString(model.SerializeToString())
        model.graph.input.extend(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
                                 for t in missing)
    converted, why = _isolated(lambda: version_converter.convert_version(model, target)
                               .SerializeToString())
    if converted is None:
        # "./onnx/version_converter/BaseConverter.h:63: adapter_lookup: Assertion
        # `false` failed: No Adapter ..." -> "No Adapter ...".
        return None, why.rsplit("failed: ", 1)[-1].strip()
    return onnx.ModelProto.FromString(converted), None


def _isolated(fn):
    """(fn()'s bytes, None), or (None, why) when it raises or crashes: run
    in a child process, since onnx.version_converter's C++ dereferences
    what a malformed model lacks (a segmentation fault would end the
    importer and its host, dla-run-onnx or Python)."""
    import os
    import pickle
    import sys
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: fn's result or its error through the pipe
        os.close(read)
        import faulthandler
        faulthandler.disable()  # a crash is expected here: reported by the parent
        # ... and glibc's own report of a corrupted heap ("free(): invalid
        # next size") goes nowhere: to stderr, not the terminal, then away.
        os.environ["LIBC_FATAL_STDERR_"] = "1"
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        try:
            try:
                payload = (fn(), None)
            except Exception as e:  # RuntimeError / ValueError / onnx's C++ assertions
                lines = [l for l in str(e).splitlines() if l.strip()]
                payload = (None, lines[0] if lines else type(e).__name__)
            with os.fdopen(write, "wb") as f:
                pickle.dump(payload, f)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    try:
        return pickle.loads(data)
    except Exception:  # nothing written: the child died
        signal = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        return None, "it crashed%s" % (" (signal %d)" % signal if signal else "")


def prepare(model, remark=None):
    """(model, opset) to import: `model` itself when its opset is in
    CONVERTED_RANGE, else ONNX's conversion of it where the converter can,
    else `model` natively where its nodes allow. `remark(text)` is told
    which happened."""
    opset = default_opset(model)
    lo, hi = CONVERTED_RANGE
    top = newest_opset()
    if not 1 <= opset <= top:
        raise ImportError_("opset %d is outside the supported 1 to %d" % (opset, top))
    if lo <= opset <= hi:
        return model, opset
    target = lo if opset < lo else hi
    converted, why = (None, "it knows opsets up to %d" % onnx.defs.onnx_opset_version()) \
        if opset > onnx.defs.onnx_opset_version() else _convert(model, target)
    if converted is not None:
        if remark:
            remark("opset %d converted to opset %d by onnx.version_converter" % (opset, target))
        return converted, target
    graph = model.graph
    if opset < lo:
        old = _old_definitions(graph, opset)
        if old is not None:
            node, since = old
            raise ImportError_("opset %d: onnx.version_converter cannot convert the model to opset "
                               "%d (%s), and node '%s' (%s) has the definition of opset %s, which "
                               "the importer does not read natively (it reads opsets %d to %d)"
                               % (opset, target, why, _node_name(node), node.op_type, since,
                                  MIN_OPSET, MAX_OPSET))
    else:
        if opset > MAX_OPSET:
            raise ImportError_("opset %d: onnx.version_converter cannot convert the model to opset "
                               "%d (%s), and the importer reads opsets %d to %d"
                               % (opset, target, why, MIN_OPSET, MAX_OPSET))
        for node in graph.node:
            if node.op_type in CHANGED_AFTER_18:
                raise ImportError_("node '%s' (%s): its definition of opset %d (after 18) is not "
                                   "supported, and onnx.version_converter cannot convert the model "
                                   "to opset %d (%s)" % (_node_name(node), node.op_type, opset, target, why))
    if remark:
        remark("opset %d imported natively (onnx.version_converter cannot convert it to opset %d: %s)"
               % (opset, target, why))
    return model, opset
