"""Writes a TOSA module as MLIR text: SSA names, tensor types, constants.

Large constants go into `dense_resource` blobs (the module's resource
section), small ones are written inline so that tests stay readable.

Every op carries the location of the ONNX node it was written for,
`"name"("model.onnx":0:0)` (a NameLoc over the model file, as onnx-mlir and
torch-mlir have it), through an alias `#locN` defined after the module:
remarks and errors of every later pass name the node.
"""

import contextlib

import numpy as np

# ONNX / numpy element types -> MLIR element types.
_ELEMENT_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.float64): "f64",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int16): "i16",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.bool_): "i1",
}

# Constants with at most this many elements are written inline.
INLINE_ELEMENTS = 16


class ImportError_(Exception):
    """An error naming the ONNX node it is about."""


def element_type(dtype):
    dtype = np.dtype(dtype)
    if dtype not in _ELEMENT_TYPES:
        raise ImportError_("element type %s has no TOSA equivalent" % dtype)
    return _ELEMENT_TYPES[dtype]


def tensor_type(shape, dtype):
    dims = "".join("%dx" % d for d in shape)
    return "tensor<%s%s>" % (dims, element_type(dtype))


class Value:
    """An SSA value of the function being written."""

    def __init__(self, name, shape, dtype):
        self.name = name
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)

    @property
    def rank(self):
        return len(self.shape)


def _inline_literal(array):
    kind = array.dtype.kind

    def fmt(v):
        if kind == "b":
            return "true" if v else "false"
        if kind == "f":
            v = float(v)
            if np.isnan(v):
                return "0x7FC00000" if array.dtype == np.float32 else repr(v)
            if np.isinf(v):
                return ("0x7F800000" if v > 0 else "0xFF800000") if array.dtype == np.float32 \
                    else ("0x7C00" if v > 0 else "0xFC00")
            return repr(v)
        return str(int(v))

    if array.size == 0:
        return "dense<>"
    flat = array.reshape(-1)
    if np.all(flat == flat[0]) and not (kind == "f" and np.isnan(flat[0])):
        return "dense<%s>" % fmt(flat[0])

    def nest(a):
        if a.ndim == 0:
            return fmt(a)
        return "[" + ", ".join(nest(x) for x in a) + "]"

    return "dense<%s>" % nest(array)


def mlir_string(text):
    """`text` as an MLIR string literal (quotes, backslashes and
    non-printable bytes escaped as \\XX). Bytes are taken as they are: a
    protobuf string that is not UTF-8 (a node's name) arrives as bytes."""
    out = []
    for byte in text if isinstance(text, bytes) else text.encode("utf-8"):
        c = chr(byte)
        out.append(c if 0x20 <= byte < 0x7F and c not in '"\\' else "\\%02X" % byte)
    return '"%s"' % "".join(out)


def node_name(node, index):
    """The name a node's location carries: its own, or `<op type>_<index in
    the graph>` when it has none (stable across imports of one model)."""
    return node.name or "%s_%d" % (node.op_type, index)


