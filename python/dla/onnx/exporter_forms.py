"""What exporters write that the converters do not read as it is, put in
the form they read before anything else looks at the model (the importer,
the quantizer, dla-calibrate):

  - an unsorted graph (a node before the producer of its input: fp16
    converters append their input casts last) is sorted topologically, as
    onnxruntime does: each node after its producers, otherwise in its
    order. A cycle is an error naming a node on it, and so is a tensor two
    nodes write; an input that no node, graph input or initializer
    defines is left for the importer's error.
  - a LayerNormalization over the last axis (opset 17's op) is spelled
    out as exporters that predate it write it: ReduceMean, Sub, Pow 2,
    ReduceMean, Add epsilon, Sqrt, Div, Mul scale, Add bias, each result
    named after the op's output (Y_ln_mean, Y_ln_d, ...), so that
    dla-calibrate's table has the intermediate ranges the int8 program
    uses (qdq_layernorm.py). Other axes, or its optional Mean /
    InvStdDev outputs, are left for the importer's error.
  - a dynamically quantized network (onnxruntime.quantization's
    quantize_dynamic: DynamicQuantizeLinear -> ConvInteger / MatMulInteger
    -> Cast -> Mul by the scales) becomes its float model: each
    DynamicQuantizeLinear passes its input through (scale 1, zero point 0)
    and each ConvInteger / MatMulInteger reading it becomes a Conv / MatMul
    of that float input with the weights minus their zero point (exact in
    float); the Mul by the weight scale after it stays. The scale of an
    activation is computed at run time there, which NVDLA cannot do; the
    float model runs in fp16 as it is and in int8 from a calibration table
    (dla-calibrate, then --calibration-table) like any float model. It
    differs from onnxruntime's dynamic quantization by that quantization's
    rounding of the activations only.
"""

import heapq

import numpy as np
import onnx
from onnx import helper, numpy_helper

from .builder import ImportError_
from .validate import node_label

__all__ = ["normalize", "topological_order"]


