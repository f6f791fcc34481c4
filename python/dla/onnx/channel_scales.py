"""Per-channel activation scales realized with per-tensor quantization.

An activation t of N x C x H x W quantized per channel (real = s_c (q -
z), one zero point z) is the per-tensor quantization (scale S = max s_c,
zero point z) of t' = t * r_c, r_c = S / s_c: the model is rewritten to
compute t' where t was, exactly in float, so that the quantized form keeps
every layer's integer arithmetic per tensor (what nv_small's SDP and the
importer's fused groups compute):

  - producer: a Conv quantized with it (or the Relu after one, which
    commutes with r_c > 0) gets its output channel k scaled by r_k
    (weights and bias; per-channel int8 weights round to the same
    integers, their scale times r_k); another producer's output is
    multiplied by r (a float Mul);
  - readers: a Conv reading it as its input gets its input channel c
    divided by r_c (weights; a depthwise kernel is its channel's own, so
    again the same integers); another reader gets t' / r_c (a float Mul).

Tokens N x T x C (a transformer's, channels on the last axis; the table's
channel_axis -1) likewise, with a fully connected layer over the tokens
(MatMul by a 2-D weight [C_in, C_out], then its bias Add) in the Conv's
place: as producer its output column k and bias scaled by r_k, as reader
its weight row c divided by r_c; a LayerNormalization's affine step
(Mul gamma, Add beta: qdq.layer_norm) as producer, gamma_c and beta_c
scaled by r_c.

A tensor qualifies when it is not a graph input or output, read only by
such Convs / fully connected layers and by nodes that are not quantized
(a fused Add, pool or gate reads the quantized tensor itself; for tokens
only a Shape: no float Mul between two accelerator layers), and every
weight and bias changed is an initializer that node alone reads. PP-OCRv4's
recognizer: channel ranges of one tensor span 10-50x (after the
hardswish of a per-channel affine), so per-tensor int8 leaves its small
channels a few levels; float fake-quantization over 256 lines: 92.67% of
the steps agree per tensor, 95.73% per channel with zero points.
"""

import numpy as np
from onnx import helper, numpy_helper


MOVES = ("Concat", "Reshape", "Transpose", "Squeeze", "Unsqueeze")
# Readers of a tensor's shape alone: they read the rescaled tensor as it
# is (an exporter's Shape beside the recognizer's LayerNorm outputs).
SHAPE_READERS = ("Shape", "Size")


def _conv_group(node):
    return next((a.i for a in node.attribute if a.name == "group"), 1)


def _index(g):
    """The graph's initializers by name, each tensor's reading node indices,
    its producing node index, and own(name): an initializer read once."""
    inits = {i.name: i for i in g.initializer}
    readers, producer, uses = {}, {}, {}
    for k, node in enumerate(g.node):
        for n in node.input:
            readers.setdefault(n, []).append(k)
            uses[n] = uses.get(n, 0) + 1
        for n in node.output:
            producer[n] = k
    return inits, readers, producer, lambda n: n in inits and uses.get(n, 0) == 1


def _reader(g, k, name, chosen, own, axis):
    """Whether node k reads `name` (channels on `axis`) as a quantized
    Conv (axis 1) or token fully connected layer (axis -1: MatMul by a
    2-D weight) whose weight absorbs the factors."""
    node = g.node[k]
    op = "Conv" if axis == 1 else "MatMul"
    return node.op_type == op and k in chosen and node.input[0] == name \
        and node.input[1] != name and own(node.input[1])


