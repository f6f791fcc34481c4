"""Post-training quantization variants tried on PaddleOCR's recognizer in
float simulation (qdq_sim.py; issue 22): none is in dla-calibrate or the
importer, as none moved the recognizer's per-step agreement beyond the
noise of the calibration data (numbers: bench/README.md).

  mse_threshold     the clipping threshold of least squared fake-quantization
                    error of a Histogram (a calibration method);
  fold_batch_norms  Conv -> BatchNormalization folded before quantizing;
  equalize_pairs    cross-layer equalization of Conv -> depthwise Conv;
  correct_biases    empirical bias correction of each Conv's own error;
  keep_kernel_sums  int8 weights rounded to keep each kernel's DC gain.
"""

import numpy as np
import onnx
from onnx import numpy_helper

from dla import calibrate
from dla.onnx.qdq import fold_constants, quantize_model, quantized_nodes


def mse_threshold(self, start=128, steps=256):
    """(`self`: a dla.calibrate.Histogram) The threshold of least mean squared error of symmetric int8
    fake-quantization, over the histogram's bin centres (each rounded to
    its level, or clipped), among `steps` bin edges from `start` up to
    the last non-empty bin."""
    if self.amax == 0.0:
        return 0.0
    bins = self.hist.astype(np.float64)
    last = int(np.nonzero(bins)[0][-1]) + 1
    if last <= start:
        return self.amax
    centres = (np.arange(last) + 0.5) * self.range / calibrate.NBINS
    counts = bins[:last]
    best, best_t = np.inf, self.amax
    for i in np.unique(np.linspace(start, last, steps).astype(int)):
        t = min(self.edge(i), self.amax)
        step = t / 127.0
        q = np.minimum(np.rint(centres / step), 127.0) * step
        err = float(np.dot(counts, (centres - q) ** 2))
        if err < best:
            best, best_t = err, t
    return best_t


def _index(g):
    """(initializers by name, readers per tensor, producer per tensor,
    graph output names) of graph g."""
    readers, producer = {}, {}
    for node in g.node:
        for n in node.input:
            readers[n] = readers.get(n, 0) + 1
        producer.update((o, node) for o in node.output)
    return {i.name: i for i in g.initializer}, readers, producer, {o.name for o in g.output}


def fold_batch_norms(model):
    """Each BatchNormalization reading only a Conv's output (constant
    parameters, the Conv's weight and bias read by it alone) is folded into
    that Conv, which then writes the BatchNormalization's output: one
    quantized tensor instead of two with a float per-channel scale between
    (which multiplies the first one's rounding error by its gain). Not in
    the importer: PaddleOCR's classifier (35 such pairs) gains in float
    fake-quantization over 64 lines (mean cosine 0.9936 -> 0.9989) and
    loses compiled for nv_small int8 (top-1 100% -> 96.9%, cosine 0.9962 ->
    0.9932: the folded channels' requantization factors spread further
    under nv_small's one shift per layer). Returns the names of the Conv
    outputs removed."""
    g = model.graph
    inits, readers, producer, outputs = _index(g)
    removed, keep = [], []
    for node in g.node:
        conv = producer.get(node.input[0]) if node.op_type == "BatchNormalization" else None
        eps = next((a.f for a in node.attribute if a.name == "epsilon"), 1e-5)
        if conv is None or conv.op_type != "Conv" or conv.domain not in ("", "ai.onnx") \
                or node.domain not in ("", "ai.onnx") or len(node.output) != 1 \
                or readers[node.input[0]] != 1 or node.input[0] in outputs \
                or not all(n in inits for n in node.input[1:5]) \
                or conv.input[1] not in inits or readers[conv.input[1]] != 1 \
                or len(conv.input) > 2 and conv.input[2] and \
                (conv.input[2] not in inits or readers[conv.input[2]] != 1):
            keep.append(node)
            continue
        gamma, beta, mean, var = (numpy_helper.to_array(inits[n]).astype(np.float64)
                                  for n in node.input[1:5])
        w = numpy_helper.to_array(inits[conv.input[1]])
        has_bias = len(conv.input) > 2 and conv.input[2]
        b = numpy_helper.to_array(inits[conv.input[2]]).astype(np.float64) if has_bias \
            else np.zeros(w.shape[0])
        k = gamma / np.sqrt(var + eps)
        inits[conv.input[1]].CopyFrom(numpy_helper.from_array(
            (w * k.reshape((-1,) + (1,) * (w.ndim - 1))).astype(w.dtype), conv.input[1]))
        bias = ((b - mean) * k + beta).astype(w.dtype)
        if has_bias:
            inits[conv.input[2]].CopyFrom(numpy_helper.from_array(bias, conv.input[2]))
        else:
            name = node.output[0] + "_bias"
            g.initializer.append(numpy_helper.from_array(bias, name))
            del conv.input[2:]
            conv.input.append(name)
        removed.append(conv.output[0])
        conv.output[0] = node.output[0]
    del g.node[:]
    g.node.extend(keep)
    return removed


