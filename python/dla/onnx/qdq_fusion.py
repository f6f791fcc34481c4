"""QDQ fusion: the node groups onnxruntime's QDQ selectors fuse (into
QLinearConv, QLinearAdd, QLinearAveragePool, an int8 MaxPool) become
TOSA's integer form, the shapes --dla-convert-tosa precision=int8 matches:

  Conv:    DQ(x), DQ(w int8 const, per tensor or axis 0), [DQ(b int32)]
           -> Conv -> [Relu | Clip] -> Q:
           conv2d (depthwise / grouped as _conv_integer) on i8 with zero
           points, i32 + bias; ONE rescale i32 -> i8 (SINGLE_ROUND) by
           fl32(x_scale * w_scale / y_scale); clamp i8 for Relu / Clip.
  Add:     DQ(a), DQ(b) -> Add -> [Relu] -> Q: each operand rescaled to i32
           by its scale / max(scales) * 2^20, add i32, rescale to i8 by
           max(scales) / y_scale * 2^-20 (TOSA's legalization of a
           quantized add).
  MaxPool: DQ -> MaxPool -> Q: max_pool2d on i8 (+ rescale unless the
           scale and zero point are the same: then exact).
  BatchNormalization or a chain of Mul / Add / Sub / Div by constants
           and BatchNormalizations [-> Relu | Clip], Relu, Clip,
           HardSigmoid between a DQ and a Q: a per-channel affine map
           (qdq_affine.py).
  Resize / Upsample: DQ -> Resize (nearest) -> Q with the same scale and
           zero point: the Resize on i8 (a copy commutes with quantization;
           exact), so that a nearest upsampling offloads (docs/Resize.md).
           DQ (zero point 0) -> Resize (linear) -> Q: TOSA's integer
           bilinear (i32, exact) rescaled once by xs / (ys n_y n_x).
  HardSwish, or such an affine map then a hard-swish (also decomposed)
           [-> another chain], between a DQ and a Q: the affine map, the
           gate relu6(t + 3) / 6 at 1/127 and their product requantized,
           the trailing map folded in or a fourth pass (qdq_hardswish.py).
  Sigmoid, Tanh between a DQ and a Q: tosa.table of the function's 256
           quantized values (qdq_table.py); a swish x * sigmoid(c x): the
           table at 1/127 and the product.
  LayerNormalization over tokens' channels, spelled out: convolutions,
           products, a table and an affine map (qdq_layernorm.py).
  Reshape / Transpose / Squeeze / Unsqueeze quantized alike on both
           sides: the int8 map itself in another view (VIEWS: tokens).
  Mul:     DQ(a), DQ(b) -> Mul -> Q, b of a's shape or one value per channel
           (squeeze-excitation's x * gate): rescale(mul(rescale(a, 1, za),
           rescale(b, 1, zb)) : i32, as bs / ys, zy): the exact product
           rounded once.
  MatMul / Gemm (a fully connected layer): DQ(x) [-> Reshape / Flatten /
           Squeeze of x to [n, K]] -> MatMul(DQ(w int8 [K, N], per tensor
           or column)) ->
           Add(DQ(b int32 [N])) -> [Relu | Clip] -> Q, or Gemm(DQ(x) or its
           flatten, DQ(w), DQ(b)) -> ...: the Conv form over x as it
           stands, one kernel per column covering the whole map (x [n, C,
           H, W], K = C H W in ONNX's flatten order; a 1xKx1x1 pool result:
           a 1x1 convolution), its NHWC [n, 1, 1, N] result reshaped to the
           product's shape. No reshape of x is left: the accelerator reads
           the map it wrote (NVIDIA's compiler maps InnerProduct onto the
           convolution core the same way).
  MatMul of two activations: DQ(a), DQ(b) -> MatMul -> Q: the integer
           product rescaled once (qdq_attention.py: attention's q k^T, p v).
  A head split: DQ(qkv FC) -> Reshape [n, T, 3, H, d] -> Transpose [2, 0,
           3, 1, 4] -> per part Slice / Squeeze or Gather [-> Mul] [->
           Transpose] -> Q: channel slices of the FC's map, each head on
           whole channel atoms (the FC widened by zero kernels), one
           requantization per part (qdq_heads.py).
  AveragePool, GlobalAveragePool: avg_pool2d on i8 with input and output
           zero points (+ rescale unless the scales are equal). TOSA
           averages over the window's elements inside the input, as ONNX
           with count_include_pad = 0; with count_include_pad = 1 and
           padding the group stays on the float path. TOSA rounds the mean
           half away from zero, onnxruntime half to even: a tie (mean k + 1/2,
           only with an even element count) may differ by one LSB.

Quantized tensors stay in TOSA's signed form (int8; uint8 - 128, zero
point - 128) between fused groups. A fused result read by anything else (a
DequantizeLinear, a float op, a graph output) gets its ONNX type back.
Every other DQ -> float op -> Q stays on the float path. A DequantizeLinear
whose readers are all fused is converted only if something else asks.
"""

import numpy as np

from .builder import Value
from .context import Context, TO_NCHW, TO_NHWC
from . import ops_nn, ops_quant, qdq_affine, qdq_attention, qdq_heads, qdq_layernorm, qdq_table