def topological_order(graph):
    """The indices of graph.node, each node after the nodes writing its
    inputs (ties in the graph's order, as onnxruntime sorts); ImportError_
    naming a node on a cycle."""
    nodes = list(graph.node)
    writer = {}
    for i, node in enumerate(nodes):
        for name in node.output:
            if name in writer:
                # onnx.checker's SSA rule; the importer kept the last writer.
                raise ImportError_("%s writes '%s', which %s writes too (a tensor has one writer)"
                                   % (node_label(node), name, node_label(nodes[writer[name]])))
            if name:
                writer[name] = i
    waits = [0] * len(nodes)
    readers = [[] for _ in nodes]
    for i, node in enumerate(nodes):
        for name in set(n for n in node.input if n):
            j = writer.get(name)
            if j is not None and j != i:
                waits[i] += 1
                readers[j].append(i)
            elif j == i:
                raise ImportError_("%s reads its own output '%s': the graph has a cycle"
                                   % (node_label(node), name))
    ready = [i for i, w in enumerate(waits) if w == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for j in readers[i]:
            waits[j] -= 1
            if waits[j] == 0:
                heapq.heappush(ready, j)
    if len(order) < len(nodes):
        stuck = min(i for i, w in enumerate(waits) if w)
        node = nodes[stuck]
        late = [n for n in node.input if n in writer and waits[writer[n]]]
        raise ImportError_("%s is on a cycle of the graph (its input '%s' is computed from its "
                           "own output)" % (node_label(node), late[0] if late else node.input[0]))
    return order


def _sort(graph, order):
    nodes = [graph.node[i] for i in order]
    sorted_nodes = [onnx.NodeProto() for _ in nodes]
    for dst, src in zip(sorted_nodes, nodes):
        dst.CopyFrom(src)
    del graph.node[:]
    graph.node.extend(sorted_nodes)


def _constants(graph):
    """{name: array} of the initializers and Constant nodes' values."""
    known = {}
    for t in graph.initializer:
        try:
            known[t.name] = numpy_helper.to_array(t)
        except Exception:  # the importer names an unreadable initializer
            pass
    for node in graph.node:
        if node.op_type == "Constant" and node.domain in ("", "ai.onnx"):
            for a in node.attribute:
                if a.name == "value":
                    known[node.output[0]] = numpy_helper.to_array(a.t)
    return known


def _float_weights(w, zp, kind):
    """w - zp in float32; zp per tensor, per output channel (ConvInteger:
    the first axis) or per column (MatMulInteger: the last)."""
    w = w.astype(np.float32)
    zp = np.zeros((), np.float32) if zp is None else np.asarray(zp, np.float32).reshape(-1)
    if zp.size > 1:
        zp = zp.reshape((-1,) + (1,) * (w.ndim - 1)) if kind == "ConvInteger" else zp
    elif zp.size == 1:
        zp = zp.reshape(())
    return (w - zp).astype(np.float32)


def _dequantize_dynamic(graph):
    """quantize_dynamic's form -> the float model (see the module's
    documentation). Returns the number of integer operators rewritten. A
    DynamicQuantizeLinear in any other use stays for its converter."""
    readers = {}
    for i, node in enumerate(graph.node):
        for k, name in enumerate(node.input):
            readers.setdefault(name, []).append((i, k))
    outputs = {o.name for o in graph.output}
    known = _constants(graph)
    nodes = list(graph.node)
    replace, new_inits, rewritten = {}, [], 0
    for i, node in enumerate(nodes):
        if node.op_type != "DynamicQuantizeLinear" or node.domain not in ("", "ai.onnx") \
                or len(node.output) != 3 or len(node.input) != 1:
            continue
        y, y_scale, y_zp = node.output
        users = readers.get(y, [])
        plan = []
        for j, k in users:
            user = nodes[j]
            ins = list(user.input) + [""] * (4 - len(user.input))
            w_name, zp_name = ins[1], ins[3]
            if user.op_type not in ("ConvInteger", "MatMulInteger") or k != 0 \
                    or ins[2] not in ("", y_zp) or w_name not in known \
                    or (zp_name and zp_name not in known) or user.output[0] in outputs:
                plan = None
                break
            casts = readers.get(user.output[0], [])
            if not casts or any(nodes[c].op_type != "Cast" or c in replace for c, _ in casts):
                plan = None
                break
            plan.append(j)
        if not plan or y in outputs or y_zp in outputs \
                or any(nodes[j].op_type not in ("ConvInteger", "MatMulInteger")
                       for j, _ in readers.get(y_zp, [])):
            continue
        replace[i] = [helper.make_node("Identity", [node.input[0]], [y], name=node.name or y)]
        new_inits.append(numpy_helper.from_array(np.ones((), np.float32), y_scale))
        for j in plan:
            user = nodes[j]
            ins = list(user.input) + [""] * (4 - len(user.input))
            w = _float_weights(known[ins[1]], known.get(ins[3]) if ins[3] else None, user.op_type)
            w_name = "%s_dequantized_weights" % (user.name or user.output[0])
            new_inits.append(numpy_helper.from_array(w, w_name))
            float_op = "Conv" if user.op_type == "ConvInteger" else "MatMul"
            new = helper.make_node(float_op, [y, w_name],
                                   list(user.output), name=user.name)
            new.attribute.extend(user.attribute)
            replace[j] = [new]
            rewritten += 1
    if not replace:
        return 0
    rebuilt = []
    for i, node in enumerate(nodes):
        rebuilt.extend(replace.get(i, [node]))
    del graph.node[:]
    graph.node.extend(rebuilt)
    graph.initializer.extend(new_inits)
    return rewritten


def normalize(model, remark=None, copy=False):
    """`model` in the form the importer reads (changed in place, or with
    `copy` a copy when it needs changing); `remark(text)` hears what was
    changed. ImportError_ for a cycle."""
    dynamic = any(n.op_type == "DynamicQuantizeLinear" for n in model.graph.node)
    order = topological_order(model.graph)
    unsorted = order != list(range(len(order)))
    spell = any(n.op_type == "LayerNormalization" for n in model.graph.node)
    if copy and (dynamic or unsorted or spell):
        original, model = model, onnx.ModelProto()
        model.CopyFrom(original)
    if unsorted:
        _sort(model.graph, order)
        if remark:
            remark("the graph's nodes were not in topological order: sorted (as onnxruntime does)")
    if dynamic:
        count = _dequantize_dynamic(model.graph)
        if count and remark:
            remark("dynamically quantized model (DynamicQuantizeLinear -> ConvInteger / "
                   "MatMulInteger) imported as its float model: %d integer operator%s with "
                   "dequantized weights (calibrate it for int8)" % (count, "s" if count > 1 else ""))
    spelled = _spell_layer_norms(model) if spell else 0
    if spelled and remark:
        remark("%d LayerNormalization node%s spelled out (ReduceMean, Sub, Pow, ReduceMean, Add, "
               "Sqrt, Div, Mul, Add), the form the importer and the quantizer read"
               % (spelled, "s" if spelled > 1 else ""))
    return model


def _spell_layer_norms(model):
    """LayerNormalization (axis -1) -> its spelled-out form, in place; the
    number rewritten."""
    g = model.graph
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 18)
    inits = {i.name: i for i in g.initializer}
    out, count = [], 0
    for node in g.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type != "LayerNormalization" or node.domain not in ("", "ai.onnx") \
                or attrs.get("axis", -1) != -1 or any(node.output[1:]) or len(node.input) < 2:
            out.append(node)
            continue
        x, scale = node.input[0], node.input[1]
        y = node.output[0]
        dtype = np.float32
        if scale in inits:
            dtype = numpy_helper.to_array(inits[scale]).dtype
        n = lambda s: "%s_ln_%s" % (y, s)

        def const(name, value):
            g.initializer.append(numpy_helper.from_array(np.asarray(value, dtype), name))
            return name

        def mean(src, dst):
            if opset >= 18:
                axes = n("axes")
                if axes not in {i.name for i in g.initializer}:
                    g.initializer.append(numpy_helper.from_array(np.array([-1], np.int64), axes))
                return helper.make_node("ReduceMean", [src, axes], [dst], keepdims=1)
            return helper.make_node("ReduceMean", [src], [dst], axes=[-1], keepdims=1)

        bias = node.input[2] if len(node.input) > 2 and node.input[2] else None
        if bias is None:
            shape = list(inits[scale].dims) if scale in inits else None
            if shape is None:
                out.append(node)
                continue
            bias = const(n("zero_bias"), np.zeros(shape))
        out += [mean(x, n("mean")),
                helper.make_node("Sub", [x, n("mean")], [n("d")]),
                helper.make_node("Pow", [n("d"), const(n("two"), 2.0)], [n("sq")]),
                mean(n("sq"), n("var")),
                helper.make_node("Add", [n("var"), const(n("eps"), attrs.get("epsilon", 1e-5))],
                                 [n("var_eps")]),
                helper.make_node("Sqrt", [n("var_eps")], [n("sd")]),
                helper.make_node("Div", [n("d"), n("sd")], [n("n")]),
                helper.make_node("Mul", [n("n"), scale], [n("scaled")]),
                helper.make_node("Add", [n("scaled"), bias], [y], name=node.name)]
        count += 1
    if count:
        del g.node[:]
        g.node.extend(out)
    return count
