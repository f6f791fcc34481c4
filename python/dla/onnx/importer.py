"""ONNX graph -> TOSA module (MLIR text)."""

import numpy as np
import onnx
from onnx import numpy_helper

from . import (exporter_forms, opsets, ops_activation, ops_layout, ops_math, ops_nn, ops_quant, ops_shape, qdq_fusion,
               validate)
from .builder import Builder, ImportError_, Value, element_type, node_name, onnx_dtype
from .context import Context

OPS = {}
FAMILIES = {}  # op type -> the module that converts it
for family in (ops_nn, ops_math, ops_activation, ops_shape, ops_layout, ops_quant):
    OPS.update(family.OPS)
    FAMILIES.update((name, family.__name__.rsplit(".", 1)[-1]) for name in family.OPS)


def parse_input_shape(text):
    """'x=1x3x48x192' -> ('x', [1, 3, 48, 192])."""
    name, sep, dims = text.rpartition("=")
    if not sep or not name:
        raise ImportError_("--input-shape wants NAME=DxDx..., got '%s'" % text)
    try:
        shape = [int(d) for d in dims.split("x")]
    except ValueError:
        raise ImportError_("--input-shape '%s': dimensions must be integers" % text)
    if any(d < 0 for d in shape):
        raise ImportError_("--input-shape '%s': dimensions must not be negative" % text)
    if 0 in shape:
        raise ImportError_("--input-shape '%s': a dimension of size 0 (an empty tensor, which "
                           "TOSA cannot hold)" % text)
    return name, shape


def load_model(path, remark=None):
    """The onnx.ModelProto in file `path` (its external data loaded from
    beside it), in the form the importer reads (exporter_forms.normalize,
    `remark(text)` told what changed); ImportError_ naming the file when
    it is missing, empty or not a whole ONNX model."""
    import onnx
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ImportError_("%s: cannot read the file (%s)" % (path, e.strerror or e))
    if not data:
        raise ImportError_("%s: the file is empty, not an ONNX model" % path)
    import warnings
    try:
        # The C++ protobuf parser warns (RuntimeWarning) where it stops early
        # on bytes that are not a message (a text file): an error here.
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always", RuntimeWarning)
            model = onnx.ModelProto.FromString(data)
        if warned:
            raise ValueError(str(warned[0].message))
    except Exception as e:  # google.protobuf's DecodeError, the RuntimeWarning
        raise ImportError_("%s: not an ONNX model, or a truncated one (%s)"
                           % (path, str(e).splitlines()[0] if str(e) else type(e).__name__))
    if not model.HasField("graph") and not model.opset_import:
        raise ImportError_("%s: not an ONNX model (no graph, no opset)" % path)
    from onnx import external_data_helper
    if any(external_data_helper.uses_external_data(t)
           for t in external_data_helper._get_all_tensors(model)):
        import os
        try:
            external_data_helper.load_external_data_for_model(model, os.path.dirname(path) or ".")
        except Exception as e:  # a missing or short external file
            raise ImportError_("%s: cannot load its external data (%s)" % (path, e))
    return exporter_forms.normalize(model, remark)


def import_model(model, input_shapes=None, func_name="main", remark=None, source="model.onnx"):
    """Returns the TOSA module text of `model` (an onnx.ModelProto). A model
    outside opsets 9 to 18 is converted by onnx.version_converter first
    where it can be; `remark(text)` is told what happened. Every op's
    location names its node and `source`, the model's file. Every error is
    an ImportError_ naming the node, input or initializer: a converter
    tripping over what validate does not check yet is reported so too."""
    b = Builder(source)
    try:
        return _import(model, input_shapes, func_name, remark, b)
    except ImportError_:
        raise
    except RecursionError:
        raise ImportError_("the graph nests too deeply to import")
    except Exception as e:  # a converter's IndexError, TypeError, ... on odd input
        raise ImportError_("%s: attributes or inputs the importer does not check yet (%s: %s)"
                           % (b.node, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))


# Why an operator is refused, where there is more to say.
NOT_SUPPORTED_WHY = {
    "DynamicQuantizeLinear": " but as onnxruntime's quantize_dynamic writes it (feeding "
                             "ConvInteger / MatMulInteger, imported as the float model: "
                             "exporter_forms.py): its scale is computed at run time",
}

# Ops whose inputs have float types of their own (the others' float inputs
# share one type, ONNX's T).
MIXED_FLOAT_OPS = {"Cast", "CastLike", "Resize", "Upsample", "QuantizeLinear", "DequantizeLinear",
                   "LayerNormalization"}


# Not type-checked against their schema: the calibration table's QDQ form
# (qdq.quantize_model) quantizes float16 activations directly, which opset
# 13's QuantizeLinear does not take (--save-qdq writes Casts for it).
QDQ_OPS = {"QuantizeLinear", "DequantizeLinear"}