class Builder:
    def __init__(self, source="model.onnx"):
        self.lines = []
        self.resources = {}
        self._count = 0
        self._cache = {}
        # The node being converted, for errors: "node 'conv1' (Conv)".
        self.node = "the graph"
        self._file = "%s:0:0" % mlir_string(source)
        self._locs = {}  # location text -> alias
        self._loc = self._alias(self._file)

    def _alias(self, text):
        if text not in self._locs:
            self._locs[text] = "#loc%d" % len(self._locs)
        return self._locs[text]

    @contextlib.contextmanager
    def at(self, name):
        """Ops written inside carry the location of node `name`."""
        saved = self._loc
        self._loc = self._alias("%s(%s)" % (mlir_string(name), self._file))
        try:
            yield
        finally:
            self._loc = saved

    def fresh(self):
        self._count += 1
        return "%%v%d" % self._count

    def emit(self, line):
        self.lines.append("    %s loc(%s)" % (line, self._loc))

    def op(self, text, shape, dtype):
        """Emits `%new = <text>` and returns the new value. A size below 1
        (but in constants) or a tensor beyond 2^31 elements is an error
        of the node being converted (`self.node`)."""
        shape = tuple(int(d) for d in shape)
        count = 1
        for d in shape:
            count *= d
        smallest = 0 if text.startswith('"tosa.const"') else 1
        if any(d < smallest for d in shape) or count > 2 ** 31 - 1:
            raise ImportError_("%s: a result of shape %s (%s)" % (
                self.node, list(shape), "TOSA has no empty tensors" if 0 in shape and count == 0
                else "sizes out of range"))
        v = Value(self.fresh(), shape, dtype)
        self.emit("%s = %s" % (v.name, text.replace("$TYPE", v.type)))
        return v

    # -- constants ---------------------------------------------------------

    def attr(self, array, hint="onnx_const", inline=False):
        """The elements attribute of a constant: inline or a resource blob."""
        array = np.require(array, requirements="C")  # ascontiguousarray makes 0-d 1-d
        if array.dtype == object:
            raise ImportError_("%s: a constant without a value (an empty input name?)" % self.node)
        if array.dtype == np.bool_ or array.size <= INLINE_ELEMENTS or inline:
            return "%s : %s" % (_inline_literal(array), tensor_type(array.shape, array.dtype))
        name = "".join(c if c.isalnum() or c == "_" else "_" for c in hint) or "onnx_const"
        base, n = name, 1
        while name in self.resources:
            n += 1
            name = "%s_%d" % (base, n)
        # The blob's first four bytes are its alignment, little-endian.
        align = max(array.dtype.itemsize, 8)
        self.resources[name] = (align, array.tobytes())
        return "dense_resource<%s> : %s" % (name, tensor_type(array.shape, array.dtype))

    def const(self, array, hint="onnx_const", inline=False):
        """inline: written in the op even when large (operands a pass reads
        as DenseElementsAttr, such as rescale multipliers)."""
        array = np.asarray(array)
        key = None
        if array.size <= INLINE_ELEMENTS:
            key = ("const", array.dtype.str, array.shape, array.tobytes())
            if key in self._cache:
                return self._cache[key]
        attr = self.attr(array, hint, inline)
        v = self.op('"tosa.const"() {values = %s} : () -> $TYPE' % attr, array.shape, array.dtype)
        if key is not None:
            self._cache[key] = v
        return v

    def shape_value(self, values):
        """A !tosa.shape<N> constant."""
        values = [int(v) for v in values]
        key = ("shape", tuple(values))
        if key not in self._cache:
            name = self.fresh()
            if values:
                lit = "dense<[%s]>" % ", ".join(str(v) for v in values)
            else:
                lit = "dense<>"
            self.emit("%s = tosa.const_shape {values = %s : tensor<%dxindex>} : () -> !tosa.shape<%d>"
                      % (name, lit, len(values), len(values)))
            self._cache[key] = name
        return self._cache[key]

    def zero_point(self, dtype):
        return self.const(np.zeros((1,), dtype=dtype))

    def shift(self):
        return self.const(np.zeros((1,), dtype=np.int8))

    # -- module ------------------------------------------------------------

    def module_text(self, func_name, args, results):
        sig = ", ".join("%s: %s" % (a.name, a.type) for a in args)
        res = ", ".join(r.type for r in results)
        out = ["module {",
               "  func.func @%s(%s) -> (%s) {" % (func_name, sig, res)]
        out += self.lines
        out.append("    return %s : %s loc(%s)" % (", ".join(r.name for r in results), res,
                                                  self._locs[self._file]))
        out += ["  } loc(%s)" % self._locs[self._file], "} loc(%s)" % self._locs[self._file], ""]
        out += ["%s = loc(%s)" % (alias, text) for text, alias in self._locs.items()]
        if self.resources:
            out += ["", "{-#", "  dialect_resources: {", "    builtin: {"]
            items = list(self.resources.items())
            for i, (name, (align, data)) in enumerate(items):
                blob = align.to_bytes(4, "little") + data
                sep = "," if i + 1 < len(items) else ""
                out.append('      %s: "0x%s"%s' % (name, blob.hex().upper(), sep))
            out += ["    }", "  }", "#-}"]
        return "\n".join(out) + "\n"


def onnx_dtype(elem_type):
    """The numpy dtype of an ONNX TensorProto element type (onnx 1.12 and
    later). bfloat16 is computed in float32 (numpy has no bfloat16, NVDLA
    neither; every bfloat16 value is a float32, onnx's to_array widens
    bfloat16 initializers so): a bfloat16 input or output is a float32
    one, and a Cast to bfloat16 rounds to its values (round_bf16)."""
    import onnx
    if elem_type == onnx.TensorProto.BFLOAT16:
        return np.dtype(np.float32)
    try:
        if hasattr(onnx.helper, "tensor_dtype_to_np_dtype"):
            return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type))
        return np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type])
    except (KeyError, TypeError, ValueError):
        raise ImportError_("unknown element type #%s" % elem_type)


def round_bf16(array):
    """float32 values rounded to bfloat16's (to nearest, ties to even; NaN
    stays NaN), as float32."""
    a = np.ascontiguousarray(array, np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16).astype(np.uint32)
    return np.where(np.isnan(a), a, rounded.view(np.float32))