Q, DQ = "QuantizeLinear", "DequantizeLinear"
INT8 = (np.dtype(np.int8), np.dtype(np.uint8))


# Views of a feature map [n, C, 1, W] that another tensor is without
# moving a value (a transformer's tokens are the map's W pixels of C
# channels): the i8 Value of such a tensor is the map itself, so that
# the groups reading it are NVDLA layers over the map and the reshapes /
# transposes between map and tokens (LAYOUTS) move nothing.
VIEWS = (None, "cw", "tokens", "nhwc")  # [n, C, 1, W], [n, C, W], [n, W, C], [n, 1, W, C]
LAYOUTS = ("Reshape", "Transpose", "Squeeze", "Unsqueeze")


def view_shape(shape, view):
    n, c, _, w = shape
    return {None: tuple(shape), "cw": (n, c, w), "tokens": (n, w, c), "nhwc": (n, 1, w, c)}[view]


def view_to_map(ctx, v, view):
    """The map [n, C, 1, W] of i8 Value v in `view`."""
    if view == "cw":
        return ctx.reshape(v, (v.shape[0], v.shape[1], 1, v.shape[2]))
    if view == "tokens":
        v = ctx.reshape(v, (v.shape[0], 1, v.shape[1], v.shape[2]))
    return ctx.transpose(v, TO_NCHW) if view else v


def map_to_view(ctx, v, view):
    """Map v [n, C, 1, W] as the tensor of `view`."""
    if view == "cw":
        return ctx.reshape(v, view_shape(v.shape, view))
    if view in ("tokens", "nhwc"):
        return ctx.reshape(ctx.transpose(v, TO_NHWC), view_shape(v.shape, view))
    return v


class _Reject(Exception):
    """This group does not fit a fused form: its nodes convert one by one."""


def _need(cond):
    if not cond:
        raise _Reject()


def _f32(a):
    return np.asarray(a, np.float32).reshape(-1)


def _multiplier64(m):
    """(M, shift) of a float64 scale, M a 31-bit multiplier."""
    mant, exp = np.frexp(float(m))
    mult = int(round(mant * 2.0 ** 31))
    if mult == 2 ** 31:
        mult, exp = mult // 2, exp + 1
    shift = 31 - exp
    _need(2 <= shift <= 62)
    return [mult], [shift]


