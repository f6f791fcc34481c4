"""What an op converter sees: the builder, the node, its inputs as TOSA
values or as known constants (numpy arrays), and helpers shared by the op
families. Inputs whose values are known at import time (initializers,
Constant nodes, shapes, and everything computed only from them) stay numpy
arrays: that is how Shape -> Slice -> Concat -> Reshape subgraphs fold."""

import numpy as np
from onnx import helper

from .builder import ImportError_, Value

# TOSA is NHWC; ONNX is NCHW.
TO_NHWC = (0, 2, 3, 1)
TO_NCHW = (0, 3, 1, 2)
F32_MAX = float(np.finfo(np.float32).max)


def op_registry(table):
    """The decorator of an op family: @op("Name", ...) enters the converter
    in `table` (the family's OPS) under each ONNX op type."""
    def op(*names):
        def register(fn):
            for n in names:
                table[n] = fn
            return fn
        return register
    return op


class Context:
    def __init__(self, builder, node, inputs, opset):
        self.b = builder
        self.node = node
        self.inputs = inputs  # Value, np.ndarray or None (omitted optional)
        self.opset = opset
        self.attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}

    # -- errors and attributes ---------------------------------------------

    def fail(self, why):
        raise ImportError_("node '%s' (%s): %s" % (self.node.name or self.node.output[0],
                                                   self.node.op_type, why))

    def attr(self, name, default=None):
        v = self.attrs.get(name, default)
        if isinstance(v, bytes):
            try:
                v = v.decode()
            except UnicodeDecodeError:
                self.fail("attribute '%s' is not UTF-8 text" % name)
        return v

    def axes(self, values, rank, what="axes"):
        """`values` (a list or an array, any shape) as distinct axes of a
        rank-`rank` tensor in 0..rank-1; an error names them otherwise."""
        a = np.asarray(values)
        if a.size and a.dtype.kind not in "iu":
            self.fail("%s must be integers, not %s" % (what, a.dtype))
        axes = [int(v) for v in a.reshape(-1)]
        if any(not -rank <= v < rank for v in axes) or len({v % rank for v in axes}) != len(axes):
            self.fail("%s %s are not distinct axes of a rank-%d input" % (what, axes, rank))
        return [v % rank for v in axes]

    def input(self, i):
        return self.inputs[i] if i < len(self.inputs) else None

    def const_input(self, i, what):
        v = self.input(i)
        if v is None:
            return None
        if isinstance(v, Value):
            self.fail("%s must be known at import time (a constant or a shape computation)" % what)
        return v

    # -- values --------------------------------------------------------------

    def value(self, v, hint="onnx_const"):
        """`v` as a TOSA value (materializing constants)."""
        if isinstance(v, Value):
            return v
        return self.b.const(np.asarray(v), hint)

    def transpose(self, v, perms):
        shape = [v.shape[p] for p in perms]
        return self.b.op("tosa.transpose %s {perms = array<i32: %s>} : (%s) -> $TYPE"
                         % (v.name, ", ".join(str(p) for p in perms), v.type), shape, v.dtype)

    def reshape(self, v, shape):
        shape = [int(d) for d in shape]
        if tuple(shape) == v.shape:
            return v
        s = self.b.shape_value(shape)
        return self.b.op("tosa.reshape %s, %s : (%s, !tosa.shape<%d>) -> $TYPE"
                         % (v.name, s, v.type, len(shape)), shape, v.dtype)

    def cast(self, v, dtype):
        if v.dtype == np.dtype(dtype):
            return v
        return self.b.op("tosa.cast %s : (%s) -> $TYPE" % (v.name, v.type), v.shape, dtype)

    def unary(self, name, v):
        return self.b.op("tosa.%s %s : (%s) -> $TYPE" % (name, v.name, v.type), v.shape, v.dtype)

    def clamp(self, v, lo, hi):
        # ONNX's Clip: with min above max, every value becomes max.
        lo = min(lo, hi)
        if v.dtype not in (np.float32, np.float16) and v.dtype.kind not in "iu":
            self.fail("clamping %s values is not supported" % v.dtype)
        if v.dtype.kind == "f":
            inf = ("0x7F800000", "0xFF800000") if v.dtype == np.float32 else ("0x7C00", "0xFC00")
            lit = lambda x: (inf[0] if x > 0 else inf[1]) if np.isinf(x) else repr(float(x))
            suffix = " : f32" if v.dtype == np.float32 else " : f16"
            attrs = "min_val = %s%s, max_val = %s%s" % (lit(lo), suffix, lit(hi), suffix)
        else:
            info = np.iinfo(v.dtype)
            lo, hi = (int(min(max(b, info.min), info.max)) for b in (lo, hi))
            t = str(v.dtype).replace("int", "i")
            attrs = "min_val = %d : %s, max_val = %d : %s" % (lo, t, hi, t)
        return self.b.op("tosa.clamp %s {%s} : (%s) -> $TYPE" % (v.name, attrs, v.type),
                         v.shape, v.dtype)

    def same_rank(self, a, b):
        """Reshapes the lower-rank operand with leading ones (numpy broadcast)."""
        if a.rank < b.rank:
            a = self.reshape(a, (1,) * (b.rank - a.rank) + a.shape)
        elif b.rank < a.rank:
            b = self.reshape(b, (1,) * (a.rank - b.rank) + b.shape)
        return a, b

    def binary(self, name, a, b):
        """tosa.<name> with numpy broadcasting; constants match the other's type."""
        dtype = a.dtype if isinstance(a, Value) else b.dtype
        if not isinstance(a, Value):
            a = np.asarray(a, dtype=dtype)
        if not isinstance(b, Value):
            b = np.asarray(b, dtype=dtype)
        rank = max(np.ndim(a) if not isinstance(a, Value) else a.rank,
                   np.ndim(b) if not isinstance(b, Value) else b.rank)

        def lift(x):
            if isinstance(x, Value):
                return x if x.rank == rank else self.reshape(x, (1,) * (rank - x.rank) + x.shape)
            x = np.asarray(x)
            return self.value(x.reshape((1,) * (rank - x.ndim) + x.shape))

        a, b = lift(a), lift(b)
        try:
            shape = np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            self.fail("operands of shapes %s and %s do not broadcast" % (list(a.shape), list(b.shape)))
        extra = ", %s" % self.b.shift().name if name == "mul" else ""
        extra_t = ", tensor<1xi8>" if name == "mul" else ""
        out_dtype = np.bool_ if name in ("greater", "greater_equal", "equal") else a.dtype
        return self.b.op("tosa.%s %s, %s%s : (%s, %s%s) -> $TYPE"
                         % (name, a.name, b.name, extra, a.type, b.type, extra_t), shape, out_dtype)

    # -- NHWC islands ------------------------------------------------------

    def nhwc(self, v):
        """A rank-4 NCHW operand in TOSA's NHWC (constants transposed now)."""
        if isinstance(v, Value):
            return self.transpose(v, TO_NHWC)
        v = np.asarray(v)
        v = v.reshape((1,) * (4 - v.ndim) + v.shape)
        return np.ascontiguousarray(v.transpose(TO_NHWC))

    def nchw(self, v):
        return self.transpose(v, TO_NCHW)

    def in_nhwc(self, operands, fn):
        """Runs fn on NHWC versions of rank-4 (or broadcast) operands and returns
        the result back in NCHW. TOSA ops that may run on the accelerator are
        written in NHWC, TOSA's layout; the transposes between two of them
        cancel."""
        ranks = [o.rank if isinstance(o, Value) else np.ndim(o) for o in operands]
        if any(isinstance(o, Value) and o.rank != 4 for o in operands) or max(ranks) != 4:
            return fn(operands)
        return self.nchw(fn([self.nhwc(o) for o in operands]))