def _common_float_type(ctx, inputs, promoted):
    """A node whose computed float inputs mix types (an fp16 model's branch
    meeting an f32 one, an f16 activation beside a DequantizeLinear's f32)
    reads them all in the widest (a tosa.cast each), noted in `promoted`."""
    if ctx.node.op_type in MIXED_FLOAT_OPS:
        return inputs
    floats = {v.dtype for v in inputs if isinstance(v, Value) and v.dtype.kind == "f"}
    if len(floats) < 2:
        return inputs
    widest = max(floats, key=lambda d: d.itemsize)
    out = []
    for v in inputs:
        if isinstance(v, Value) and v.dtype.kind == "f" and v.dtype != widest:
            promoted.append((validate.node_label(ctx.node), v.dtype, widest, int(np.prod(v.shape))))
            v = ctx.cast(v, widest)
        out.append(v)
    return out


def _promotion_remark(promoted):
    kinds = sorted({"%s -> %s" % (element_type(a), element_type(b)) for _, a, b, _ in promoted})
    where = sorted({n for n, _, _, _ in promoted})
    return ("%d cast%s added where a node mixes float types (%s; %d elements converted per "
            "inference), at %s" % (len(promoted), "s" if len(promoted) > 1 else "", ", ".join(kinds),
                                   sum(e for _, _, _, e in promoted),
                                   ", ".join(where[:3]) + (", ..." if len(where) > 3 else "")))


def _check_declared_output(info, v, remark):
    """A graph output's declared type against the computed value `v`: a
    different element type is an error (onnxruntime refuses the model
    too); a different shape is what the function returns, with a remark
    (onnxruntime warns and keeps the computed shape: a declared shape is
    a hint shape inference may refine)."""
    if isinstance(v, ops_quant.UnsupportedTensor):
        return
    tt = info.type.tensor_type if info.type.HasField("tensor_type") else None
    if tt is None:
        return
    dtype = v.dtype if isinstance(v, Value) else np.asarray(v).dtype
    shape = list(v.shape) if isinstance(v, Value) else list(np.shape(v))
    if tt.elem_type != onnx.TensorProto.UNDEFINED:
        try:
            declared = onnx_dtype(tt.elem_type)
        except ImportError_:
            declared = None
        if declared != dtype:
            raise ImportError_("graph output '%s' is declared %s, the graph computes %s"
                               % (info.name, declared.name if declared is not None else
                                  onnx.TensorProto.DataType.Name(tt.elem_type).lower(), dtype.name))
    if not tt.HasField("shape"):
        return
    dims = ["?" if not d.HasField("dim_value") else d.dim_value for d in tt.shape.dim]
    if len(dims) != len(shape) or any(d != "?" and d != n for d, n in zip(dims, shape)):
        if remark:
            remark("graph output '%s' is declared of shape %s, the graph computes %s: the "
                   "function returns the computed shape (onnxruntime's lenient merge)"
                   % (info.name, dims, shape))