def equalize_pairs(model):
    """Cross-layer equalization (Nagel et al. 2019, "Data-Free Quantization
    Through Weight Equalization and Bias Correction", section 4.1) of each
    Conv A whose output only a depthwise Conv B reads: A's output channel c
    divided by s_c = sqrt(rA_c / rB_c) (weights and bias), B's weights of
    channel c multiplied by it (r: max|w| of the channel), which leaves the
    function unchanged and gives the channels of the tensor between the
    same range (PP-OCRv4's recognizer: its first convolution's channels
    span 0.01 to 3.6 before; equalized, 93.28% of its steps agree in
    simulation, 93.67% without). Returns the tensors whose values changed."""
    g = model.graph
    inits, readers, producer, outputs = _index(g)
    changed = []
    for b in g.node:
        a = producer.get(b.input[0]) if b.op_type == "Conv" else None
        if a is None or a.op_type != "Conv" or readers[b.input[0]] != 1 or b.input[0] in outputs \
                or any(n not in inits or readers[n] != 1 for n in list(a.input[1:]) + [b.input[1]] if n):
            continue
        wa = numpy_helper.to_array(inits[a.input[1]])
        wb = numpy_helper.to_array(inits[b.input[1]])
        group = next((x.i for x in b.attribute if x.name == "group"), 1)
        if wb.shape[1] != 1 or group != wb.shape[0] or wa.shape[0] != wb.shape[0]:
            continue
        ra = np.abs(wa).reshape(len(wa), -1).max(1).astype(np.float64)
        rb = np.abs(wb).reshape(len(wb), -1).max(1).astype(np.float64)
        ok = (ra > 0) & (rb > 0)
        s = np.where(ok, np.sqrt(ra / np.where(ok, rb, 1)), 1.0)
        per = lambda w: s.reshape((-1,) + (1,) * (w.ndim - 1))
        inits[a.input[1]].CopyFrom(numpy_helper.from_array((wa / per(wa)).astype(wa.dtype), a.input[1]))
        inits[b.input[1]].CopyFrom(numpy_helper.from_array((wb * per(wb)).astype(wb.dtype), b.input[1]))
        if len(a.input) > 2 and a.input[2]:
            bias = numpy_helper.to_array(inits[a.input[2]])
            inits[a.input[2]].CopyFrom(numpy_helper.from_array((bias / s).astype(bias.dtype), a.input[2]))
        changed.append(a.output[0])
    return changed


def prepare(model, fold_bn=False, equalize=False):
    """qdq.fold_constants, then the variants asked for (equalization after
    folding: a BatchNormalization stands between the recognizer's pair)."""
    fold_constants(model)
    if fold_bn or equalize:
        fold_batch_norms(model)
    if equalize:
        equalize_pairs(model)


def corrected_convs(model):
    """(Conv nodes of `model` that quantize_model quantizes, in order)."""
    chosen = quantized_nodes(model)[0]
    return [n for k, n in enumerate(model.graph.node) if k in chosen and n.op_type == "Conv"]


def channel_means(y):
    y = np.asarray(y, np.float64)
    return y.mean(axis=tuple(i for i in range(y.ndim) if i != 1))


