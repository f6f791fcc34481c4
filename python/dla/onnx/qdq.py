"""A float model and a calibration table -> onnxruntime's QDQ form.

Layout and arithmetic follow onnxruntime's static quantizer (QDQ format,
int8 symmetric activations and weights), so that the importer's QDQ path
(ops_quant) and the integer fusions see the form they are written for:
  - every float activation read or written by a quantized node (what the
    integer form computes and squeeze-excite gates: quantized_node) gets one
    QuantizeLinear -> DequantizeLinear pair (scale from the table, zero
    point int8 0, or the table's "offset": dla-calibrate --asymmetric),
    and every reader of the tensor reads the DQ output; a graph output
    keeps its name on the DQ output; a tensor with channel scales
    (dla-calibrate --per-channel) is first rescaled per channel around
    the Convs that write or read it (channel_scales.py), its Q / DQ
    staying per tensor;
  - a fully connected layer (MatMul by a 2-D weight, then the Add of a
    per-column constant; Gemm) reads a flatten of a quantized tensor to
    [n, K] (flattened_input) at that tensor's quantization (no Q / DQ of
    its own: the importer's FC reads the map as it stands, qdq_fusion);
    the MatMul's product is not quantized, the Add's output is. A MatMul
    of an activation by a 2-D weight (token_input: a transformer's
    [n, T, K] tokens) is quantized the same way, its input with its own
    Q / DQ; a product of two activations (attention's q k^T, p v) has
    its operands at zero point 0 and its product quantized
    (qdq_attention.py);
  - a Sigmoid / Tanh reading Mul(x, c) (a swish's sigmoid(c x)) is
    quantized at x (scaled_function_input), the Mul not;
  - Reshape / Transpose / Squeeze / Unsqueeze taking a quantized tensor
    to one a quantized node reads keep its quantization
    (carried_layouts: a map <-> tokens move commutes with it);
  - Conv / Gemm / MatMul weights: int8 initializers, per output channel
    (scale = max|w_c| / 127, rint = round half to even, in float32 as
    numpy does for onnxruntime) under DequantizeLinear(axis);
    --per-tensor-weights: one scale. Other constant operands: per tensor;
    no weight scale below scale_floor's (near-zero channels: their bias
    must fit int32 and their requantization factor a rescale);
  - Conv / Gemm biases and a MatMul's bias Add: int32 = rint(b / (x_scale
    * w_scale)), zero point 0.
Nodes names: onnxruntime's (x_QuantizeLinear, x_DequantizeLinear_Output,
w_quantized, x_scale, ...). The model's opset is kept: below 13, the
DequantizeLinear nodes still carry opset 13's axis, which the importer
reads; their doc string (validate.QUANTIZER_QDQ) has them checked as
opset 13's (onnxruntime needs the model raised: qdq_opset.py).
"""

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from .calibration_table import check_names
from .validate import QUANTIZER_QDQ
from . import channel_scales as channel_scales_mod
from . import qdq_attention

# Quantizable operators -> indices of the inputs quantized (None: all).
# Which of their nodes are quantized: quantized_node (a MatMul: an FC,
# flattened_input).
QUANT_INPUTS = {
    "Conv": (0, 1), "Gemm": (0, 1), "MatMul": (0, 1), "Add": (0, 1), "Mul": (0, 1),
    "Relu": (0,), "Clip": (0,),
    "HardSigmoid": (0,), "Sigmoid": (0,), "Tanh": (0,),
    "MaxPool": (0,), "AveragePool": (0,), "GlobalAveragePool": (0,), "GlobalMaxPool": (0,),
}
GATES = ("HardSigmoid", "Sigmoid")
BIAS_INPUT = {"Conv": 2, "Gemm": 2}
WEIGHTED = ("Conv", "Gemm", "MatMul")  # input 1 a weight, per output channel
FLATTENS = ("Reshape", "Flatten", "Squeeze")
# Data movement that keeps a quantized tensor's quantization when a
# quantized node reads its result (carried_layouts): a transformer's
# tokens [n, T, C] are a feature map [n, C, 1, T] reshaped and transposed.
LAYOUTS = ("Reshape", "Transpose", "Squeeze", "Unsqueeze")
FLOAT_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE}


def fold_constants(model):
    """Constant nodes holding a tensor become initializers (weights are
    then initializers wherever they came from)."""
    g = model.graph
    keep = []
    for node in g.node:
        attrs = {a.name: a for a in node.attribute}
        if node.op_type == "Constant" and "value" in attrs and node.domain in ("", "ai.onnx"):
            t = onnx.TensorProto()
            t.CopyFrom(attrs["value"].t)
            t.name = node.output[0]
            g.initializer.append(t)
        else:
            keep.append(node)
    del g.node[:]
    g.node.extend(keep)


