"""What the converters may assume: a model's tensors, inputs, nodes and
attributes checked against their ONNX definitions before anything reads
them, each error naming the initializer, input or node.

Checked here: initializers (known element type, non-negative dims, data
the size of the shape, at most MAX_ELEMENTS), graph inputs (known element
type, no zero or negative sizes), nodes against their schema at the
model's opset (required inputs present, not too many inputs or outputs,
attributes of the declared type and known to it, required attributes
present, no NaN float attribute), the run-time inputs' element types
against the schema's (check_input_types), and the window attributes of convolutions and pooling
(lengths matching the input's spatial rank, positive kernel sizes,
strides and dilations, non-negative pads no larger than MAX_PAD)."""

import numpy as np
import onnx
from onnx import numpy_helper

from .builder import ImportError_, onnx_dtype

# No tensor of the importer is larger (2^31 elements: TOSA's index range).
MAX_ELEMENTS = 2 ** 31 - 1
# A pad beyond this many rows reads nothing of the input: a corrupt model.
MAX_PAD = 2 ** 16
# Window attributes as the windowed operators have them.
WINDOW_OPS = {"Conv", "ConvTranspose", "MaxPool", "AveragePool", "LpPool", "ConvInteger", "QLinearConv"}

_ATTR_TYPE_NAMES = {v: k for k, v in onnx.AttributeProto.AttributeType.items()}


def _elements(dims):
    n = 1
    for d in dims:
        n *= int(d)
    return n


def tensor_array(t, what):
    """The numpy value of TensorProto `t` (`what` names it in errors)."""
    dims = list(t.dims)
    if any(d < 0 for d in dims):
        raise ImportError_("%s has negative dimensions %s" % (what, dims))
    if _elements(dims) > MAX_ELEMENTS:
        raise ImportError_("%s has %d elements (shape %s), more than the importer takes (%d)"
                           % (what, _elements(dims), dims, MAX_ELEMENTS))
    if t.data_type == onnx.TensorProto.STRING:
        raise ImportError_("%s is a string tensor, which is not supported" % what)
    if t.data_location == onnx.TensorProto.EXTERNAL and not t.raw_data:
        raise ImportError_("%s is stored in an external file that was not loaded" % what)
    try:
        dtype = onnx_dtype(t.data_type)
    except ImportError_ as e:
        raise ImportError_("%s: %s" % (what, e))
    except Exception:  # KeyError / ValueError of onnx's tables
        raise ImportError_("%s has the unknown element type #%d" % (what, t.data_type))
    if t.HasField("raw_data"):
        # bfloat16: 2 bytes each, widened to float32 (onnx_dtype).
        expected = _elements(dims) * (2 if t.data_type == onnx.TensorProto.BFLOAT16 else dtype.itemsize)
        if len(t.raw_data) != expected:
            raise ImportError_("%s has %d bytes of data for shape %s of %s (%d expected): "
                               "truncated or corrupt" % (what, len(t.raw_data), dims, dtype,
                                                         expected))
    try:
        return numpy_helper.to_array(t)
    except Exception as e:  # typed fields of the wrong length, ...
        raise ImportError_("%s: its data does not fit shape %s of %s (%s)"
                           % (what, dims, dtype, str(e).splitlines()[0] if str(e) else
                              type(e).__name__))


def check_input(info):
    """A graph input's element type and static sizes."""
    if not info.type.HasField("tensor_type"):
        raise ImportError_("input '%s' is not a tensor" % info.name)
    tt = info.type.tensor_type
    if tt.elem_type == onnx.TensorProto.UNDEFINED:
        raise ImportError_("input '%s' has no element type" % info.name)
    if tt.elem_type not in onnx.TensorProto.DataType.values():
        raise ImportError_("input '%s' has the unknown element type #%d" % (info.name, tt.elem_type))
    dims = [d.dim_value for d in tt.shape.dim if d.HasField("dim_value")]
    if any(d <= 0 for d in dims):
        raise ImportError_("input '%s' has a dimension of size %d (sizes are at least 1: TOSA has "
                           "no empty tensors)" % (info.name, min(dims)))
    if _elements(dims) > MAX_ELEMENTS:
        raise ImportError_("input '%s' has %d elements, more than the importer takes (%d)"
                           % (info.name, _elements(dims), MAX_ELEMENTS))


def node_label(node):
    return "node '%s' (%s)" % (node.name or (node.output[0] if node.output else "?"), node.op_type)