def local_model(m, q, convs):
    """The float model `m` with, beside each Conv of `convs`, its quantized
    copy (the QDQ model `q`'s weights and bias) reading the float input
    quantized: its output name + "_quantized_copy". Each copy then carries
    that convolution's own error only (no error from upstream layers, whose
    correction would otherwise be counted again downstream)."""
    out = onnx.ModelProto()
    out.CopyFrom(m)
    g = out.graph
    qnodes = {n.output[0]: n for n in q.graph.node}
    qinits = {i.name: i for i in q.graph.initializer}
    have = {i.name for i in g.initializer}

    def take(name):
        """The QDQ model's producer chain of `name` (DQ of initializers)."""
        node = qnodes[name]
        for i in node.input:
            if i in qinits and i not in have:
                g.initializer.append(qinits[i])
                have.add(i)
        g.node.append(node)
        return name

    for conv in convs:
        qc = qnodes[conv.output[0]]
        x = conv.input[0]
        scale = x + "_scale"
        qx = onnx.helper.make_node("QuantizeLinear", [x, scale, x + "_zero_point"],
                                   [x + "_local_q"])
        dqx = onnx.helper.make_node("DequantizeLinear", [x + "_local_q", scale, x + "_zero_point"],
                                    [x + "_local_dq"])
        for i in (scale, x + "_zero_point"):
            if i not in have:
                g.initializer.append(qinits[i])
                have.add(i)
        g.node.extend([qx, dqx])
        inputs = [x + "_local_dq"] + [take(i) if i in qnodes else i for i in qc.input[1:]]
        copy = onnx.helper.make_node("Conv", inputs, [conv.output[0] + "_quantized_copy"])
        copy.attribute.extend(qc.attribute)
        g.node.append(copy)
    return out


def correct_biases(model, table, x, run):
    """(a copy of `model` with corrected Conv biases, largest |shift|).
    `run(model, names, x)` returns the values of tensors `names` of `model`
    on samples x (any execution of the model); `table` the activation
    scales quantize_model takes."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    fold_constants(m)
    convs = corrected_convs(m)
    acts = quantized_nodes(m)[1]
    q = quantize_model(m, {n: table[n] for n in acts})
    names = [n.output[0] for n in convs]
    values = run(local_model(m, q, convs), names + [n + "_quantized_copy" for n in names], x)
    want, got = values[:len(names)], values[len(names):]
    inits = {i.name: i for i in m.graph.initializer}
    largest = 0.0
    for node, w, g in zip(convs, want, got):
        diff = channel_means(g) - channel_means(w)
        if len(node.input) > 2 and node.input[2]:
            init = inits[node.input[2]]
            bias = numpy_helper.to_array(init).astype(np.float64)
        else:
            bias = np.zeros(diff.shape)
            name = node.output[0] + "_corrected_bias"
            init = m.graph.initializer.add()
            init.name = name
            while len(node.input) < 3:
                node.input.append("")
            node.input[2] = name
        init.CopyFrom(numpy_helper.from_array((bias - diff).astype(np.float32), init.name))
        largest = max(largest, float(np.max(np.abs(diff))) if diff.size else 0.0)
    return m, largest


def keep_kernel_sums(w, scale, q):
    """int8 weights `q` (rint(w / scale) of a Conv weight O x I x kH x kW,
    per output channel `scale`) re-rounded so that each kernel's integer
    sum over its kH x kW taps is the rounded sum of its real levels: the
    taps nearest their rounding boundary round the other way (each still
    within one level), so a kernel's gain on a constant (its DC gain)
    stays within half a level."""
    if w.ndim != 4 or w.shape[2] * w.shape[3] == 1:
        return q
    r = (w / scale.reshape(-1, 1, 1, 1)).reshape(w.shape[0], w.shape[1], -1).astype(np.float64)
    q = q.reshape(r.shape).astype(np.int64)
    d = (np.rint(r.sum(-1)) - q.sum(-1)).astype(np.int64)
    res = r - q  # in [-0.5, 0.5]: positive ones are the nearest to rounding up
    order_up = np.argsort(-res, axis=-1)
    order_down = np.argsort(res, axis=-1)
    taps = r.shape[-1]
    rank = np.arange(taps)
    up = np.zeros_like(q)
    np.put_along_axis(up, order_up, (rank < d[..., None]).astype(np.int64), axis=-1)
    down = np.zeros_like(q)
    np.put_along_axis(down, order_down, (rank < -d[..., None]).astype(np.int64), axis=-1)
    return np.clip(q + up - down, -127, 127).astype(np.int8).reshape(w.shape)