def static_tensors(graph):
    """Names whose values do not depend on a graph input."""
    static = {i.name for i in graph.initializer}
    for node in graph.node:
        if all(not n or n in static for n in node.input) and node.input:
            static.update(node.output)
    return static


def activation_types(model):
    """{tensor name: ONNX element type} where shape inference knows it."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # inference is a help here, not a requirement
        inferred = model
    g = inferred.graph
    return {v.name: v.type.tensor_type.elem_type for v in list(g.value_info) + list(g.input)
            + list(g.output) if v.type.tensor_type.elem_type}


def quantized_node(node, producer, static):
    """Whether `node` (its inputs and output) is quantized: what the integer
    form computes (qdq_fusion: a convolution, the Relu / Clip fused after
    one, the add of two feature maps, pooling) and a squeeze-excite gate (a
    HardSigmoid / Sigmoid and the Mul of a feature map by it). Other
    element-wise steps are not quantized each (qdq_affine.py and
    qdq_hardswish.py fuse them between the quantized tensors around
    them): a requantization of each
    step of a decomposed hardswish (x + 3, Clip, x * that, / 6) or of a
    learnable affine (x * a + b) only adds error (PP-OCRv4's recognizer,
    float fake-quantization over 64 lines: 88.8% of the steps agree with
    every step requantized, 94.4% so), and a QuantizeLinear less is ~28
    TOSA ops less to compile. The gate requantized, the classifier's
    cosine on cls-nv-small.test's 4 lines stays above 0.99 (float
    fake-quantization: 0.9996, 0.9868 without it; compiled: 0.9916)."""
    op = lambda name: producer[name].op_type if name in producer else None
    t = node.op_type
    if t in ("Relu", "Clip"):
        if t == "Relu" and op(node.input[0]) == "Add":
            # After the add of two feature maps (a residual): fused into it.
            return not any(n in static for n in producer[node.input[0]].input)
        return op(node.input[0]) == "Conv"
    if t == "Add":
        return not any(n in static for n in node.input)
    if t == "Mul":
        return not any(n in static for n in node.input) and any(op(n) in GATES for n in node.input)
    return True


def gate_tensors(graph):
    """Outputs of a gate (GATES) that a Mul reads: a squeeze-excitation's
    per-channel multiplier. The SDP's X stages read a memory operand
    without an offset (QuantizedProducts.cpp), so these are quantized at
    zero point 0 whatever the table's offset: an asymmetric table's
    [0, top] over 256 levels becomes [0, top] over 128."""
    out = set()
    readers = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    for node in graph.node:
        if node.op_type in GATES and node.domain in ("", "ai.onnx") and \
                any(r.op_type == "Mul" for r in readers.get(node.output[0], [])):
            out.add(node.output[0])
    return out


def fc_weight(node, inits):
    """Whether MatMul `node` multiplies an activation by a 2-D float
    initializer (a fully connected layer's weight)."""
    w = inits.get(node.input[1]) if len(node.input) > 1 else None
    return w is not None and len(w.dims) == 2 and w.data_type in FLOAT_TYPES


def matmul_bias(node, readers, inits):
    """(the Add, the index of its constant) when the product of MatMul
    `node` is read by one Add alone whose other operand is one float
    constant per column (the layer's bias), else None."""
    r = readers.get(node.output[0], [])
    w = inits.get(node.input[1])
    if len(r) != 1 or r[0].op_type != "Add" or r[0].domain not in ("", "ai.onnx") or w is None:
        return None
    for i, name in enumerate(r[0].input):
        b = inits.get(name)
        if name != node.output[0] and b is not None and b.data_type in FLOAT_TYPES \
                and list(b.dims)[-1:] == [w.dims[-1]] and int(np.prod(b.dims)) == w.dims[-1]:
            return r[0], i
    return None


def flattened_input(node, producer, quantized, inits):
    """The quantized tensor (in `quantized`) a MatMul / Gemm `node` reads
    flattened to [n, K], else None: a Flatten (axis 1) of it, a Reshape
    or Squeeze of a global pool's nxKx1x1 result, or a Reshape to a
    2-element constant shape. The fully connected layer then reads it at its
    quantization (qdq_fusion's FC reads the map as it stands)."""
    p = producer.get(node.input[0]) if node.op_type in ("MatMul", "Gemm") else None
    if p is None or p.op_type not in FLATTENS or p.domain not in ("", "ai.onnx") \
            or p.input[0] not in quantized:
        return None
    if p.op_type == "Flatten":
        ok = all(a.i == 1 for a in p.attribute if a.name == "axis")
    else:
        src = producer.get(p.input[0])
        shape = inits.get(p.input[1]) if len(p.input) > 1 else None
        ok = (src is not None and src.op_type in ("GlobalAveragePool", "GlobalMaxPool")) \
            or (p.op_type == "Reshape" and shape is not None and list(shape.dims) == [2])
    return p.input[0] if ok else None


def token_input(node, producer, static, inits):
    """Whether MatMul `node` is a fully connected layer over tokens: an
    activation (not a flatten: flattened_input's) times a 2-D weight, each
    of its rows ([n, T, K]: a transformer's tokens) a pixel of a 1x1
    convolution (qdq_fusion's FC over the tokens' feature map)."""
    return node.op_type == "MatMul" and fc_weight(node, inits) and node.input[0] not in static


def scaled_function_input(node, producer, readers, static):
    """For a Sigmoid / Tanh reading Mul(x, c) alone (c one constant: an
    exporter's swish x * sigmoid(beta x), beta often 1.0): x, the
    function's quantized input (the table is of f(c x), qdq_table);
    else None."""
    p = producer.get(node.input[0]) if node.op_type in GATES + ("Tanh",) else None
    if p is None or p.op_type != "Mul" or p.domain not in ("", "ai.onnx") \
            or len(readers.get(node.input[0], [])) != 1:
        return None
    consts = [n for n in p.input if n in static]
    acts = [n for n in p.input if n not in static]
    return acts[0] if len(consts) == 1 and len(acts) == 1 else None


def carried_layouts(graph, acts, chosen, static):
    """{output: the quantized tensor whose quantization it keeps} of the
    data movement nodes (LAYOUTS) that take a quantized tensor to one a
    quantized node reads (directly or through more of them): their
    results keep their input's quantization (a permutation or reshape of
    values commutes with quantization: exact), so that qdq_fusion moves
    the int8 tensor rather than the host dequantizing, moving and
    quantizing again (the recognizer's feature map <-> tokens)."""
    nodes = list(graph.node)
    outputs = {o.name for o in graph.output}
    wanted = set(acts)
    for node in reversed(nodes):
        if node.op_type in LAYOUTS and node.domain in ("", "ai.onnx") \
                and node.output[0] in wanted and node.input[0] not in static:
            wanted.add(node.input[0])
    root, have = {}, set(acts)
    for k, node in enumerate(nodes):
        if node.op_type not in LAYOUTS or node.domain not in ("", "ai.onnx") \
                or node.output[0] not in wanted or node.output[0] in outputs \
                or node.input[0] in static or node.input[0] not in have:
            continue
        src = node.input[0]
        root[node.output[0]] = root.get(src, src)
        have.add(node.output[0])
        chosen.add(k)
    return root


def _axes(node, inits):
    """A ReduceMean's axes (attribute or, from opset 18, input), or None."""
    for a in node.attribute:
        if a.name == "axes":
            return list(a.ints)
    if len(node.input) > 1 and node.input[1] in inits:
        return [int(v) for v in numpy_helper.to_array(inits[node.input[1]]).reshape(-1)]
    return None


def layer_norm(node, producer, readers, inits):
    """The LayerNormalization over the last axis that ReduceMean `node`
    begins, as exporters spell it out (ReduceMean, Sub, Pow 2, ReduceMean,
    Add eps, Sqrt, Div, Mul gamma, Add beta): a dict of its tensors x,
    var (var + eps), n ((x - mean) / sqrt), y and `nodes` (the nine), else
    None. qdq_layernorm.py is its integer program."""
    def only(name, op):
        r = readers.get(name, [])
        return r[0] if len(r) == 1 and r[0].op_type == op and r[0].domain in ("", "ai.onnx") else None

    def const_other(n, name):
        other = [i for i in n.input if i != name]
        return other[0] if len(other) == 1 and other[0] in inits else None

    if node.op_type != "ReduceMean" or _axes(node, inits) != [-1] or \
            any(a.name == "keepdims" and a.i == 0 for a in node.attribute):
        return None
    x = node.input[0]
    sub = only(node.output[0], "Sub")
    if sub is None or list(sub.input) != [x, node.output[0]]:
        return None
    r = {n.op_type: n for n in readers.get(sub.output[0], [])}
    if len(readers.get(sub.output[0], [])) != 2 or set(r) != {"Pow", "Div"}:
        return None
    pow_, div = r["Pow"], r["Div"]
    e = const_other(pow_, sub.output[0])
    if e is None or float(numpy_helper.to_array(inits[e]).reshape(-1)[0]) != 2.0 or div.input[0] != sub.output[0]:
        return None
    mean2 = only(pow_.output[0], "ReduceMean")
    if mean2 is None or _axes(mean2, inits) != [-1]:
        return None
    add = only(mean2.output[0], "Add")
    sqrt = only(add.output[0], "Sqrt") if add is not None and const_other(add, mean2.output[0]) else None
    if sqrt is None or div.input[1] != sqrt.output[0] or only(sqrt.output[0], "Div") is not div:
        return None
    mul = only(div.output[0], "Mul")
    beta = only(mul.output[0], "Add") if mul is not None and const_other(mul, div.output[0]) else None
    if beta is None or not const_other(beta, mul.output[0]):
        return None
    return {"x": x, "d": sub.output[0], "var": add.output[0], "n": div.output[0], "y": beta.output[0],
            "nodes": [node, sub, pow_, mean2, add, sqrt, div, mul, beta]}


def symmetric_tensors(graph):
    """Activations quantized at zero point 0 over the table's range (the
    larger of its ends at 127 levels), whatever the table's offset: a
    LayerNorm's x - mean, which its program multiplies by itself and by
    rsqrt on the SDP (a memory operand is read without an offset)."""
    inits = {i.name: i for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    readers = {}
    for n in graph.node:
        for name in n.input:
            readers.setdefault(name, []).append(n)
    out, static = set(), static_tensors(graph)
    for n in graph.node:
        ln = layer_norm(n, producer, readers, inits) if n.op_type == "ReduceMean" else None
        if ln:
            out.add(ln["d"])
        if qdq_attention.activation_product(n, static, inits):
            out.update(n.input)  # a run-time weight and its input (qdq_attention)
    return out


def quantized_nodes(model):
    """(indices of the quantized nodes, activations to quantize in graph
    order, all tensor names)."""
    g = model.graph
    static = static_tensors(g)
    types = activation_types(model)
    isfloat = lambda n: types.get(n, TensorProto.FLOAT) in FLOAT_TYPES
    chosen, acts, known = set(), [], {i.name for i in g.input} | {i.name for i in g.initializer}
    inits = {i.name: i for i in g.initializer}
    readers = {}
    for node in g.node:
        for n in node.input:
            readers.setdefault(n, []).append(node)
    producer, bias_adds = {}, set()  # bias_adds: names of the FC bias Adds' outputs
    producer_all = {o: n for n in g.node for o in n.output}
    for k, node in enumerate(g.node):
        known.update(node.output)
        producer.update((o, node) for o in node.output)
        if node.output[0] in bias_adds:
            chosen.add(k)
            if isfloat(node.output[0]) and node.output[0] not in acts:
                acts.append(node.output[0])
            continue
        ln = layer_norm(node, producer_all, readers, inits) if node.op_type == "ReduceMean" else None
        if ln and ln["x"] not in static and isfloat(ln["y"]):
            # The LayerNormalization's input, x - mean (at zero point 0:
            # symmetric_tensors), var + eps, the normalized values and its output:
            # its integer program's (qdq_layernorm).
            chosen.add(k)
            for name in (ln["x"], ln["d"], ln["var"], ln["n"], ln["y"]):
                if name not in acts:
                    acts.append(name)
            continue
        if node.op_type not in QUANT_INPUTS or node.domain not in ("", "ai.onnx") \
                or not isfloat(node.output[0]) or all(n in static for n in node.input if n) \
                or not quantized_node(node, producer, static) \
                or (node.op_type == "MatMul" and not (fc_weight(node, inits) and
                                                      flattened_input(node, producer, acts, inits))
                    and not token_input(node, producer, static, inits)
                    and not qdq_attention.activation_product(node, static, inits)):
            continue
        chosen.add(k)
        idx = QUANT_INPUTS[node.op_type] or range(len(node.input))
        names = [node.input[i] for i in idx if i < len(node.input)]
        if flattened_input(node, producer, acts, inits):
            names = names[1:]
        scaled = scaled_function_input(node, producer, readers, static)
        if scaled:
            names = [scaled]
        bias = matmul_bias(node, readers, inits) if node.op_type == "MatMul" else None
        if bias:
            bias_adds.add(bias[0].output[0])
        for name in names + ([] if bias else [node.output[0]]):
            if name and name not in static and isfloat(name) and name not in acts:
                acts.append(name)
    # A Conv's or a residual Add's output read by one Relu alone is not
    # quantized: the Relu runs in the layer's SDP (qdq_fusion: Conv / Add ->
    # Relu -> Q, one requantization), as TensorRT and onnxruntime's
    # quantizer fuse them. Quantized between them, the Relu is an SDP pass
    # of its own over the whole map (ResNet-50 on the spreadsheet's
    # configuration: 1.8 of 9.3 ms; docs/PerformanceModel.md, "Decisions").
    # Not after a global pool (a squeeze-excitation's 1x1 map): there the
    # pass costs ~100 cycles, and fused the classifier's mean cosine fell
    # from 0.9985 to 0.9874 (bench/int8_accuracy.py; not understood yet).
    pooled = ("GlobalAveragePool", "GlobalMaxPool", "ReduceMean")
    fused, index = set(), {id(n): k for k, n in enumerate(g.node)}
    for k in chosen:
        node = g.node[k]
        p = producer.get(node.input[0]) if len(node.input) else None
        if node.op_type == "Relu" and p is not None and p.op_type in ("Conv", "Add") \
                and not (p.op_type == "Conv" and p.input[0] in producer
                         and producer[p.input[0]].op_type in pooled) \
                and index[id(producer[node.input[0]])] in chosen \
                and len(readers.get(node.input[0], [])) == 1 \
                and node.input[0] not in {o.name for o in g.output}:
            fused.add(node.input[0])
    acts = [a for a in acts if a not in fused]
    # A quantized Concat's float parts quantized at their own scales (as
    # onnxruntime's quantizer quantizes a Concat's inputs): a part no
    # quantized node reads, e.g. Conv -> BatchNormalization -> Relu when
    # the exporter did not fold the batch-norm, is then the affine program
    # between quantize steps on the SDP (qdq_affine) rather than float on
    # the host with QuantizeLinear's arithmetic at the join. A resized part
    # keeps its input's quantization (_copied_quantized): its input is
    # quantized instead. Layouts keep theirs by carried_layouts' rule.
    for node in g.node:
        if node.op_type != "Concat" or node.domain not in ("", "ai.onnx") or \
                node.output[0] not in acts:
            continue
        for name in node.input:
            p = producer_all.get(name)
            while p is not None and p.op_type in ("Resize", "Upsample") and \
                    p.domain in ("", "ai.onnx") and name not in acts:
                name, p = p.input[0], producer_all.get(p.input[0])
            if name and name not in static and isfloat(name) and name not in acts and \
                    p is not None and p.op_type not in LAYOUTS:
                acts.append(name)
    carried = carried_layouts(g, acts, chosen, static)
    acts += [a for a in carried if a not in acts]
    return chosen, acts, known





def _safe_scale(s):
    """onnxruntime's rule for a zero range: scale 1."""
    s = np.asarray(s, dtype=np.float32)
    return np.where(s < np.finfo(np.float32).tiny, np.float32(1), s).astype(np.float32)


def quantize_weight(w, axis, floor=None):
    """(int8 values, float32 scale) of symmetric int8, per `axis` (None: per
    tensor), as onnxruntime's quantize_data: scale = max|w| / 127 and
    rint(w / scale) in float32; no scale below `floor` (per channel, see
    scale_floor)."""
    w = np.asarray(w, dtype=np.float32)
    if axis is None:
        scale = _safe_scale(np.max(np.abs(w)) / np.float32(127) if w.size else 0)
        if floor is not None:
            scale = np.maximum(scale, np.max(floor)).astype(np.float32)
        q = np.rint(w / scale)
    else:
        moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
        scale = _safe_scale(np.max(np.abs(moved), axis=1) / np.float32(127))
        if floor is not None:
            scale = np.maximum(scale, floor).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.rint(w / scale.reshape(shape))
    return np.clip(q, -127, 127).astype(np.int8), scale


# The least requantization factor x_scale * w_scale / y_scale kept: the
# integer form's rescale (a 31-bit multiplier, shifts up to 62) and the
# SDP's cannot represent less than 2^-32, and a fused convolution is then
# refused (it stays on the host in float).
MIN_FACTOR = 2.0 ** -31


def scale_floor(bias, x_scale, y_scale, channels):
    """Per-channel least weight scales of a Conv / Gemm whose input has
    x_scale and output y_scale (None: unknown). A channel of near-zero
    weights (PP-OCRv4's recognizer: max|w| of 1e-15 beside a bias of
    0.05) otherwise gets a scale so small that its bias overflows int32
    (onnxruntime's quantizer raises the scale for that reason too) and its
    factor x_scale * w_scale / y_scale falls below what a rescale
    represents. At the floor such weights round to a few levels or none:
    their whole contribution is below 127 * 127 * K * MIN_FACTOR output
    levels (K products per output), well under one for any real kernel."""
    floor = np.zeros(channels, np.float64)
    x = float(_safe_scale(x_scale))
    if bias is not None:
        # rint(b / (x * w)) within int32 (a margin for float32 rounding).
        floor = np.maximum(floor, np.abs(np.asarray(bias, np.float64)).reshape(-1)[:channels]
                           * 1.0001 / (x * (2 ** 31 - 1)))
    if y_scale is not None:
        floor = np.maximum(floor, MIN_FACTOR * float(_safe_scale(y_scale)) / x)
    return floor.astype(np.float32)


def quantize_bias(b, x_scale, w_scale):
    """(int32 values, float32 scale): rint(b / (x_scale * w_scale))."""
    scale = (np.float32(x_scale) * np.asarray(w_scale, dtype=np.float32)).astype(np.float32)
    scale = _safe_scale(scale)
    q = np.rint(np.asarray(b, dtype=np.float32) / scale)
    return np.clip(q, -2 ** 31, 2 ** 31 - 1).astype(np.int32), scale


def weight_axis(node):
    """Output-channel axis of a Conv / Gemm / MatMul weight."""
    if node.op_type == "MatMul":
        return 1
    if node.op_type == "Gemm":
        return 0 if any(a.name == "transB" and a.i for a in node.attribute) else 1
    return 0


# The largest channel factor r_c = S / s_c used: a channel 256 times
# narrower than the tensor's widest gets 256 times its levels, not more.
# Near-dead channels (PP-OCRv4's recognizer: ranges of 1e-25 beside 3)
# would otherwise scale by ~1e25 (their kernels, read through a depthwise
# convolution, divided by as much).
MAX_CHANNEL_FACTOR = 256.0


def _copied_quantized(node, dq_of, outputs):
    """The quantized activation whose quantization a Resize / Upsample
    `node`'s output keeps (its input, quantized by an earlier node), else
    None. A nearest resize copies values; a linear one takes convex
    combinations of them (weights in [0, 1] summing to 1, every coordinate
    mode but tf_crop_and_resize's extrapolation), so its output stays in
    its input's range and the input's scale holds it, as onnxruntime's
    quantizer treats Resize. Quantized, a bilinear resize feeding a Concat
    is an int8 layer (qdq_fusion) rather than float on the host."""
    if node.op_type not in ("Resize", "Upsample") or node.domain not in ("", "ai.onnx"):
        return None
    attrs = {a.name: a.s for a in node.attribute if a.type == onnx.AttributeProto.STRING}
    mode = attrs.get("mode", b"nearest")
    if mode == b"linear" and attrs.get("coordinate_transformation_mode") == b"tf_crop_and_resize":
        return None
    if mode not in (b"nearest", b"linear") or not node.input or node.input[0] not in dq_of or \
            node.output[0] in outputs or node.output[0] in dq_of:
        return None
    return node.input[0]


def quantize_model(model, table, table_path="table", per_channel=True, zero_points=None,
                   channel_scales=None):
    """A copy of `model` in QDQ form with the scales of `table`
    ({tensor: scale}) and the int8 zero points of `zero_points` ({tensor:
    zero point}, default the table's own: calibration_table.Table; others
    0); missing or extra names are an ImportError_. `channel_scales`
    ({tensor: C scales}, default the table's own) quantizes those tensors
    per channel where channel_scales.qualifying allows (the others keep
    the table's scale, which covers every channel), realized by
    channel_scales.apply."""
    zero_points = getattr(table, "zero_points", {}) if zero_points is None else zero_points
    channel = getattr(table, "channel_scales", {}) if channel_scales is None else channel_scales
    m = onnx.ModelProto()
    m.CopyFrom(model)
    fold_constants(m)
    g = m.graph
    chosen, acts, known = quantized_nodes(m)
    if channel:
        check_names(table_path, table, acts, known)
        factors, axes = {}, getattr(table, "channel_axes", {})
        for name in channel_scales_mod.qualifying(m, chosen, [n for n in acts if n in channel], axes):
            s = np.asarray(channel[name], np.float64).reshape(-1)
            big = float(table[name])
            if s.size > 1 and big > 0:
                factors[name] = np.minimum(big / np.where(s > 0, s, big), MAX_CHANNEL_FACTOR)
        static, inits0 = static_tensors(g), {i.name for i in g.initializer}
        for node in g.node:
            if qdq_attention.activation_product(node, static, inits0):
                qdq_attention.check_operands(node, factors)
        channel_scales_mod.apply(m, chosen, factors, axes)
        chosen, acts, known = quantized_nodes(m)
    check_names(table_path, table, acts, known)
    roots = carried_layouts(g, acts, set(chosen), static_tensors(g))
    inits = {i.name: i for i in g.initializer}
    outputs = {o.name for o in g.output}
    new_inits, nodes, dq_of, weights_done = [], [], {}, {}
    like_of = {}  # activation -> the tensor whose table scale its Q / DQ use
    symmetric = symmetric_tensors(g)
    producer = {o: n for n in g.node for o in n.output}
    readers = {}
    for n in g.node:
        for name in n.input:
            readers.setdefault(name, []).append(n)
    pending = {}  # an FC bias Add's output -> (its bias input, x, the weight's scales)
    # Before inputs are renamed: a MatMul's bias Add (matmul_bias).
    fc_bias = {n.output[0]: matmul_bias(n, readers, inits) for n in g.node if n.op_type == "MatMul"}

    def init(name, array):
        new_inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def dq(name, values, scale, zp, axis=None):
        out = name + "_DequantizeLinear_Output"
        q = init(name + "_quantized", values)
        attrs = {"axis": axis} if axis is not None and np.ndim(scale) else {}
        nodes.append(helper.make_node("DequantizeLinear", [q, init(name + "_quantized_scale", scale),
                                                           init(name + "_quantized_zero_point", zp)],
                                      [out], name + "_DequantizeLinear", QUANTIZER_QDQ,
                                      **attrs))
        return out

    gates = gate_tensors(g)

    def qdq(name, src, like=None):
        """Q -> DQ of activation `name` (read from `src`) at its table
        scale and zero point, or at those of `like`; a gate at zero point
        0 (gate_tensors)."""
        like = like or name
        like_of[name] = like
        scale, zp = _safe_scale(table[like]), int(zero_points.get(like, 0))
        if name in gates and zp != 0:
            scale, zp = _safe_scale(np.float32(scale * (127 - zp) / 127)), 0
        if (like in symmetric or name in symmetric) and zp:
            scale, zp = _safe_scale(np.float32(max(127 - zp, zp + 128) * float(scale) / 127)), 0
        s = init(name + "_scale", scale)
        z = init(name + "_zero_point", np.int8(zp))
        q_out = name + "_QuantizeLinear_Output"
        dq_out = name if name in outputs else name + "_DequantizeLinear_Output"
        nodes.append(helper.make_node("QuantizeLinear", [src, s, z], [q_out], name + "_QuantizeLinear",
                                      QUANTIZER_QDQ))
        nodes.append(helper.make_node("DequantizeLinear", [q_out, s, z], [dq_out],
                                      name + "_DequantizeLinear", QUANTIZER_QDQ))
        dq_of[name] = dq_out

    def x_of(node):
        """The quantized activation `node` reads: its DQ directly, or (a
        MatMul / Gemm) through a Reshape / Flatten of it; else None."""
        src = node.input[0]
        p = producer.get(src)
        if src not in dq_of.values() and p is not None and p.op_type in FLATTENS \
                and node.op_type in ("MatMul", "Gemm"):
            src = p.input[0]
        x = [k for k, v in dq_of.items() if v == src]
        return x[0] if x else None

    def bias_of(node):
        """(node holding the bias of Conv / Gemm / MatMul `node`, input
        index) (a MatMul's: the Add after it), or None."""
        if node.op_type == "MatMul":
            return fc_bias.get(node.output[0])
        b = BIAS_INPUT[node.op_type]
        return (node, b) if len(node.input) > b and node.input[b] else None

    def bias_array(node):
        hb = bias_of(node)
        name = hb[0].input[hb[1]] if hb else None
        return numpy_helper.to_array(inits[name]).reshape(-1) if name in inits else None

    def output_of(node):
        """The quantized output of `node` (a MatMul's: its bias Add's)."""
        hb = bias_of(node) if node.op_type == "MatMul" else None
        return hb[0].output[0] if hb else node.output[0]

    def floor_of(node, w):
        """scale_floor of the weight of Conv / Gemm / MatMul `node` (None:
        its input is not quantized)."""
        x = x_of(node)
        if x is None:
            return None
        bias = bias_array(node)
        axis = weight_axis(node)
        if bias is not None and bias.size != w.shape[axis]:
            bias = None
        return scale_floor(bias, table[like_of.get(x, x)], table.get(output_of(node)), w.shape[axis])

    def dead_floor(node, w):
        """Per output channel, |bias| / (x_scale * 2^20) (None: no bias or
        input scale): the weight scale of a channel whose weights are below
        scale_floor's (each product under 2^-31 127^2 of its bias: the
        channel outputs its bias). At scale_floor's least scale its
        bias is near 2^31, and nv_small's SDP scales it by the channel's
        X1 multiplier into a 32-bit intermediate (PP-OCRv4's recognizer
        with channel scales: a depthwise kernel of 1e-15 weights beside a
        bias of 0.05, its convolution left on the host); at this scale it
        is 2^20, 20 bits, and its weights round to 0."""
        x = x_of(node)
        bias = bias_array(node)
        if x is None or bias is None or bias.size != w.shape[weight_axis(node)]:
            return None
        bias = bias.astype(np.float64)
        return (np.abs(bias) / (float(_safe_scale(table[like_of.get(x, x)])) * 2.0 ** 20)).astype(np.float32)

    def weight(node, i):
        name = node.input[i]
        per = per_channel and i == 1 and node.op_type in WEIGHTED
        axis = weight_axis(node) if per else None
        w = numpy_helper.to_array(inits[name])
        floor = floor_of(node, w) if i == 1 and node.op_type in WEIGHTED else None
        key = (name, axis, None if floor is None else floor.tobytes())
        if key not in weights_done:
            q, scale = quantize_weight(w, axis, floor)
            dead = dead_floor(node, w) if axis is not None and floor is not None else None
            if dead is not None:
                # Channels whose weights the floor made round to 0 or 1 level.
                top = np.abs(np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)).max(axis=1)
                raise_ = top / np.float32(127) < floor
                scale = np.where(raise_, np.maximum(scale, dead), scale).astype(np.float32)
                shape = [1] * w.ndim
                shape[axis] = -1
                q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
            # A weight read per channel and per tensor (or with other
            # floors) gets another name.
            taken = sum(k[0] == name for k in weights_done)
            base = name if not taken else "%s_%s" % (name, "tensor" if axis is None else "axis%d" % axis)
            base = base if taken < 2 else "%s_%d" % (base, taken)
            weights_done[key] = (dq(base, q, scale, np.zeros(scale.shape, np.int8), axis), scale)
        return weights_done[key]

    for name in acts:
        if name in {i.name for i in g.input}:
            qdq(name, name)
    for k, node in enumerate(list(g.node)):
        copied = _copied_quantized(node, dq_of, outputs)
        quantizable = k in chosen
        idx = QUANT_INPUTS.get(node.op_type) if quantizable else ()
        idx = range(len(node.input)) if idx is None else idx
        w_scale = None
        if node.output[0] in pending:
            # The FC's bias: int32 at x_scale * w_scale, as a Conv's.
            i, x_name, ws = pending.pop(node.output[0])
            q, scale = quantize_bias(numpy_helper.to_array(inits[node.input[i]]).reshape(-1),
                                     _safe_scale(table[like_of.get(x_name, x_name)]), ws)
            node.input[i] = dq(node.input[i], q, scale, np.zeros(scale.shape, np.int32),
                               0 if np.ndim(scale) else None)
        for i, name in enumerate(node.input):
            if name in dq_of:
                node.input[i] = dq_of[name]
            elif i in idx and name in inits and inits[name].data_type in FLOAT_TYPES:
                node.input[i], scale = weight(node, i)
                w_scale = scale if i == 1 else w_scale
        b = BIAS_INPUT.get(node.op_type)
        x_name = x_of(node) if quantizable and node.op_type in WEIGHTED else None
        if node.op_type == "MatMul" and x_name and w_scale is not None and bias_of(node):
            add, i = bias_of(node)
            pending[add.output[0]] = (i, x_name, w_scale)
        if quantizable and b is not None and len(node.input) > b and node.input[b] in inits \
                and w_scale is not None and x_name:
            bias = numpy_helper.to_array(inits[node.input[b]])
            if bias.ndim == 1 and bias.size == np.size(w_scale) or np.size(w_scale) == 1:
                q, scale = quantize_bias(bias, _safe_scale(table[like_of.get(x_name, x_name)]), w_scale)
                node.input[b] = dq(node.input[b], q, scale, np.zeros(scale.shape, np.int32),
                                   0 if np.ndim(scale) else None)
        for j, out in enumerate(node.output):
            if out in acts and out in outputs:
                node.output[j] = out + "_QuantizeLinear_Input"
        nodes.append(node)
        for out in node.output:
            base = out[:-len("_QuantizeLinear_Input")] if out.endswith("_QuantizeLinear_Input") else out
            if base in acts and base not in dq_of:
                qdq(base, out, like=roots.get(base) or (copied if base == node.output[0] else None))
        if copied and node.output[0] not in dq_of:
            # A nearest Resize of a quantized tensor copies values: its
            # output keeps its input's quantization, so that the importer
            # runs it on the int8 tensor (qdq_fusion, docs/Resize.md).
            qdq(node.output[0], node.output[0], like=copied)
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(new_inits)
    used = {n for node in g.node for n in node.input}
    kept = [i for i in g.initializer if i.name in used or i.name in outputs]
    del g.initializer[:]
    g.initializer.extend(kept)
    # Old models list initializers as inputs too: drop the replaced ones.
    names = {i.name for i in kept}
    gone = [i for i in g.input if i.name in inits and i.name not in names]
    for i in gone:
        g.input.remove(i)
    return m