def _folded(g, inits, producer, readers, name, chosen, own, axis):
    """[(initializer, axis)] whose scaling by r scales `name`'s channels
    (its producer's weights and bias), or None."""
    if axis == 1:
        conv = _folded_conv(g, producer, readers, name, chosen, own)
        if conv is None:
            return None
        return [(conv.input[1], 0)] + ([(conv.input[2], 0)] if len(conv.input) > 2 and conv.input[2]
                                       else [])
    node = g.node[producer[name]]
    if node.op_type != "Add":
        return None
    consts = [n for n in node.input if n in inits]
    acts = [n for n in node.input if n not in inits]
    if len(consts) != 1 or len(acts) != 1 or not own(consts[0]) or acts[0] not in producer \
            or len(readers.get(acts[0], [])) != 1:
        return None
    src = g.node[producer[acts[0]]]
    if src.op_type == "MatMul" and producer[acts[0]] in chosen and producer[name] in chosen \
            and own(src.input[1]) and len(inits[src.input[1]].dims) == 2:
        # A fully connected layer: weight [K, N] by column, its bias.
        return [(src.input[1], 1), (consts[0], -1)]
    gamma = [n for n in src.input if n in inits]
    if src.op_type == "Mul" and len(gamma) == 1 and own(gamma[0]) \
            and _layer_norm_output(g, inits, producer, name):
        # A LayerNormalization's n * gamma + beta (its int8 program's
        # affine step, qdq_layernorm).
        return [(gamma[0], -1), (consts[0], -1)]
    return None


def _layer_norm_output(g, inits, producer, name):
    """Whether `name` is the output of a LayerNormalization spelled out
    (qdq.layer_norm), found from its Div's Sub's ReduceMean."""
    from .qdq import layer_norm  # qdq imports this module
    try:
        add = g.node[producer[name]]
        mul = g.node[producer[[n for n in add.input if n not in inits][0]]]
        div = g.node[producer[[n for n in mul.input if n not in inits][0]]]
        sub = g.node[producer[div.input[0]]]
        mean = g.node[producer[sub.input[1]]]
    except (KeyError, IndexError):
        return False
    if mean.op_type != "ReduceMean":
        return False
    nodes_of = {o: n for n in g.node for o in n.output}
    readers = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    ln = layer_norm(mean, nodes_of, readers, inits)
    return ln is not None and ln["y"] == name


def qualifying(model, chosen, names, axes=None):
    """{name: None} of `names` that qualify (see the module's docstring):
    `chosen` are the indices of the quantized nodes (qdq.quantized_nodes),
    `axes` {name: channel axis} (default 1)."""
    g = model.graph
    inits, readers, producer, own = _index(g)
    ends = {i.name for i in g.input} | {o.name for o in g.output}
    axes = axes or {}

    out = {}
    for name in names:
        if name in ends or name not in producer:
            continue
        axis = axes.get(name, 1)
        conv_reader = lambda k, name: _reader(g, k, name, chosen, own, axis)  # noqa: E731
        folded = _folded(g, inits, producer, readers, name, chosen, own, axis) is not None
        if not folded and (producer[name] in chosen or g.node[producer[name]].op_type in MOVES):
            # A quantized node other than a Conv writes it, or data
            # movement (a float Mul after a Concat would keep the join on
            # the host, qdq_fusion's Concat reads the parts' own).
            continue
        # Tokens: no float Mul either side (it would be a host step
        # between accelerator layers: the neck's are all on it).
        plain = lambda k: k not in chosen and (  # noqa: E731
            axis == 1 or g.node[k].op_type in SHAPE_READERS)
        if axis != 1 and not folded:
            continue
        ok = all(conv_reader(k, name) or plain(k) for k in readers.get(name, []))
        if ok and (folded or any(conv_reader(k, name) for k in readers.get(name, []))):
            out[name] = None
    return out


def _folded_conv(g, producer, readers, name, chosen, own):
    """The quantized Conv whose output channels `name` scales (directly, or
    through a Relu that alone reads it), or None."""
    k = producer[name]
    node = g.node[k]
    if node.op_type == "Relu" and node.input[0] in producer \
            and len(readers.get(node.input[0], [])) == 1:
        k = producer[node.input[0]]
        node = g.node[k]
    if node.op_type != "Conv" or k not in chosen or not own(node.input[1]):
        return None
    if len(node.input) > 2 and node.input[2] and not own(node.input[2]):
        return None
    return node