def _import(model, input_shapes, func_name, remark, b):
    input_shapes = dict(input_shapes or {})
    model = exporter_forms.normalize(model, remark, copy=True)
    for node in model.graph.node:
        validate.check_node(node, opsets.default_opset(model))
    model, opset = opsets.prepare(model, remark)
    graph = model.graph
    for node in graph.node:
        validate.check_node(node, opset)
    env = {}
    for init in graph.initializer:
        if init.data_type in ops_quant.OUT_OF_SCOPE_TYPES:
            # float8 / int4: numpy cannot hold them; the consumer names the node.
            env[init.name] = ops_quant.UnsupportedTensor(init.name, init.data_type)
            continue
        env[init.name] = validate.tensor_array(init, "initializer '%s'" % init.name)

    inputs = [i.name for i in graph.input if i.name not in env]
    unknown = sorted(n for n in input_shapes if n not in inputs)
    if unknown:
        raise ImportError_("--input-shape names no model input: %s (the model's inputs: %s)"
                           % (", ".join(unknown), ", ".join(inputs) or "none"))
    args = []
    for i, inp in enumerate(graph.input):
        if inp.name in env:
            continue
        tt = inp.type.tensor_type
        if tt.elem_type in ops_quant.OUT_OF_SCOPE_TYPES:
            env[inp.name] = ops_quant.UnsupportedTensor(inp.name, tt.elem_type)
            continue
        validate.check_input(inp)
        dtype = onnx_dtype(tt.elem_type)
        dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        if inp.name in input_shapes:
            given = input_shapes.pop(inp.name)
            if len(given) != len(dims) or any(d is not None and d != g for d, g in zip(dims, given)):
                raise ImportError_("--input-shape %s=%s does not match the model's %s"
                                   % (inp.name, "x".join(map(str, given)),
                                      ["?" if d is None else d for d in dims]))
            dims = given
        if any(d is None for d in dims):
            raise ImportError_("input '%s' has dynamic dimensions %s: fix them with --input-shape %s=%s"
                               % (inp.name, ["?" if d is None else d for d in dims], inp.name,
                                  "x".join("D" if d is None else str(d) for d in dims)))
        v = Value("%%arg%d" % len(args), dims, dtype)
        args.append(v)
        env[inp.name] = v

    fusion = qdq_fusion.Fusion(graph, {k: v for k, v in env.items() if isinstance(v, np.ndarray)}, opset)

    def get(name, node):
        """The value of tensor `name`: a fused group's result gets its ONNX
        type, a deferred DequantizeLinear is converted, when first read."""
        if name not in env:
            if name in fusion.deferred:
                convert(fusion.deferred.pop(name))
            elif name in fusion.signed:
                env[name] = fusion.materialize(Context(b, node, [], opset), name)
        return env.get(name)

    def convert(index):
        node = graph.node[index]
        with b.at(node_name(node, index)):
            convert_node(node)

    def convert_node(node):
        b.node = validate.node_label(node)
        if node.domain not in ("", "ai.onnx"):
            raise ImportError_("node '%s' (%s): operators of domain '%s' are not supported"
                               % (node.name or node.output[0], node.op_type, node.domain))
        inputs = []
        for name in node.input:
            if not name:
                inputs.append(None)
            elif get(name, node) is None:
                raise ImportError_("node '%s' (%s): input '%s' is defined by no node, graph input "
                                   "or initializer"
                                   % (node.name or node.output[0], node.op_type, name))
            else:
                inputs.append(env[name])
        ctx = Context(b, node, inputs, opset)
        inputs = ctx.inputs = _common_float_type(ctx, inputs, promoted)
        x = inputs[0] if inputs else None
        shape = lambda v: None if v is None or isinstance(v, ops_quant.UnsupportedTensor) else \
            (v.shape if isinstance(v, Value) else np.shape(v))
        validate.check_window(node, ctx.attrs, None if shape(x) is None else len(shape(x)))
        validate.check_weights(node, ctx.attrs, shape(x), shape(inputs[1]) if len(inputs) > 1 else None,
                               shape(inputs[2]) if len(inputs) > 2 else None)
        if node.op_type not in QDQ_OPS:
            validate.check_input_types(node, opset, [v.dtype if isinstance(v, Value) else None
                                                     for v in inputs])
        present = [v for v in inputs if v is not None]
        outs = None
        odd = [v for v in present if isinstance(v, ops_quant.UnsupportedTensor)]
        if odd and node.op_type not in ops_quant.OPS:
            ctx.fail("input '%s' has element type %s, which is not supported"
                     % (odd[0].name, odd[0].type_name))
        if present and not odd and all(not isinstance(v, Value) for v in present):
            outs = ops_shape.fold(node, present, ctx.attrs)
        if outs is None:
            handler = OPS.get(node.op_type)
            if handler is None:
                ctx.fail("operator %s is not supported%s"
                         % (node.op_type, NOT_SUPPORTED_WHY.get(node.op_type, "")))
            try:
                outs = handler(ctx)
            except ImportError_:
                raise
            except Exception:
                validate.explain(node, opset, [v.dtype if isinstance(v, Value) else np.asarray(v).dtype
                                               if isinstance(v, np.ndarray) else None for v in inputs])
                raise
        for name, v in zip(node.output, outs):
            if name:
                env[name] = v

    promoted = []  # (node label, from dtype, to dtype, elements) of each cast added
    deferred = set(fusion.deferred.values()) | set(fusion.owner)
    for i, node in enumerate(graph.node):
        if i in fusion.groups:
            anchor = fusion.groups[i][1]
            with b.at(node_name(graph.node[anchor], anchor)):
                if fusion.emit(b, i, lambda name: get(name, node)):
                    continue
            # Not fused after all: the group's nodes one by one (and those it
            # shares with a group written before it, a head split's moves,
            # unless converted already).
            for j in sorted(set(m for m, q in fusion.owner.items() if q == i) |
                            set(fusion.shared.get(i, ()))) + [i]:
                if j != i and j in fusion.shared.get(i, ()) and \
                        all(o in env for o in graph.node[j].output):
                    continue
                convert(j)
            continue
        if i not in deferred:
            convert(i)

    if promoted and remark:
        remark(_promotion_remark(promoted))
    if not graph.output:
        raise ImportError_("the graph has no outputs")
    results = []
    for out in graph.output:
        if get(out.name, graph.node[-1] if graph.node else None) is None:
            raise ImportError_("graph output '%s' is defined by no node" % out.name)
        v = env[out.name]
        _check_declared_output(out, v, remark)
        results.append(v if isinstance(v, Value) else b.const(np.asarray(v), "output"))
    return b.module_text(func_name, args, results)