# The quantizer's (qdq.py) QuantizeLinear / DequantizeLinear nodes carry
# this doc string: they have opset 13's per-axis form whatever the model's
# opset (the importer reads `axis` at every opset), and are checked so.
QUANTIZER_QDQ = "dla-mlir quantizer: opset 13's QuantizeLinear / DequantizeLinear"
QUANTIZER_QDQ_OPSET = 13


def check_node(node, opset):
    """The node against its schema at `opset` (nothing when ONNX has none:
    the converter table says whether the operator is supported)."""
    fail = lambda why: _fail(node, why)
    if node.doc_string == QUANTIZER_QDQ and node.op_type in ("QuantizeLinear", "DequantizeLinear"):
        opset = max(opset, QUANTIZER_QDQ_OPSET)
    if not node.output or not any(node.output):
        fail("the node has no outputs")
    for a in node.attribute:
        if a.type == onnx.AttributeProto.UNDEFINED:
            fail("attribute '%s' has no type" % a.name)
        if a.type == onnx.AttributeProto.FLOAT and np.isnan(a.f):
            fail("attribute '%s' is NaN" % a.name)
        if a.type == onnx.AttributeProto.FLOATS and any(np.isnan(v) for v in a.floats):
            fail("attribute '%s' holds NaN" % a.name)
    if node.domain not in ("", "ai.onnx"):
        return
    try:
        schema = onnx.defs.get_schema(node.op_type, opset, "")
    except Exception:  # SchemaError: no such operator at this opset
        return
    # Beyond the newest opset onnx knows, the schema may be older than the
    # model's: its attributes still hold, not its input counts.
    known = opset <= onnx.defs.onnx_opset_version()
    inputs = list(node.input)
    while inputs and not inputs[-1]:
        inputs.pop()
    _check_inputs(node, schema, inputs, known)
    for a in node.attribute:
        declared = schema.attributes.get(a.name)
        if declared is None and known:
            # onnx.checker's "Unrecognized attribute" (onnxruntime runs the
            # same check): a misspelt attribute would be ignored silently.
            fail("'%s' is not an attribute of %s at opset %d (it has %s)"
                 % (a.name, node.op_type, opset, ", ".join(sorted(schema.attributes)) or "none"))
        if declared is not None and int(declared.type) != a.type:
            fail("attribute '%s' is %s, the operator wants %s"
                 % (a.name, _ATTR_TYPE_NAMES.get(a.type, a.type), declared.type.name))
    names = {a.name for a in node.attribute}
    for name, declared in schema.attributes.items():
        if declared.required and name not in names:
            fail("the required attribute '%s' is missing" % name)


# Required inputs ONNX lets a model leave empty (Resize-11: scales or sizes).
_MAY_BE_EMPTY = {"Resize": {"roi", "scales"}}


def _check_inputs(node, schema, inputs, known):
    fail = lambda why: _fail(node, why)
    if known and len(inputs) > schema.max_input:
        fail("%d inputs, the operator takes at most %d" % (len(inputs), schema.max_input))
    single = onnx.defs.OpSchema.FormalParameterOption.Single
    for i, formal in enumerate(schema.inputs):
        if formal.option != single:
            continue
        if i >= len(inputs):
            fail("the required input %d (%s) is missing" % (i, formal.name))
        if not inputs[i] and formal.name not in _MAY_BE_EMPTY.get(node.op_type, ()):
            fail("the required input %d (%s) is empty" % (i, formal.name))
    if len(inputs) < schema.min_input:
        fail("%d inputs, the operator takes at least %d" % (len(inputs), schema.min_input))
    if known and len(node.output) > schema.max_output:
        fail("%d outputs, the operator has at most %d" % (len(node.output), schema.max_output))


_TENSOR_TYPES = {"float32": "float", "float64": "double", "bool": "bool"}


def check_input_types(node, opset, dtypes):
    """The node's run-time inputs (`dtypes`: numpy dtypes, None where the
    input is a constant, absent or of a type numpy has not) against the
    types its schema allows at `opset` (onnx.checker's type check; an
    int64 MaxPool input, which no converter should see)."""
    if node.domain not in ("", "ai.onnx") or opset > onnx.defs.onnx_opset_version():
        return
    try:
        schema = onnx.defs.get_schema(node.op_type, opset, "")
    except Exception:  # SchemaError: the converter table decides
        return
    _check_types(node, schema, dtypes)