def apply(model, chosen, factors, axes=None):
    """Rewrites `model` (in place) so that each tensor of `factors` ({name:
    r, C positive floats}, names from `qualifying` with the same `axes`)
    holds t * r_c."""
    g = model.graph
    inits, readers, producer, own = _index(g)
    axes = axes or {}
    after = {}  # node index -> nodes to insert after it
    first = []  # nodes before the first node

    def scale_init(name, r, axis):
        a = numpy_helper.to_array(inits[name])
        shape = [1] * a.ndim
        shape[axis] = -1
        inits[name].CopyFrom(numpy_helper.from_array(
            (a.astype(np.float64) * r.reshape(shape)).astype(a.dtype), name))

    def const(name, values, axis):
        # Channels on axis 1 (N x C x H x W) or the last (tokens).
        shape = (1, -1, 1, 1) if axis == 1 else (-1,)
        g.initializer.append(numpy_helper.from_array(values.astype(np.float32).reshape(shape), name))
        return name

    for name, r in factors.items():
        r = np.asarray(r, np.float64).reshape(-1)
        axis = axes.get(name, 1)
        if any(_reader(g, k, name, chosen, own, axis)
               and (axis != 1 or numpy_helper.to_array(inits[g.node[k].input[1]]).shape[1] > 1)
               for k in readers.get(name, [])):
            # A convolution mixing channels: dividing its input channel c by
            # r_c spreads its kernels' ranges (per output channel int8), so
            # the tensor takes sqrt(r_c), half the equalization each side
            # (recognizer, as above: 95.30% of the steps; 94.81% leaving
            # such tensors per tensor, 93.85% with all of r_c). A token
            # fully connected layer always mixes them.
            r = np.sqrt(r)
        folded = _folded(g, inits, producer, readers, name, chosen, own, axis)
        if folded is not None:
            for init_name, init_axis in folded:
                scale_init(init_name, r, init_axis)
        else:
            k = producer[name]
            node = g.node[k]
            raw = name + "_per_channel"
            for j, o in enumerate(node.output):
                if o == name:
                    node.output[j] = raw
            mul = helper.make_node("Mul", [raw, const(name + "_channel_factors", r, axis)], [name],
                                   name + "_channel_scale")
            after.setdefault(k, []).append(mul)
        back = None
        for k in readers.get(name, []):
            node = g.node[k]
            if node.op_type in SHAPE_READERS:
                continue
            if axis != 1 and _reader(g, k, name, chosen, own, axis):
                scale_init(node.input[1], 1.0 / r, 0)  # weight row c: input channel c
                continue
            if axis == 1 and _reader(g, k, name, chosen, own, axis):
                w = numpy_helper.to_array(inits[node.input[1]])
                group = _conv_group(node)
                per = w.shape[1]
                # Input channel c is group c // per's kernel input c % per.
                inv = (1.0 / r).reshape(group, per)
                a = w.astype(np.float64).reshape(group, w.shape[0] // group, per, -1)
                a = a * inv[:, None, :, None]
                inits[node.input[1]].CopyFrom(numpy_helper.from_array(
                    a.reshape(w.shape).astype(w.dtype), node.input[1]))
                continue
            if back is None:
                back = name + "_channels"
                mul = helper.make_node("Mul", [name, const(name + "_channel_inverse", 1.0 / r, axis)],
                                       [back], name + "_channel_unscale")
                after.setdefault(producer[name], []).append(mul)
            for j, n in enumerate(node.input):
                if n == name:
                    node.input[j] = back
    nodes = list(first)
    for k, node in enumerate(g.node):
        nodes.append(node)
        nodes.extend(after.get(k, []))
    del g.node[:]
    g.node.extend(nodes)