class Fusion:
    def __init__(self, graph, consts, opset):
        self.nodes = list(graph.node)
        self.consts = consts  # initializer name -> numpy array
        self.opset = opset
        self.outputs = {o.name for o in graph.output}
        self.producer, self.readers = {}, {}
        for i, n in enumerate(self.nodes):
            for name in n.output:
                self.producer[name] = i
            for name in n.input:
                self.readers.setdefault(name, []).append(i)
        self.groups = {}  # index of the group's Q -> (op type, its index, params, Q's params)
        self.owner = {}  # fused node other than a Q -> its group's Q
        self.signed = {}  # tensor -> (i8 Value, ONNX dtype)
        # tensor -> its view (VIEWS) when its i8 Value is the NCHW feature
        # map [n, C, 1, W] of a tensor of another shape (tokens).
        self.views = {}
        self._read = []  # the views of the tensors the group being written reads
        # A head split's FC (its Q's index) -> (groups, dim, padded dim):
        # its weights widened so each group's dim columns start on an atom
        # (qdq_heads.py); a part's Q -> the nodes the first part holds and
        # its fallback converts too.
        self.pads, self.shared = {}, {}
        self._q_index = None
        for i, n in enumerate(self.nodes):
            kind = {"Conv": self._conv, "Add": self._add, "Mul": self._mul, "MaxPool": self._pool,
                    "AveragePool": self._pool, "GlobalAveragePool": self._pool,
                    "Resize": self._resize, "Upsample": self._resize,
                    "MatMul": self._fc, "Gemm": self._fc, "Concat": self._concat,
                    "Reshape": self._layout, "Transpose": self._layout, "Squeeze": self._layout,
                    "Unsqueeze": self._layout}.get(n.op_type)
            if n.op_type in qdq_affine.ANCHORS:
                kind = lambda i: qdq_affine.match(self, i)
            if n.op_type in qdq_table.FUNCTIONS:
                kind = lambda i: qdq_table.match(self, i)
            if n.op_type == "ReduceMean":
                kind = lambda i: qdq_layernorm.match(self, i)
            if kind is None or i in self.owner:
                continue  # (a node an earlier group holds: a swish's product)
            if n.op_type == "Reshape":
                try:
                    for q, members, params in qdq_heads.match(self, i):
                        self.groups[q[0]] = (qdq_heads.GROUP, i, params, q)
                        self.owner.update((m, q[0]) for m in members)
                    continue
                except _Reject:
                    pass
            group = n.op_type
            try:
                if n.op_type == "Mul":
                    # By a constant: an affine map (qdq_affine.py); of two
                    # activations: a product.
                    try:
                        q, members, params = qdq_affine.match(self, i)
                        group = qdq_affine.AFFINE_MUL
                    except _Reject:
                        q, members, params = kind(i)
                elif n.op_type == "MatMul":
                    # By a constant: a fully connected layer; of two
                    # activations: attention's product (qdq_attention.py).
                    try:
                        q, members, params = kind(i)
                    except _Reject:
                        q, members, params = qdq_attention.match(self, i)
                        group = qdq_attention.GROUP
                else:
                    q, members, params = kind(i)
            except _Reject:
                continue
            self.groups[q[0]] = (group, i, params, q)
            self.owner.update((m, q[0]) for m in members)
        # DequantizeLinear nodes read only by fused nodes: converted on demand.
        self.deferred = {}
        for i, n in enumerate(self.nodes):
            if n.op_type == DQ and n.output[0] not in self.outputs and \
                    all(r in self.owner for r in self.readers.get(n.output[0], [])):
                self.deferred[n.output[0]] = i

    # -- matching (ONNX graph only) ----------------------------------------

    def _const(self, name):
        return np.asarray(self.consts[name]) if name in self.consts else None

    def _single_reader(self, name):
        r = self.readers.get(name, [])
        _need(len(r) == 1 and name not in self.outputs)
        return r[0]

    def _attrs(self, n):
        from onnx import helper
        return {a.name: helper.get_attribute_value(a) for a in n.attribute}

    def _dq(self, name, const=False):
        """A DequantizeLinear producing `name`: (input, scale, zero point)."""
        i = self.producer.get(name)
        _need(i is not None and self.nodes[i].op_type == DQ and name not in self.outputs)
        n = self.nodes[i]
        _need(not self._attrs(n).get("block_size", 0))
        scale = self._const(n.input[1])
        zp = self._const(n.input[2]) if len(n.input) > 2 and n.input[2] else None
        _need(scale is not None and scale.dtype == np.float32 and scale.ndim <= 1)
        _need((len(n.input) <= 2 or not n.input[2]) or zp is not None)
        x = self._const(n.input[0])
        _need((x is not None) == const)
        return n, x, scale, zp

    def _act(self, name):
        n, _, scale, zp = self._dq(name)
        _need(scale.size == 1 and (zp is None or (zp.size == 1 and zp.dtype in INT8)))
        return n.input[0], float(_f32(scale)[0]), zp

    def _q(self, name):
        """The single QuantizeLinear reading `name`: (index, scale, zp)."""
        i = self._single_reader(name)
        n = self.nodes[i]
        _need(n.op_type == Q and n.input[0] == name)
        a = self._attrs(n)
        _need(not a.get("block_size", 0) and a.get("output_dtype", 0) in (0, 2, 3))
        scale = self._const(n.input[1])
        zp = self._const(n.input[2]) if len(n.input) > 2 and n.input[2] else None
        _need(scale is not None and scale.dtype == np.float32 and scale.size == 1)
        if zp is None:
            _need(len(n.input) <= 2 or not n.input[2])
            zp = np.zeros((), np.int8 if a.get("output_dtype") == 3 else np.uint8)
        _need(zp.size == 1 and zp.dtype in INT8)
        return i, float(_f32(scale)[0]), zp.reshape(())

    def _activation(self, i):
        """An optional Relu / Clip after node i, then its Q."""
        out = self.nodes[i].output[0]
        r = self._single_reader(out)
        n = self.nodes[r]
        if n.op_type == "Relu":
            return self._q(n.output[0]), [r], ("relu",)
        if n.op_type == "Clip":
            if self.opset < 11:
                a = self._attrs(n)
                lo, hi = a.get("min", -np.inf), a.get("max", np.inf)
            else:
                bounds = []
                for name, default in zip(list(n.input[1:3]) + ["", ""], (-np.inf, np.inf)):
                    v = self._const(name) if name else np.array(default)
                    _need(v is not None and v.size == 1)
                    bounds.append(float(v.reshape(-1)[0]))
                lo, hi = bounds
            return self._q(n.output[0]), [r], ("clip", lo, hi)
        return self._q(out), [], None

    def _conv(self, i):
        n = self.nodes[i]
        x, xs, xzp = self._act(n.input[0])
        dqw, w, ws, wzp = self._dq(n.input[1], const=True)
        _need(w.dtype in INT8 and w.ndim == 4)
        _need(ws.size == 1 or (ws.size == w.shape[0] and self._attrs(dqw).get("axis", 1) % 4 == 0))
        _need(wzp is None or (wzp.dtype == w.dtype and wzp.size in (1, ws.size)))
        if wzp is not None and np.any(wzp != wzp.reshape(-1)[0]):
            # Per-channel weight zero points: _conv_integer subtracts them in int8.
            diff = w.astype(np.int32) - wzp.astype(np.int32).reshape(-1, 1, 1, 1)
            _need(diff.min() >= -128 and diff.max() <= 127)
        bias = None
        if len(n.input) > 2 and n.input[2]:
            _, bias, bs, bzp = self._dq(n.input[2], const=True)
            _need(bias.dtype == np.int32 and bias.shape == (w.shape[0],))
            _need(bzp is None or not np.any(bzp))
            want = np.broadcast_to(np.float32(xs) * _f32(ws), (w.shape[0],))
            _need(np.allclose(np.broadcast_to(_f32(bs), want.shape), want, rtol=1e-5, atol=0))
        q, extra, act = self._activation(i)
        return q, [i] + extra, (x, xs, xzp, w, ws, wzp, bias, act)

    def _add(self, i):
        n = self.nodes[i]
        a = self._act(n.input[0])
        b = self._act(n.input[1])
        q, extra, act = self._activation(i)
        _need(act is None or act[0] == "relu")
        return q, [i] + extra, (a, b, act)

    def _mul(self, i):
        n = self.nodes[i]
        return self._q(n.output[0]), [i], (self._act(n.input[0]), self._act(n.input[1]))

    def _pool(self, i):
        n = self.nodes[i]
        _need(len(n.input) >= 1 and (len(n.output) == 1 or not n.output[1]))
        x = self._act(n.input[0])
        return self._q(n.output[0]), [i], (x,)

    def _fc(self, i):
        """A fully connected layer (see the module's docstring): (x, xs,
        xzp, w [N, K], ws, wzp, bias, act, the Reshape / Flatten or None)."""
        n = self.nodes[i]
        a = self._attrs(n)
        _need(not a.get("transA", 0) and a.get("alpha", 1.0) == 1.0 and a.get("beta", 1.0) == 1.0)
        src, members, flat = n.input[0], [i], None
        p = self.producer.get(src)
        if p is not None and self.nodes[p].op_type in ("Reshape", "Flatten", "Squeeze"):
            _need(self._single_reader(src) == i)
            flat, src = p, self.nodes[p].input[0]
            members.append(p)
        x, xs, xzp = self._act(src)
        dqw, w, ws, wzp = self._dq(n.input[1], const=True)
        _need(w.dtype in INT8 and w.ndim == 2)
        cols = 0 if a.get("transB", 0) else 1  # the axis of B's N output columns
        _need(ws.size == 1 or (ws.size == w.shape[cols] and self._attrs(dqw).get("axis", 1) % 2 == cols))
        _need(wzp is None or (wzp.dtype == w.dtype and wzp.size in (1, ws.size)))
        w = np.ascontiguousarray(w if cols == 0 else w.T)  # [N, K]
        bias_name, out = None, i
        if n.op_type == "Gemm":
            bias_name = n.input[2] if len(n.input) > 2 and n.input[2] else None
        else:
            r = self._single_reader(n.output[0])
            add = self.nodes[r]
            if add.op_type == "Add":
                bias_name = add.input[1] if add.input[0] == n.output[0] else add.input[0]
                members.append(r)
                out = r
        bias = None
        if bias_name:
            _, bias, bs, bzp = self._dq(bias_name, const=True)
            _need(bias.dtype == np.int32 and bias.size == w.shape[0])
            _need(bzp is None or not np.any(bzp))
            bias = bias.reshape(-1)
            want = np.broadcast_to(np.float32(xs) * _f32(ws), (w.shape[0],))
            _need(np.allclose(np.broadcast_to(_f32(bs), want.shape), want, rtol=1e-5, atol=0))
        q, extra, act = self._activation(out)
        return q, members + extra, (x, xs, xzp, w, ws, wzp, bias, act, flat)

    def _resize(self, i):
        """DQ -> nearest Resize -> Q, quantized alike on both sides: the
        Q reproduces each copied value exactly."""
        n = self.nodes[i]
        mode = self._attrs(n).get("mode", b"nearest")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        _need(mode in ("nearest", "linear"))
        x, xs, xzp = self._act(n.input[0])
        q = self._q(n.output[0])
        if mode == "linear":
            # The sum of the weighted values is exact in i32 without the
            # zero point; a nonzero one would need a host add.
            xz = 0 if xzp is None else int(xzp.reshape(())) - (128 if xzp.dtype == np.uint8 else 0)
            _need(xz == 0)
            return q, [i], (x, xzp, list(n.input[1:]), xs)
        _need(np.float32(xs) == np.float32(q[1]))
        xz = np.zeros((), q[2].dtype) if xzp is None else xzp.reshape(())
        _need(xz.dtype == q[2].dtype and int(xz) == int(q[2]))
        return q, [i], (x, xzp, list(n.input[1:]), None)

    def _concat(self, i):
        """Concat along channels (axis 1 of NCHW) -> Q: each part quantized
        to the output's scale alone (Q distributes over a concatenation).
        A part that is a DQ: (input, scale, zero point); a float part:
        (name, None, None), quantized by QuantizeLinear's own conversion."""
        n = self.nodes[i]
        _need(self._attrs(n).get("axis") in (1, -3))
        parts = []
        for name in n.input:
            try:
                parts.append(self._act(name))
            except _Reject:
                _need(name not in self.consts)
                parts.append((name, None, None))
        _need(any(p[1] is not None for p in parts))
        return self._q(n.output[0]), [i], (parts,)

    def _layout(self, i):
        """DQ -> Reshape / Transpose / Squeeze / Unsqueeze -> Q quantized
        alike on both sides (qdq.carried_layouts): the i8 tensor moved,
        exactly; between the map and its views (VIEWS) nothing moves."""
        n = self.nodes[i]
        x, xs, xzp = self._act(n.input[0])
        q = self._q(n.output[0])
        _need(np.float32(xs) == np.float32(q[1]))
        xz = np.zeros((), q[2].dtype) if xzp is None else xzp.reshape(())
        _need(xz.dtype == q[2].dtype and int(xz) == int(q[2]))
        return q, [i], (x, xzp, i)

    # -- emission ------------------------------------------------------------

    def signed_input(self, ctx, get, name, zp, views=(None,)):
        """(i8 Value NCHW, signed zero point) of quantized tensor `name`,
        whose view (VIEWS; None: the map itself) must be one of `views`. A
        rank-3 tensor from outside the fused groups is read as tokens."""
        if name not in self.signed:
            v = get(name)
            _need(isinstance(v, Value) and v.dtype in INT8)
            s, _ = ops_quant._signed(ctx, v, 0)
            if s.rank == 3:
                s = view_to_map(ctx, s, "tokens")
                self.views[name] = "tokens"
            self.signed[name] = (s, v.dtype)
        v, dtype = self.signed[name]
        _need(self.views.get(name) in views)
        self._read.append(self.views.get(name))
        zp = np.zeros((), dtype) if zp is None else zp
        _need(zp.dtype == dtype)
        return v, int(zp.reshape(-1)[0]) - (128 if dtype == np.uint8 else 0)

    def materialize(self, ctx, name):
        v, dtype = self.signed[name]
        view = self.views.get(name)
        if qdq_heads.is_view(view):
            v = qdq_heads.materialize(ctx, v, view)
        elif view:
            v = map_to_view(ctx, v, view)
        return ops_quant._unsigned(ctx, v, dtype)

    def emit(self, b, q_index, get):
        """Writes group q_index; False when it does not fit after all (its
        nodes then convert one by one; what was written is dropped)."""
        kind, anchor, params, (_, ys, yzp) = self.groups[q_index]
        ctx = Context(b, self.nodes[anchor], [], self.opset)
        yz = int(yzp) - (128 if yzp.dtype == np.uint8 else 0)
        mark, signed, views = len(b.lines), dict(self.signed), dict(self.views)
        self._read, self._out_view, self._q_index = [], (), q_index
        try:
            if kind == qdq_heads.GROUP:
                y = qdq_heads.emit_part(self, ctx, get, params, ys, yz)
            elif kind == "Conv":
                y = self._emit_conv(ctx, get, params, ys, yz)
            elif kind == "Add":
                y = self._emit_add(ctx, get, params, ys, yz)
            elif kind in ("Resize", "Upsample"):
                y = self._emit_resize(ctx, get, params, ys, yz)
            elif kind == "Mul":
                y = self._emit_mul(ctx, get, params, ys, yz)
            elif kind == qdq_attention.GROUP:
                y = qdq_attention.emit(self, ctx, get, params, ys, yz)
            elif kind in ("MatMul", "Gemm"):
                y = self._emit_fc(ctx, get, params, ys, yz)
            elif kind == "Concat":
                y = self._emit_concat(b, q_index, get, params, ys, yz)
            elif kind in LAYOUTS:
                y = self._emit_layout(ctx, get, params)
            elif kind in qdq_affine.ANCHORS or kind == qdq_affine.AFFINE_MUL:
                y = qdq_affine.emit(self, ctx, get, params, ys, yz)
            elif kind in qdq_table.FUNCTIONS:
                y = qdq_table.emit(self, ctx, get, params, ys, yz)
            elif kind == "ReduceMean":
                y = qdq_layernorm.emit(self, ctx, get, params, ys, yz)
            else:
                y = self._emit_pool(ctx, get, kind, params, ys, yz)
        except _Reject:
            del b.lines[mark:]
            b._cache.clear()  # it may name dropped constants (a cache only)
            self.signed, self.views = signed, views
            self.pads.pop(q_index, None)  # a fallback's FC: unwidened
            return False
        out = self.nodes[q_index].output[0]
        self.signed[out] = (y, yzp.dtype)
        # The result's view: the emitter's, else the first input's (an
        # element-wise group keeps its operands' view).
        view = self._out_view[0] if self._out_view else (self._read[0] if self._read else None)
        if view:
            self.views[out] = view
        return True

    def _clamp(self, ctx, y, act, ys, yz):
        if act is None:
            return y
        lo, hi = -128, 127
        if act[0] == "relu":
            lo = yz
        else:
            with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
                qlo, qhi = (np.rint(np.float32(v) / np.float32(ys)) + yz for v in act[1:])
            lo, hi = int(np.clip(qlo, -128, 127)), int(np.clip(qhi, -128, 127))
        return ctx.clamp(y, lo, hi)

    def _emit_conv(self, ctx, get, params, ys, yz):
        x, xs, xzp, w, ws, wzp, bias, act = params
        xv, xz = self.signed_input(ctx, get, x, xzp)
        _need(xv.rank == 4)
        wzp = np.zeros((1,), w.dtype) if wzp is None else wzp
        # onnxruntime's multiplier: (x_scale * w_scale) / y_scale in f32.
        m = (np.float32(xs) * _f32(ws) / np.float32(ys)).astype(np.float32)
        _need(self._ok(m))
        mult, shift = ops_quant._multiplier(ctx, m)
        acc = ops_quant._conv_integer(ctx, xv, np.array(xz), w, wzp, bias)
        y = ops_quant._rescale(ctx, acc, np.int8, mult, shift, out_zp=yz)
        return ctx.transpose(self._clamp(ctx, y, act, ys, yz), TO_NCHW)

    def _flat_shape(self, get, flat, shape):
        """The shape Reshape / Flatten / Squeeze node `flat` gives an input
        of `shape`."""
        node = self.nodes[flat]
        a = self._attrs(node)
        if node.op_type == "Flatten":
            axis = a.get("axis", 1) % len(shape)
            return (int(np.prod(shape[:axis])), int(np.prod(shape[axis:])))
        if node.op_type == "Squeeze":
            axes = a.get("axes") if len(node.input) < 2 or not node.input[1] else get(node.input[1])
            _need(not isinstance(axes, Value))
            axes = [d for d in range(len(shape)) if shape[d] == 1] if axes is None else \
                [int(d) % len(shape) for d in np.asarray(axes).reshape(-1)]
            _need(all(shape[d] == 1 for d in axes))
            return tuple(d for k, d in enumerate(shape) if k not in axes)
        s = get(node.input[1])
        _need(not isinstance(s, Value))
        s = [int(d) for d in np.asarray(s).reshape(-1)]
        if not a.get("allowzero", 0):
            s = [shape[k] if d == 0 and k < len(shape) else d for k, d in enumerate(s)]
        if s.count(-1) == 1:
            rest = int(np.prod([d for d in s if d != -1]))
            _need(rest > 0)
            s[s.index(-1)] = int(np.prod(shape)) // rest
        _need(all(d >= 0 for d in s) and int(np.prod(s)) == int(np.prod(shape)))
        return tuple(s)

    def _emit_layout(self, ctx, get, params):
        """The map as it stands, in the view the node gives it; a move
        that is no view of a map of one row is rejected (stays on the
        host)."""
        x, xzp, i = params
        view, node = self.views.get(x), self.nodes[i]
        if qdq_heads.is_view(view):
            xv, _ = self.signed_input(ctx, get, x, xzp, views=(view,))
            self._out_view = (qdq_heads.move(self, get, i, view, xv),)
            return xv
        xv, _ = self.signed_input(ctx, get, x, xzp, views=VIEWS)
        _need(xv.rank == 4 and xv.shape[2] == 1)
        shape = view_shape(xv.shape, view)
        if node.op_type == "Transpose":
            perm = tuple(self._attrs(node).get("perm", tuple(reversed(range(len(shape))))))
            moves = {("cw", (0, 2, 1)): "tokens", ("tokens", (0, 2, 1)): "cw",
                     ("nhwc", (0, 3, 1, 2)): None, (None, (0, 2, 3, 1)): "nhwc"}
            _need((view, perm) in moves)
            self._out_view = (moves[(view, perm)],)
            return xv
        if node.op_type == "Unsqueeze":
            a = self._attrs(node)
            axes = a.get("axes") if len(node.input) < 2 or not node.input[1] else get(node.input[1])
            _need(axes is not None and not isinstance(axes, Value))
            out = list(shape)
            for d in sorted(int(d) % (len(shape) + np.size(axes)) for d in np.asarray(axes).reshape(-1)):
                out.insert(d, 1)
            out = tuple(out)
        else:
            out = tuple(self._flat_shape(get, i, shape))
        # Unit dimensions only: the same values in the same order.
        _need([d for d in out if d != 1] == [d for d in shape if d != 1])
        family = (None, "cw") if view in (None, "cw") else ("tokens", "nhwc")
        found = [v for v in family if view_shape(xv.shape, v) == out]
        _need(len(found) >= 1)
        self._out_view = (found[0],)
        return xv

    def _emit_fc(self, ctx, get, params, ys, yz):
        """The fully connected layer as a convolution whose kernels cover
        its input map (see the module's docstring); over tokens (a [n, T,
        K] input, the map [n, K, 1, T]) a 1x1 convolution of the map."""
        x, xs, xzp, w, ws, wzp, bias, act, flat = params
        view = self.views.get(x)
        if qdq_heads.is_view(view) and view[1] == "tokens" and flat is None:
            # Heads joined back into tokens, each on whole atoms: the
            # weight's rows widened by zero rows at the pad channels.
            xv, xz = self.signed_input(ctx, get, x, xzp, views=(view,))
            w = qdq_heads.widen_rows(w, view)
            self.views[x] = "tokens"
            try:
                y = self._emit_fc(ctx, get, (x, xs, xzp, w, ws, wzp, bias, act, flat), ys, yz)
            finally:
                self.views[x] = view
            self._out_view = self._out_view or ("tokens",)
            return y
        xv, xz = self.signed_input(ctx, get, x, xzp, views=(None, "tokens"))
        kernels, k = w.shape
        if self.views.get(x) == "tokens":
            _need(flat is None and xv.shape[1] == k)
            wzp = np.zeros((1,), w.dtype) if wzp is None else wzp
            pad = self.pads.get(self._q_index)
            if pad:
                # A head split reads it: each head on whole channel atoms.
                groups, dim, pd = pad
                _need(kernels == groups * dim)
                w, ws, wzp, bias = qdq_heads.widen(w, ws, wzp, bias, groups, dim, pd)
                kernels = groups * pd
                self._out_view = (("heads", "tokens", groups, dim, pd),)
            m = (np.float32(xs) * _f32(ws) / np.float32(ys)).astype(np.float32)
            _need(self._ok(m))
            mult, shift = ops_quant._multiplier(ctx, m)
            acc = ops_quant._conv_integer(ctx, xv, np.array(xz), w.reshape(kernels, k, 1, 1), wzp, bias)
            y = ops_quant._rescale(ctx, acc, np.int8, mult, shift, out_zp=yz)
            return ctx.transpose(self._clamp(ctx, y, act, ys, yz), TO_NCHW)
        if xv.rank == 2:
            a_shape = xv.shape
            xv = ctx.reshape(xv, xv.shape + (1, 1))
        else:
            _need(xv.rank == 4 and flat is not None)
            a_shape = self._flat_shape(get, flat, xv.shape)
        _need(len(a_shape) >= 2 and a_shape[-1] == k and int(np.prod(a_shape[:-1])) == xv.shape[0])
        _need(int(np.prod(xv.shape[1:])) == k)
        wzp = np.zeros((1,), w.dtype) if wzp is None else wzp
        m = (np.float32(xs) * _f32(ws) / np.float32(ys)).astype(np.float32)
        _need(self._ok(m))
        mult, shift = ops_quant._multiplier(ctx, m)
        # K = C H W in ONNX's flatten order: the kernels are w as OIHW.
        acc = ops_quant._conv_integer(ctx, xv, np.array(xz), w.reshape((kernels,) + xv.shape[1:]),
                                      wzp, bias)
        y = ops_quant._rescale(ctx, acc, np.int8, mult, shift, out_zp=yz)
        return ctx.reshape(self._clamp(ctx, y, act, ys, yz), a_shape[:-1] + (kernels,))

    @staticmethod
    def _ok(m):
        m = np.asarray(m, np.float64)
        # tosa.rescale's shifts 2..62 with a 31-bit multiplier.
        return bool(np.all(np.isfinite(m)) and np.all(m >= 2.0 ** -32) and np.all(m < 2.0 ** 29))

    def _emit_add(self, ctx, get, params, ys, yz):
        (a, as_, azp), (b_, bs, bzp), act = params
        av, az = self.signed_input(ctx, get, a, azp, views=VIEWS)
        bv, bz = self.signed_input(ctx, get, b_, bzp, views=VIEWS)
        _need(self.views.get(a) == self.views.get(b_))
        big = max(as_, bs)
        parts = []
        for v, s, z in ((av, as_, az), (bv, bs, bz)):
            mult, shift = _multiplier64(s / big * 2.0 ** 20)
            parts.append(ops_quant._rescale(ctx, v, np.int32, mult, shift, in_zp=z))
        _need(self._ok(big / ys * 2.0 ** -20))
        mult, shift = _multiplier64(big / ys * 2.0 ** -20)
        s = ctx.binary("add", parts[0], parts[1])
        y = ops_quant._rescale(ctx, s, np.int8, mult, shift, out_zp=yz)
        return self._clamp(ctx, y, act, ys, yz)

    def _emit_resize(self, ctx, get, params, ys, yz):
        """The Resize's own conversion (ops_shape.resize) on the signed i8
        tensor: nearest picks elements, whatever their type; linear gives
        TOSA's i32 interpolation times `unit`, rescaled once."""
        from . import ops_shape
        from .context import ImportError_
        x, xzp, rest, xs = params
        xv, _ = self.signed_input(ctx, get, x, xzp)
        ctx.inputs = [xv] + [get(name) if name else None for name in rest]
        try:
            y, = ops_shape.resize(ctx)
        except ImportError_:
            raise _Reject()
        if xs is None:
            _need(isinstance(y, Value) and y.dtype == np.int8)
            return y
        _need(isinstance(y, Value) and y.dtype == np.int32)
        m = np.float64(np.float32(xs)) / np.float64(np.float32(ys)) / y.unit
        _need(self._ok(m))
        mult, shift = _multiplier64(m)
        r = ops_quant._rescale(ctx, y, np.int8, [mult], [shift], out_zp=yz)
        return ctx.transpose(r, TO_NCHW)

    def _emit_concat(self, b, q_index, get, params, ys, yz):
        """tosa.concat (NCHW, axis 1) of the parts, each at the output's
        quantization: as it is when quantized alike, else a tosa.rescale
        (i8 -> i8: an offline SDP pass on NVDLA; rounds ties up where ONNX
        rounds them to even: one LSB on an exact tie), a float part by
        QuantizeLinear's exact conversion (on the host)."""
        (parts,) = params
        qnode = self.nodes[q_index]
        ctx = Context(b, qnode, [], self.opset)
        values = []
        for name, xs, xzp in parts:
            if xs is None:
                x = get(name)
                _need(isinstance(x, Value) and x.rank == 4 and
                      x.dtype in (np.dtype(np.float32), np.dtype(np.float16)))
                qctx = Context(b, qnode, [x] + [get(q) if q else None for q in qnode.input[1:]],
                               self.opset)
                v, = ops_quant.quantize_linear(qctx)
                v, _ = ops_quant._signed(ctx, v, 0)
                values.append(v)
                continue
            xv, xz = self.signed_input(ctx, get, name, xzp)
            _need(xv.rank == 4)
            if np.float32(xs) != np.float32(ys) or xz != yz:
                m = np.float32(np.float32(xs) / np.float32(ys))
                _need(self._ok(m))
                mult, shift = ops_quant._multiplier(ctx, m)
                # In NHWC, as every rescale the converter reads (channels last).
                xv = ctx.transpose(ops_quant._rescale(ctx, ctx.transpose(xv, TO_NHWC), np.int8, mult,
                                                      shift, in_zp=xz, out_zp=yz), TO_NCHW)
            values.append(xv)
        shape = list(values[0].shape)
        _need(all(v.rank == 4 and list(v.shape[:1]) + list(v.shape[2:]) ==
                  shape[:1] + shape[2:] for v in values))
        shape[1] = sum(v.shape[1] for v in values)
        return b.op("tosa.concat %s {axis = 1 : i32} : (%s) -> $TYPE"
                    % (", ".join(v.name for v in values), ", ".join(v.type for v in values)),
                    tuple(shape), np.int8)

    def _emit_mul(self, ctx, get, params, ys, yz):
        """The product of two quantized maps, or of a map and one value per
        channel (the squeeze-excitation's scaling), exact in i32 and
        rescaled once: QuantizedProducts.cpp's form."""
        (a, as_, azp), (b_, bs, bzp) = params
        av, az = self.signed_input(ctx, get, a, azp, views=VIEWS)
        bv, bz = self.signed_input(ctx, get, b_, bzp, views=VIEWS)
        _need(av.rank == 4 and bv.rank == 4 and self.views.get(a) == self.views.get(b_))
        if av.shape[2:] == (1, 1) and bv.shape[2:] != (1, 1):
            (av, az, as_), (bv, bz, bs) = (bv, bz, bs), (av, az, as_)
        if av.shape != bv.shape:
            _need(bv.shape == (av.shape[0], av.shape[1], 1, 1) and av.shape[0] == 1)
        parts = [ops_quant._rescale(ctx, ctx.transpose(v, TO_NHWC), np.int32, [1 << 30], [30],
                                    in_zp=z) for v, z in ((av, az), (bv, bz))]
        m = np.float32(np.float64(np.float32(as_)) * np.float32(bs) / np.float32(ys))
        _need(self._ok(m))
        mult, shift = ops_quant._multiplier(ctx, m)
        p = ctx.binary("mul", parts[0], parts[1])
        y = ops_quant._rescale(ctx, p, np.int8, mult, shift, out_zp=yz)
        return ctx.transpose(y, TO_NCHW)

    def _emit_pool(self, ctx, get, kind, params, ys, yz):
        (x, xs, xzp), = params
        xv, xz = self.signed_input(ctx, get, x, xzp)
        _need(xv.rank == 4)
        if kind == "GlobalAveragePool":
            kernel, strides, pad, out, crop = list(xv.shape[2:]), [1, 1], [0, 0, 0, 0], [1, 1], [0, 0]
        else:
            kernel = list(ctx.attr("kernel_shape"))
            strides = list(ctx.attr("strides", [1, 1]))
            _need(list(ctx.attr("dilations", [1, 1])) == [1, 1] and len(kernel) == 2)
            pad, out, crop = ops_nn._window(ctx, xv.shape, kernel, strides, [1, 1],
                                            bool(ctx.attr("ceil_mode", 0)))
            _need(all(p < k for p, k in zip(pad, (kernel[0], kernel[0], kernel[1], kernel[1]))))
            # TOSA counts only the elements inside the input.
            _need(kind == "MaxPool" or not ctx.attr("count_include_pad", 0) or not any(pad))
        same = np.float32(xs) == np.float32(ys)
        m = np.float32(np.float32(xs) / np.float32(ys))
        _need(same or self._ok(m))
        b = ctx.b
        xt = ops_nn._crop(ctx, ctx.transpose(xv, TO_NHWC), crop)
        shape = (xt.shape[0], out[0], out[1], xt.shape[3])
        attrs = "kernel = array<i64: %s>, pad = array<i64: %s>, stride = array<i64: %s>" % (
            ops_nn._ints(kernel), ops_nn._ints(pad), ops_nn._ints(strides))
        if kind == "MaxPool":
            y = b.op("tosa.max_pool2d %s {%s} : (%s) -> $TYPE" % (xt.name, attrs, xt.type), shape, np.int8)
            rescale = not same or xz != yz
        else:
            # Unequal scales: the mean keeps x's zero point (no saturation), then a rescale.
            izp = b.const(np.array([xz], np.int8))
            ozp = b.const(np.array([yz if same else xz], np.int8))
            y = b.op("tosa.avg_pool2d %s, %s, %s {acc_type = i32, %s} : (%s, %s, %s) -> $TYPE"
                     % (xt.name, izp.name, ozp.name, attrs, xt.type, izp.type, ozp.type), shape, np.int8)
            rescale = not same
        if rescale:
            mult, shift = ops_quant._multiplier(ctx, m)
            y = ops_quant._rescale(ctx, y, np.int8, mult, shift, in_zp=xz, out_zp=yz)
        return ctx.transpose(y, TO_NCHW)