def _check_types(node, schema, dtypes):
    allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    formals = list(schema.inputs)
    for i, dtype in enumerate(dtypes):
        if dtype is None or not formals:
            continue
        formal = formals[min(i, len(formals) - 1)]
        types = allowed.get(formal.typeStr)
        name = "tensor(%s)" % _TENSOR_TYPES.get(dtype.name, dtype.name)
        if types and name not in types:
            _fail(node, "input %d (%s) is %s; the operator takes %s"
                  % (i, formal.name, name, ", ".join(sorted(types))))


def explain(node, opset, dtypes):
    """Why a converter failed on a node check_node passed, when the node
    breaks its definition in a way the converters take for granted (and
    not every model honours, so it is not checked up front): attributes
    the operator does not have, inputs of types it does not take
    (`dtypes`: numpy dtypes, None where unknown)."""
    if node.domain not in ("", "ai.onnx") or opset > onnx.defs.onnx_opset_version():
        return
    try:
        schema = onnx.defs.get_schema(node.op_type, opset, "")
    except Exception:  # SchemaError
        return
    for a in node.attribute:
        if a.name not in schema.attributes:
            _fail(node, "'%s' is not an attribute of %s at opset %d" % (a.name, node.op_type, opset))
    _check_types(node, schema, dtypes)


def check_window(node, attrs, x_rank):
    """kernel_shape, strides, dilations, pads and group of a windowed node
    whose data input has rank `x_rank` (None: unknown)."""
    if node.op_type not in WINDOW_OPS:
        return
    fail = lambda why: _fail(node, why)
    spatial = None if x_rank is None else x_rank - 2
    if spatial is not None and spatial < 1:
        fail("its input has rank %d; a window needs a batch, a channel and spatial axes" % x_rank)
    keys = ["kernel_shape", "strides", "dilations", "pads"]
    if node.op_type == "ConvTranspose":
        keys += ["output_padding", "output_shape"]
    for key in keys:
        if key not in attrs:
            continue
        if not isinstance(attrs[key], (list, tuple)) or \
                not all(isinstance(v, (int, np.integer)) for v in attrs[key]):
            fail("attribute '%s' is not a list of integers" % key)
        values = [int(v) for v in attrs[key]]
        n = 2 * spatial if key == "pads" and spatial is not None else spatial
        if n is not None and len(values) != n:
            fail("%s has %d values for a %d-D window (%d expected)" % (key, len(values), spatial, n))
        if key in ("kernel_shape", "strides", "dilations") and any(v < 1 for v in values):
            fail("%s %s: every value must be at least 1" % (key, values))
        if key in ("pads", "output_padding") and any(v < 0 for v in values):
            fail("%s %s: negative values" % (key, values))
        if any(abs(v) > MAX_PAD for v in values) and key != "output_shape":
            fail("%s %s: values beyond %d" % (key, values, MAX_PAD))
    group = attrs.get("group", 1) if node.op_type in ("Conv", "ConvTranspose") else 1
    if not isinstance(group, (int, np.integer)) or group < 1:
        fail("group %s: must be an integer, at least 1" % (group,))


def check_weights(node, attrs, x_shape, w_shape, b_shape=None):
    """kernel_shape against the weights, group against the channels, the
    bias against the output channels."""
    if node.op_type not in ("Conv", "ConvTranspose") or w_shape is None or x_shape is None:
        return
    fail = lambda why: _fail(node, why)
    if len(w_shape) != len(x_shape) or len(x_shape) < 3:
        return  # the converters say which ranks they take
    kernel = attrs.get("kernel_shape")
    if kernel is not None and [int(k) for k in kernel] != list(w_shape[2:]):
        fail("kernel_shape %s contradicts the weights' shape %s"
             % ([int(k) for k in kernel], list(w_shape)))
    if any(d < 1 for d in w_shape):
        fail("weights of shape %s" % list(w_shape))
    group = int(attrs.get("group", 1))
    channels = x_shape[1]
    if node.op_type == "Conv":
        if channels % group or w_shape[0] % group or w_shape[1] * group != channels:
            fail("weights %s do not fit %d input channels in %d groups"
                 % (list(w_shape), channels, group))
    elif w_shape[0] != channels or channels % group:
        fail("weights %s do not fit %d input channels in %d groups" % (list(w_shape), channels, group))
    outputs = w_shape[0] if node.op_type == "Conv" else w_shape[1] * group
    if b_shape is not None and list(b_shape) != [outputs]:
        fail("a bias of shape %s for %d output channels" % (list(b_shape), outputs))


def _fail(node, why):
    raise ImportError_("%s: %s" % (node_label(node), why))
