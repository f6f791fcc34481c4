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

A tensor qualifies when it is rank 4 with C channels, not a graph input or
output, read only by Convs and by nodes that are not quantized (a fused
Add, pool or gate reads the quantized tensor itself), and every weight
and bias changed is an initializer that node alone reads. PP-OCRv4's
recognizer: channel ranges of one tensor span 10-50x (after the
hardswish of a per-channel affine), so per-tensor int8 leaves its small
channels a few levels; float fake-quantization over 256 lines: 92.67% of
the steps agree per tensor, 95.73% per channel with zero points.
"""

import numpy as np
from onnx import helper, numpy_helper


MOVES = ("Concat", "Reshape", "Transpose", "Squeeze", "Unsqueeze")


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


def qualifying(model, chosen, names):
    """{name: None} of `names` that qualify (see the module's docstring):
    `chosen` are the indices of the quantized nodes (qdq.quantized_nodes)."""
    g = model.graph
    inits, readers, producer, own = _index(g)
    ends = {i.name for i in g.input} | {o.name for o in g.output}

    def conv_reader(k, name):
        node = g.node[k]
        return node.op_type == "Conv" and k in chosen and node.input[0] == name \
            and node.input[1] != name and own(node.input[1])

    out = {}
    for name in names:
        if name in ends or name not in producer:
            continue
        folded = _folded_conv(g, producer, readers, name, chosen, own) is not None
        if not folded and (producer[name] in chosen or g.node[producer[name]].op_type in MOVES):
            # A quantized node other than a Conv writes it, or data
            # movement (a float Mul after a Concat would keep the join on
            # the host, qdq_fusion's Concat reads the parts' own).
            continue
        ok = all(conv_reader(k, name) or k not in chosen for k in readers.get(name, []))
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


def apply(model, chosen, factors):
    """Rewrites `model` (in place) so that each tensor of `factors` ({name:
    r, C positive floats}, names from `qualifying`) holds t * r_c."""
    g = model.graph
    inits, readers, producer, own = _index(g)
    after = {}  # node index -> nodes to insert after it
    first = []  # nodes before the first node

    def scale_init(name, r, axis):
        a = numpy_helper.to_array(inits[name])
        shape = [1] * a.ndim
        shape[axis] = -1
        inits[name].CopyFrom(numpy_helper.from_array(
            (a.astype(np.float64) * r.reshape(shape)).astype(a.dtype), name))

    def const(name, values):
        g.initializer.append(numpy_helper.from_array(values.astype(np.float32).reshape(1, -1, 1, 1),
                                                     name))
        return name

    for name, r in factors.items():
        r = np.asarray(r, np.float64).reshape(-1)
        if any(g.node[k].op_type == "Conv" and k in chosen and g.node[k].input[0] == name
               and numpy_helper.to_array(inits[g.node[k].input[1]]).shape[1] > 1
               for k in readers.get(name, [])):
            # A convolution mixing channels: dividing its input channel c by
            # r_c spreads its kernels' ranges (per output channel int8), so
            # the tensor takes sqrt(r_c), half the equalization each side
            # (recognizer, as above: 95.30% of the steps; 94.81% leaving
            # such tensors per tensor, 93.85% with all of r_c).
            r = np.sqrt(r)
        conv = _folded_conv(g, producer, readers, name, chosen, own)
        if conv is not None:
            scale_init(conv.input[1], r, 0)
            if len(conv.input) > 2 and conv.input[2]:
                scale_init(conv.input[2], r, 0)
        else:
            k = producer[name]
            node = g.node[k]
            raw = name + "_per_channel"
            for j, o in enumerate(node.output):
                if o == name:
                    node.output[j] = raw
            mul = helper.make_node("Mul", [raw, const(name + "_channel_factors", r)], [name],
                                   name + "_channel_scale")
            after.setdefault(k, []).append(mul)
        back = None
        for k in readers.get(name, []):
            node = g.node[k]
            if node.op_type == "Conv" and k in chosen and node.input[0] == name \
                    and own(node.input[1]):
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
                mul = helper.make_node("Mul", [name, const(name + "_channel_inverse", 1.0 / r)],
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
