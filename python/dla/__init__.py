"""dla: accelerator memory layouts from Python, over the dla C API.

    import numpy as np
    import dla

    layout = dla.layout("tensor<1x3x5x30xi8, #dla.chunked<crouton>>")
    layout.storage_bytes                    # 2048
    layout.byte_offset((0, 0, 1, 0))        # 32
    blob = layout.pack(np.arange(450, dtype=np.uint8).astype(np.int8).reshape(1, 3, 5, 30))
    back = layout.unpack(blob)              # int8 array of shape (1, 3, 5, 30)

    with dla.Context() as ctx:
        module = ctx.parse_module(text)
        module.run_pipeline("builtin.module(dla-pack-weights,canonicalize)")
        print(module)

Every failure (parse errors, invalid layouts, wrong buffer sizes, failing
passes) raises dla.DLAError carrying the diagnostics. The package is a thin
layer: all layout answers come from the C++ format library through
libDLACAPI.so (see dla/_capi.py for how it is found).

Its layers, each using only those above it:
  _capi, this module      ctypes over libDLACAPI.so; contexts, modules, types,
                          layouts
  pipelines, tools        textual pipelines from typed values; dla-opt and
                          its siblings (P/bin beside P/python_packages)
  execution               JIT through MLIR's ExecutionEngine
  onnx (subpackage)       the ONNX importer: ONNX -> TOSA text
  onnx_import             ONNX files as modules and as verified TOSA text
  bundle, report          a compiled module's bundle: manifest, weights, report
  runner                  compile, run and compare ONNX models (dla-run-onnx)
  calibrate, compiler     int8 scales (dla-calibrate); model -> bundle
                          (dla-compile)
  cli (subpackage)        the tools' command lines: argument parsing only
"""

import collections
import ctypes
import os
import re
import weakref

import numpy as np

from . import _capi

__all__ = [
    "DLAError", "DLATypeError", "DLAValueError", "DLAOverflowError", "Context", "Module", "Diagnostic", "registered_passes", "RegisteredPass", "import_onnx", "Operation", "Type", "Attribute", "ChunkedAttr", "Layout",
    "layout", "chunked_layout", "storage_bytes", "byte_offset", "pack", "unpack",
    "chunked_presets", "default_context", "nvdla_scales", "nvdla_scale", "nvdla_bias_to_int16",
    "nvdla_lut_float", "nvdla_lut_float_program", "LUT_SCALARS",
    "nvdla_cmac_fp16", "nvdla_cacc_add", "nvdla_cacc_to_fp32", "nvdla_conv_fp16", "nvdla_conv_wino_fp16",
    "nvdla_sdp_x_fp16",
]


from .errors import DLAError, DLAOverflowError, DLATypeError, DLAValueError  # noqa: E402


def _check(status):
    if status.ptr:
        message = _capi.dlaStatusGetMessage(status).decode("utf-8", "replace")
        _capi.dlaStatusDestroy(status)
        raise DLAError(message)


def _ref(text, what="text"):
    # MLIR's lexer reads a NUL as the end of the buffer: "x\0junk" would
    # parse as "x". The bytes are returned too: the caller keeps them alive.
    data = _capi.to_cstr(text, what)
    return data, _capi.MlirStringRef.of(data)


# --- contexts and IR --------------------------------------------------------

class Context:
    """An MLIRContext with every dialect dla-opt registers.

    Objects made from a context (modules, types, attributes) keep it alive;
    close() (or leaving a `with` block) destroys it and every module it owns,
    after which using any of them raises DLAError instead of reading freed
    memory.
    """

    def __init__(self, *, threading=True, allow_unregistered_dialects=False):
        self._handle = _capi.mlirContextCreateWithThreading(bool(threading))
        _capi.dlaContextRegisterDialects(self._handle)
        if allow_unregistered_dialects:
            _capi.mlirContextSetAllowUnregisteredDialects(self._handle, True)
        self._modules = weakref.WeakSet()

    @property
    def handle(self):
        if self._handle is None:
            raise DLAError("the context is closed")
        return self._handle

    def close(self):
        if self._handle is not None:
            for module in list(self._modules):
                module._destroy()
            _capi.mlirContextDestroy(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def parse_module(self, text):
        data, ref = _ref(text)
        handle = _capi.MlirModule()
        _check(_capi.dlaModuleParse(self.handle, ref, ctypes.byref(handle)))
        module = Module(self, handle)
        self._modules.add(module)
        return module

    def parse_module_file(self, path):
        """The module in the file `path`, text or bytecode (which holds
        constants as raw bytes: nothing of it is a Python string)."""
        if not os.path.isfile(path):
            raise DLAError("%s: no such file" % path)
        data, ref = _ref(path, "path")
        handle = _capi.mlirModuleCreateParseFromFile(self.handle, ref)
        if not handle.ptr:
            raise DLAError("%s: not a module this context parses" % path)
        module = Module(self, handle)
        self._modules.add(module)
        return module

    def parse_type(self, text):
        data, ref = _ref(text)
        handle = _capi.MlirType()
        _check(_capi.dlaTypeParse(self.handle, ref, ctypes.byref(handle)))
        return Type(self, handle)

    def parse_attribute(self, text):
        data, ref = _ref(text)
        handle = _capi.MlirAttribute()
        _check(_capi.dlaAttributeParse(self.handle, ref, ctypes.byref(handle)))
        return Attribute._wrap(self, handle)

    def chunked(self, preset=None, *, pairs=None):
        """`#dla.chunked<preset>` or `#dla.chunked<[(dim, size), ...]>`."""
        if (preset is None) == (pairs is None):
            raise DLAValueError("give a preset name or a list of (dim, size) pairs")
        if preset is not None:
            # Validate first: the C call reports an unknown name on the
            # context's diagnostic handler (stderr), not in a status.
            data, ref = _ref(preset, "preset name")
            _check(_capi.dlaChunkedGetPresetPairs(data, 0, None, None, None))
            handle = _capi.dlaChunkedAttrGetPreset(self.handle, ref)
        else:
            pairs = list(pairs)
            dims, sizes = _pair_arrays(pairs)
            _check(_capi.dlaChunkedValidate(len(pairs), dims, sizes))
            handle = _capi.dlaChunkedAttrGet(self.handle, len(pairs), dims, sizes)
        if not handle.ptr:
            raise DLAError("invalid chunked layout")
        return ChunkedAttr(self, handle)

    def layout(self, tensor_type):
        """The bound layout of a ranked tensor type (a Type or its text)."""
        if not isinstance(tensor_type, Type):
            tensor_type = self.parse_type(tensor_type)
        return tensor_type.layout()


class Module:
    """A builtin.module owned by a Context."""

    def __init__(self, context, handle):
        self.context = context
        self._handle = handle

    @property
    def handle(self):
        if self._handle is None:
            raise DLAError("the module was destroyed (its context is closed)")
        return self._handle

    @property
    def operation(self):
        return _capi.mlirModuleGetOperation(self.handle)

    def _destroy(self):
        if self._handle is not None:
            _capi.mlirModuleDestroy(self._handle)
            self._handle = None

    def __del__(self):
        try:
            if self.context._handle is not None:
                self._destroy()
        except Exception:  # interpreter shutdown
            pass

    def run_pipeline(self, pipeline, *, print_ops=False, max_error_lines=50):
        """Runs a textual pass pipeline anchored on the module, e.g.
        "builtin.module(dla-pack-weights,canonicalize)", and returns the
        Diagnostics of the run (remarks and warnings) as a list. Raises
        DLAError with the parse error or the failing pass's diagnostics: at
        most `max_error_lines` lines of them (None: all), without the
        operation an error is about (the whole module, for a module pass)
        unless `print_ops`; the error's `diagnostics` holds them all."""
        data, ref = _ref(pipeline)
        found = []

        def collect(severity, location, message, _user_data):
            found.append(Diagnostic(location.bytes().decode("utf-8", "replace"),
                                    _capi.SEVERITIES[severity] if 0 <= severity < 4 else "error",
                                    message.bytes().decode("utf-8", "replace")))

        callback = _capi.DlaDiagnosticCallback(collect)
        status = _capi.dlaRunPassPipelineWithDiagnostics(
            self.operation, ref, callback, None, bool(print_ops), max_error_lines or 0)
        try:
            _check(status)
        except DLAError as e:
            e.diagnostics = found
            raise
        return found

    def verify(self):
        return bool(_capi.mlirOperationVerify(self.operation))

    def walk(self):
        """Every operation, the module itself first, in pre-order, as
        Operation snapshots (name, attributes, result types)."""
        ops = []

        def visit(op, _user_data):
            ops.append(Operation._snapshot(self.context, op))
            return _capi.WALK_ADVANCE

        callback = _capi.MlirOperationWalkCallback(visit)
        _capi.mlirOperationWalk(self.operation, callback, None, _capi.WALK_PRE_ORDER)
        return ops

    def resource_blobs(self):
        """{key: bytes} of every `dense_resource<key>` an operation holds as
        an attribute (e.g. what --dla-pack-weights produced), without the
        4-byte alignment header of the textual form."""
        blobs = {}
        for op in self.walk():
            for attr in op.attributes.values():
                if attr.is_dense_resource:
                    key, data = attr.resource_blob()
                    blobs[key] = data
        return blobs

    def __str__(self):
        return _capi.to_string(_capi.mlirOperationPrint, self.operation)

    def text(self, debug_info=False):
        """The module's text; with `debug_info`, every op's location too (a
        module re-printed for dla-opt keeps the ONNX node names its
        diagnostics report)."""
        if not debug_info:
            return str(self)
        flags = _capi.mlirOpPrintingFlagsCreate()
        try:
            _capi.mlirOpPrintingFlagsEnableDebugInfo(flags, True, False)
            return _capi.to_string(
                lambda op, cb, data: _capi.mlirOperationPrintWithFlags(op, flags, cb, data),
                self.operation)
        finally:
            _capi.mlirOpPrintingFlagsDestroy(flags)

    def write_bytecode(self, path):
        """Writes the module as MLIR bytecode to `path` (locations
        included; constants as raw bytes, no text printed)."""
        with open(path, "wb") as f:
            def write(ref, _user_data):
                f.write(ref.bytes())

            _capi.mlirOperationWriteBytecode(self.operation, _capi.MlirStringCallback(write), None)


class Diagnostic(tuple):
    """One diagnostic of a pass pipeline: (location, severity, message);
    `location` is "file:line:col", a name location's name (an ONNX node)
    or "" when unknown; `severity` one of "error", "warning", "note",
    "remark"."""

    def __new__(cls, location, severity, message):
        return super().__new__(cls, (location, severity, message))

    location = property(lambda self: self[0])
    severity = property(lambda self: self[1])
    message = property(lambda self: self[2])

    def __str__(self):
        return "%s%s: %s" % (self.location + ": " if self.location else "", self.severity,
                             self.message)


RegisteredPass = collections.namedtuple("RegisteredPass", "name summary text")
RegisteredPass.__doc__ = """A registered pass: its name (no dashes), its
one-line summary, and its entry as `dla-opt --list-passes` prints it (the
options' lines with it)."""


def registered_passes():
    """The passes registered in this process (dla's and every upstream one,
    as dla-opt has them), a list of RegisteredPass in `dla-opt
    --list-passes`'s order; "".join of their `text` is what it prints after
    its "Passes:" line."""
    text = _capi.to_string(lambda _, callback, user: _capi.dlaPrintRegisteredPasses(callback, user),
                           None)
    passes = []
    for line in text.splitlines(keepends=True):
        m = re.match(r"^  --([^\s=]+)\s+-\s+(.*)$", line)
        if m:
            passes.append([m.group(1), m.group(2).strip(), line])
        elif passes:
            passes[-1][2] += line
    return [RegisteredPass(*p) for p in passes]


class Operation:
    """What an operation was when walked: its name, its attributes by name,
    its result types, its location and its def-use edges. A snapshot: it
    stays valid after the module changes (while its context is open, for
    the attributes and types). `results` and `operands` are value ids
    (equal ids: the same value, within one walk); `arguments` maps the id
    of an operand that is a block argument to its argument number. `unit`:
    the NVDLA unit a layer op runs on (the format library's), "BDMA" for a
    relayout an NVDLA program runs as a copy, else None (a relayout the host
    runs among them; the C API's dlaOperationGetHardwareUnit).
    `computes`: whether it is a layer, on the accelerator or the host, rather
    than a constant, a terminator, a function or a module (the C API's
    dlaOperationComputes). `emulated`: whether NVIDIA's runtime emulator runs
    it (dlaOperationRunsInEmulator)."""

    def __init__(self, name, attributes, result_types, location="", operands=(), results=(),
                 arguments=None, unit=None, computes=True, emulated=False):
        self.name = name
        self.attributes = attributes
        self.result_types = result_types
        self.location = location
        self.operands = list(operands)
        self.results = list(results)
        self.arguments = arguments or {}
        self.unit = unit
        self.computes = computes
        self.emulated = emulated

    @staticmethod
    def _snapshot(context, op):
        name = _capi.mlirIdentifierStr(_capi.mlirOperationGetName(op)).bytes().decode()
        attributes = {}
        for i in range(_capi.mlirOperationGetNumAttributes(op)):
            named = _capi.mlirOperationGetAttribute(op, i)
            key = _capi.mlirIdentifierStr(named.name).bytes().decode()
            attributes[key] = Attribute._wrap(context, named.attribute)
        values = [_capi.mlirOperationGetResult(op, i)
                  for i in range(_capi.mlirOperationGetNumResults(op))]
        result_types = [Type(context, _capi.mlirValueGetType(v)) for v in values]
        operands, arguments = [], {}
        for i in range(_capi.mlirOperationGetNumOperands(op)):
            v = _capi.mlirOperationGetOperand(op, i)
            operands.append(v.ptr)
            if _capi.mlirValueIsABlockArgument(v):
                arguments[v.ptr] = _capi.mlirBlockArgumentGetArgNumber(v)
        location = _capi.to_string(_capi.mlirLocationPrint, _capi.mlirOperationGetLocation(op))
        unit = _capi.dlaOperationGetHardwareUnit(op)
        return Operation(name, attributes, result_types, location, operands,
                         [v.ptr for v in values], arguments, unit.decode() if unit else None,
                         bool(_capi.dlaOperationComputes(op)),
                         bool(_capi.dlaOperationRunsInEmulator(op)))

    def __repr__(self):
        return "Operation(%s)" % self.name


class _ContextObject:
    """A type or attribute: a pointer into its context's storage, valid only
    while that context is open. Holding the context keeps it alive."""

    def __init__(self, context, handle):
        self.context = context
        self._handle = handle

    @property
    def handle(self):
        if self.context._handle is None:
            raise DLAError("%s used after its context was closed" % type(self).__name__)
        return self._handle


class Type(_ContextObject):

    def __str__(self):
        return _capi.to_string(_capi.mlirTypePrint, self.handle)

    def __repr__(self):
        return "Type(%s)" % self

    def __eq__(self, other):
        return isinstance(other, Type) and bool(_capi.mlirTypeEqual(self.handle, other.handle))

    def __hash__(self):
        return hash(str(self))

    @property
    def encoding(self):
        """The tensor's encoding attribute, or None."""
        if not _capi.mlirTypeIsARankedTensor(self.handle):
            return None
        handle = _capi.mlirRankedTensorTypeGetEncoding(self.handle)
        return Attribute._wrap(self.context, handle) if handle.ptr else None

    @property
    def element_type(self):
        if not _capi.mlirTypeIsARankedTensor(self.handle):
            raise DLAError("%s is not a ranked tensor type" % self)
        return Type(self.context, _capi.mlirShapedTypeGetElementType(self.handle))

    @property
    def shape(self):
        """The ranked tensor's dimensions (-1 for a dynamic one)."""
        if not _capi.mlirTypeIsARankedTensor(self.handle):
            raise DLAError("%s is not a ranked tensor type" % self)
        return tuple(_capi.mlirShapedTypeGetDimSize(self.handle, i)
                     for i in range(_capi.mlirShapedTypeGetRank(self.handle)))

    def storage(self):
        """The storage description, as Layout.storage() gives it, of any
        static tensor type, including storage that is no layout: compressed
        weights give their WGS / WMB / data surfaces, each with bytes -1
        (they depend on the values), its alignment, and no views."""
        d = _capi.DlaStorageDescription()
        _check(_capi.dlaTypeDescribeStorage(self.handle, ctypes.byref(d)))
        return _read_storage(d, len(self.shape))

    def pack_surfaces(self, data):
        """Every storage surface of a constant of this type, as
        {name: numpy uint8 array}, through the packer --dla-pack-weights
        uses: {"storage": ...} for plain layouts and Winograd weights,
        {"wgs", "wmb", "data"} for compressed weights. `data`: a numpy array
        (the tensor's element width, any byte order) or raw row-major bytes;
        contiguous host-order arrays are read in place."""
        src = _logical_bytes(data)
        packer = _capi.DlaConstantPacker()
        _check(_capi.dlaTypeCreateConstantPacker(self.handle, ctypes.byref(packer)))
        try:
            n = _capi.dlaConstantPackerGetNumSurfaces(packer)
            names = [_capi.dlaConstantPackerGetSurfaceName(packer, i).decode()
                     for i in range(n)]
            sizes = (ctypes.c_int64 * max(n, 1))()
            pointer = src.ctypes.data_as(ctypes.c_void_p)
            _check(_capi.dlaConstantPackerPlan(packer, pointer, src.nbytes, sizes))
            surfaces = [np.empty(sizes[i], np.uint8) for i in range(n)]
            pointers = (ctypes.c_void_p * max(n, 1))(*[a.ctypes.data for a in surfaces])
            _check(_capi.dlaConstantPackerPack(packer, pointer, src.nbytes, pointers))
        finally:
            _capi.dlaConstantPackerDestroy(packer)
        return dict(zip(names, surfaces))

    def layout(self):
        """Binds the type's layout (its dla encoding's, or row-major)."""
        bound = _capi.DlaBoundLayout()
        _check(_capi.dlaTypeBindLayout(self.handle, ctypes.byref(bound)))
        return Layout(bound, _natural_dtype(str(self.element_type),
                                            _capi.dlaBoundLayoutGetElementBytes(bound)),
                      str(self))


class Attribute(_ContextObject):
    @staticmethod
    def _wrap(context, handle):
        if _capi.dlaAttributeIsAChunked(handle):
            return ChunkedAttr(context, handle)
        return Attribute(context, handle)

    @property
    def is_layout_encoding(self):
        return bool(_capi.dlaAttributeIsALayoutEncoding(self.handle))

    @property
    def is_dense_resource(self):
        return bool(_capi.mlirAttributeIsADenseResourceElements(self.handle))

    def function_signature(self):
        """([input types], [result types]) of a type attribute holding a
        function type (func.func's `function_type`)."""
        if not _capi.mlirAttributeIsAType(self.handle):
            raise DLAError("%s is not a type attribute" % self)
        t = _capi.mlirTypeAttrGetValue(self.handle)
        if not _capi.mlirTypeIsAFunction(t):
            raise DLAError("%s is not a function type" % self)
        return ([Type(self.context, _capi.mlirFunctionTypeGetInput(t, i))
                 for i in range(_capi.mlirFunctionTypeGetNumInputs(t))],
                [Type(self.context, _capi.mlirFunctionTypeGetResult(t, i))
                 for i in range(_capi.mlirFunctionTypeGetNumResults(t))])

    def resource_blob(self):
        """(key, bytes) of a `dense_resource<key>` attribute: the stored
        bytes, without the 4-byte alignment header of the textual form.
        Raises DLAError for other attributes and for a key without data."""
        key = _capi.MlirStringRef()
        data = ctypes.c_void_p()
        size = ctypes.c_size_t()
        _check(_capi.dlaDenseResourceAttrGetBlob(self.handle, ctypes.byref(key),
                                                 ctypes.byref(data), ctypes.byref(size)))
        blob = ctypes.string_at(data, size.value) if size.value else b""
        return key.bytes().decode(), blob

    def __str__(self):
        return _capi.to_string(_capi.mlirAttributePrint, self.handle)

    def __repr__(self):
        return "Attribute(%s)" % self

    def __eq__(self, other):
        return (isinstance(other, Attribute)
                and bool(_capi.mlirAttributeEqual(self.handle, other.handle)))

    def __hash__(self):
        return hash(str(self))


class ChunkedAttr(Attribute):
    """`#dla.chunked<...>`."""

    @property
    def pairs(self):
        n = _capi.dlaChunkedAttrGetNumPairs(self.handle)
        return [(_capi.dlaChunkedAttrGetDim(self.handle, i),
                 _capi.dlaChunkedAttrGetSize(self.handle, i)) for i in range(n)]

    @property
    def rank(self):
        return _capi.dlaChunkedAttrGetRank(self.handle)

    @property
    def preset(self):
        """The preset name these pairs spell, or None."""
        name = _capi.dlaChunkedAttrGetPresetName(self.handle).bytes().decode()
        return name or None


# --- bound layouts -----------------------------------------------------------

def _read_storage(d, rank):
    """A DlaStorageDescription as Layout.storage() returns it; destroys it."""
    try:
        name = ctypes.c_char_p()
        a, b, c, w = (ctypes.c_int64() for _ in range(4))
        buffers = []
        for i in range(_capi.dlaStorageDescriptionGetNumBuffers(d)):
            _check(_capi.dlaStorageDescriptionGetBuffer(d, i, ctypes.byref(name),
                                                        ctypes.byref(a), ctypes.byref(b)))
            buffers.append({"name": name.value.decode(), "bytes": a.value,
                            "alignment": b.value})
        views = []
        buf, ndims = ctypes.c_ssize_t(), ctypes.c_ssize_t()
        for i in range(_capi.dlaStorageDescriptionGetNumViews(d)):
            _check(_capi.dlaStorageDescriptionGetView(d, i, ctypes.byref(name),
                                                      ctypes.byref(buf), ctypes.byref(a),
                                                      ctypes.byref(b), ctypes.byref(ndims)))
            view = {"name": name.value.decode(), "buffer": buf.value,
                    "element_bytes": a.value, "offset": b.value, "dims": [],
                    "logical_base": tuple(
                        _capi.dlaStorageDescriptionGetViewLogicalBase(d, i, k)
                        for k in range(rank))}
            for k in range(ndims.value):
                _check(_capi.dlaStorageDescriptionGetViewDim(
                    d, i, k, ctypes.byref(a), ctypes.byref(b), ctypes.byref(c),
                    ctypes.byref(w)))
                view["dims"].append({"extent": a.value, "stride": b.value,
                                     "logical_dim": c.value, "weight": w.value})
            views.append(view)
        return {"buffers": buffers, "views": views}
    finally:
        _capi.dlaStorageDescriptionDestroy(d)


class Layout:
    """A layout bound to one logical shape and element width: storage size,
    byte offsets, pack and unpack. Independent of any context once made."""

    def __init__(self, bound, dtype, description):
        self._bound = bound
        self.dtype = dtype
        self.description = description
        rank = _capi.dlaBoundLayoutGetRank(bound)
        self.shape = tuple(_capi.dlaBoundLayoutGetDimSize(bound, i) for i in range(rank))
        self.element_bytes = _capi.dlaBoundLayoutGetElementBytes(bound)
        self.num_elements = _capi.dlaBoundLayoutGetNumElements(bound)
        self.storage_bytes = _capi.dlaBoundLayoutGetStorageBytes(bound)

    def __del__(self):
        try:
            if self._bound is not None and self._bound.ptr:
                _capi.dlaBoundLayoutDestroy(self._bound)
                self._bound = None
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self):
        return "Layout(%s: %d bytes)" % (self.description, self.storage_bytes)

    @property
    def logical_bytes(self):
        return self.num_elements * self.element_bytes

    def storage(self):
        """The storage buffers and typed strided views (the format library's
        describeStorage): {"buffers": [{"name", "bytes", "alignment"}],
        "views": [{"name", "buffer", "element_bytes", "offset", "logical_base",
        "dims": [{"extent", "stride", "logical_dim", "weight"}]}]}. Strides and
        offsets count storage elements of the view's width."""
        return _read_storage(_capi.dlaBoundLayoutDescribeStorage(self._bound), len(self.shape))

    def byte_offset(self, index):
        """Byte offset in storage of the logical element at `index`."""
        index = tuple(index)
        offset = ctypes.c_int64(-1)
        _check(_capi.dlaBoundLayoutGetByteOffset(self._bound, len(index),
                                                 _capi.int64_array(index, "index"),
                                                 ctypes.byref(offset)))
        return offset.value

    def locate(self, byte_offset):
        """(index, byte_in_element) of a storage byte, or None for padding."""
        padding = ctypes.c_bool(False)
        index = (ctypes.c_int64 * max(len(self.shape), 1))()
        byte = ctypes.c_int64(0)
        byte_offset = _capi.to_int(byte_offset, what="byte offset")
        _check(_capi.dlaBoundLayoutLocate(self._bound, byte_offset, ctypes.byref(padding),
                                          index, ctypes.byref(byte)))
        if padding.value:
            return None
        return tuple(index[i] for i in range(len(self.shape))), byte.value

    def _logical_buffer(self, data):
        if isinstance(data, np.ndarray):
            _check_numeric(data.dtype)
            if data.shape != self.shape:
                raise DLAError("array of shape %s, but %s has shape %s"
                               % (data.shape, self.description, self.shape))
            if data.dtype.itemsize != self.element_bytes:
                raise DLAError(
                    "array of dtype %s (%d bytes per element), but %s has %d-byte elements%s"
                    % (data.dtype, data.dtype.itemsize, self.description, self.element_bytes,
                       "; convert with .astype(np.%s)" % self.dtype.name
                       if self.dtype.kind != "V" else ""))
            # The layout works on host-order elements.
            return np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("="))
        data = memoryview(data).cast("B")
        if data.nbytes != self.logical_bytes:
            raise DLAError("%d logical bytes, but %s needs %d"
                           % (data.nbytes, self.description, self.logical_bytes))
        return np.frombuffer(data, dtype=np.uint8)

    def pack(self, data, out=None):
        """The storage image (bytes) of `data`: a numpy array of the tensor's
        shape and element width, or raw row-major logical bytes. Padding and
        gaps are zero. With `out`, a writable C-contiguous buffer of
        storage_bytes (a numpy array, bytearray, mmap, ...), packs into it in
        place and returns it: no copy but the packer's own (a contiguous
        host-order array is read in place too)."""
        src = self._logical_buffer(data)
        if out is not None:
            _check(_capi.dlaBoundLayoutPack(self._bound, src.ctypes.data_as(ctypes.c_void_p),
                                            src.nbytes,
                                            _writable_bytes(out, self.storage_bytes, "storage"),
                                            self.storage_bytes))
            return out
        # Into numpy memory, then one copy into the bytes object (a ctypes
        # string buffer costs a zero fill and a slow .raw copy).
        return self.pack(data, out=np.empty(self.storage_bytes, np.uint8)).tobytes()

    def unpack(self, storage, dtype=None, out=None):
        """The logical tensor held by `storage` (bytes-like, storage_bytes
        long, read in place), as a numpy array of the tensor's shape. `dtype`
        defaults to the element type's (raw unsigned bits when numpy has no
        such type). With `out`, a writable C-contiguous numpy array of the
        tensor's shape and element width, unpacks into it and returns it."""
        if out is not None:
            if not isinstance(out, np.ndarray) or out.shape != self.shape:
                raise DLAError("out must be a numpy array of shape %s" % (self.shape,))
            if out.dtype.itemsize != self.element_bytes:
                raise DLAError("out has %d-byte elements, but %s has %d"
                               % (out.dtype.itemsize, self.description, self.element_bytes))
            dst = _writable_bytes(out, self.logical_bytes, "logical")
            src = np.frombuffer(memoryview(storage).cast("B"), dtype=np.uint8)
            if src.nbytes != self.storage_bytes:
                raise DLAError("%d storage bytes, but %s needs %d"
                               % (src.nbytes, self.description, self.storage_bytes))
            _check(_capi.dlaBoundLayoutUnpack(self._bound, src.ctypes.data_as(ctypes.c_void_p),
                                              src.nbytes, dst, self.logical_bytes))
            return out
        dtype = np.dtype(dtype) if dtype is not None else self.dtype
        _check_numeric(dtype)
        if dtype.itemsize != self.element_bytes:
            raise DLAError("dtype %s has %d bytes per element, but %s has %d"
                           % (dtype, dtype.itemsize, self.description, self.element_bytes))
        src = np.frombuffer(memoryview(storage).cast("B"), dtype=np.uint8)
        if src.nbytes != self.storage_bytes:
            raise DLAError("%d storage bytes, but %s needs %d"
                           % (src.nbytes, self.description, self.storage_bytes))
        out = np.empty(self.shape, dtype=dtype)  # unpack writes every element
        _check(_capi.dlaBoundLayoutUnpack(self._bound, src.ctypes.data_as(ctypes.c_void_p),
                                          src.nbytes, out.ctypes.data_as(ctypes.c_void_p),
                                          out.nbytes))
        return out


def _logical_bytes(data):
    """A uint8 view of logical data: a numpy array in host byte order (copied
    only when not C-contiguous or not host order) or any bytes-like."""
    if isinstance(data, np.ndarray):
        _check_numeric(data.dtype)
        data = np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("="))
        return data.reshape(-1).view(np.uint8)
    return np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)


def _writable_bytes(out, nbytes, what):
    """The address of `out`, a writable C-contiguous buffer of `nbytes`."""
    try:
        view = memoryview(out)
    except TypeError:
        raise DLAError("%s buffer: %s does not support the buffer protocol"
                       % (what, type(out).__name__)) from None
    if view.readonly:
        raise DLAError("%s buffer is read-only" % what)
    if not view.c_contiguous:
        raise DLAError("%s buffer is not C-contiguous" % what)
    if view.nbytes != nbytes:
        raise DLAError("%s buffer has %d bytes, %d needed" % (what, view.nbytes, nbytes))
    if nbytes == 0:
        return None
    return np.frombuffer(view.cast("B"), dtype=np.uint8).ctypes.data


def _check_numeric(dtype):
    """Layouts move raw element bytes: an object array's elements are
    pointers and a string array's are characters, never tensor values."""
    if dtype.kind not in "biufcV":
        raise DLAError("numpy dtype %s is not numeric (bool, integer, floating-point, complex "
                       "or raw void bytes); convert the array with .astype(...)" % dtype)


_FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _natural_dtype(element_type, element_bytes):
    """numpy dtype of an MLIR element type; raw unsigned bits otherwise."""
    if element_type == "i1":
        return np.dtype(np.bool_)
    if element_type in _FLOATS:
        return np.dtype(_FLOATS[element_type])
    m = re.fullmatch(r"(u|s)?i(\d+)", element_type)
    if m and element_bytes in (1, 2, 4, 8):
        return np.dtype("%s%d" % ("u" if m.group(1) == "u" else "i", element_bytes))
    if element_bytes in (1, 2, 4, 8):
        return np.dtype("u%d" % element_bytes)
    return np.dtype("V%d" % element_bytes)


def _pair_arrays(pairs):
    pairs = [tuple(p) for p in pairs]
    if any(len(p) != 2 for p in pairs):
        raise DLAValueError("pairs must be (dim, size) tuples")
    return (_capi.int64_array([p[0] for p in pairs], "pair dimension"),
            _capi.int64_array([p[1] for p in pairs], "pair size"))


def chunked_presets():
    """Names of the chunked presets, in declaration order."""
    return [_capi.dlaChunkedGetPresetName(i).decode()
            for i in range(_capi.dlaChunkedGetNumPresets())]


def chunked_layout(layout, shape, element_bytes=1, dtype=None):
    """A chunked layout bound without MLIR: `layout` is a preset name or a
    list of (dim, size) pairs."""
    shape = tuple(shape)
    shape_array = _capi.int64_array(shape, "shape dimension")
    element_bytes = _capi.to_int(element_bytes, what="element_bytes")
    if isinstance(layout, str):
        name = _capi.to_cstr(layout, "preset name")
        n = ctypes.c_ssize_t(0)
        _check(_capi.dlaChunkedGetPresetPairs(name, 0, None, None, ctypes.byref(n)))
        dims = (ctypes.c_int64 * n.value)()
        sizes = (ctypes.c_int64 * n.value)()
        _check(_capi.dlaChunkedGetPresetPairs(name, n.value, dims, sizes,
                                              ctypes.byref(n)))
        count = n.value
        description = "#dla.chunked<%s> on %s" % (layout, "x".join(map(str, shape)))
    else:
        layout = list(layout)
        dims, sizes = _pair_arrays(layout)
        count = len(layout)
        description = "chunked %s on %s" % (list(layout), "x".join(map(str, shape)))
    bound = _capi.DlaBoundLayout()
    _check(_capi.dlaChunkedBind(count, dims, sizes, len(shape), shape_array, element_bytes,
                                ctypes.byref(bound)))
    if dtype is None:
        dtype = _natural_dtype("", element_bytes)
    return Layout(bound, np.dtype(dtype), description)


# --- NVDLA scale / shift registers (dla/Format/NvdlaScale.h) ----------------

_SCALE_ROUNDING = {"truncate": 0, "nearest": 1}
_BIAS_ROUNDING = {"floor": 0, "nearest": 1}


def _rounding(table, rounding):
    if rounding not in table:
        raise DLAValueError("rounding %r: expected one of %s" % (rounding, ", ".join(table)))
    return table[rounding]


def nvdla_scales(factors, rounding="truncate"):
    """Real factors (per channel) as int16 scales sharing one right shift:
    factors[i] ~ scales[i] * 2**-shift within error_bound. "truncate" is
    NVIDIA's compiler (shift = 15 - bits of the largest factor's integer
    part), "nearest" rounds half away from zero. Returns (scales as an
    int16 array, shift, error_bound); DLAError for NaN, infinity, |factor|
    >= 2**15 or a shift above 63."""
    values = [float(f) for f in factors]
    mode = _rounding(_SCALE_ROUNDING, rounding)
    array = (ctypes.c_double * max(len(values), 1))(*values)
    scales = (ctypes.c_int16 * max(len(values), 1))()
    shift = ctypes.c_uint8(0)
    bound = ctypes.c_double(0)
    _check(_capi.dlaNvdlaScalesFromFactors(len(values), array, mode, scales,
                                           ctypes.byref(shift), ctypes.byref(bound)))
    return np.array(scales[:len(values)], dtype=np.int16), shift.value, bound.value


def nvdla_scale(factor, rounding="truncate"):
    """One factor: (scale, shift, error_bound), see nvdla_scales."""
    scales, shift, bound = nvdla_scales([factor], rounding)
    return int(scales[0]), shift, bound


def nvdla_bias_to_int16(bias, rounding="floor"):
    """int32 biases as int16 values sharing the smallest left shift that fits
    them all (the SDP ALU_SHIFT_VALUE): |bias[i] - values[i] << shift| <=
    error_bound. "floor" is NVIDIA's compiler (b >> shift), "nearest" rounds
    half away from zero. Returns (values as an int16 array, shift,
    error_bound)."""
    values = [_capi.to_int(b, ctypes.c_int32, "bias") for b in bias]
    mode = _rounding(_BIAS_ROUNDING, rounding)
    array = (ctypes.c_int32 * max(len(values), 1))(*values)
    out = (ctypes.c_int16 * max(len(values), 1))()
    shift = ctypes.c_uint8(0)
    bound = ctypes.c_int64(0)
    _check(_capi.dlaNvdlaBiasToInt16(len(values), array, mode, out, ctypes.byref(shift),
                                     ctypes.byref(bound)))
    return np.array(out[:len(values)], dtype=np.int16), shift.value, bound.value


#: The SDP LUT's registers in the C API's order (dla-c/Format.h), after
#: the 65 LE and 257 LO entries.
LUT_SCALARS = ("le_linear", "le_start", "le_end", "lo_start", "lo_end", "le_index_offset",
               "le_index_select", "lo_index_select", "le_slope_uflow_scale",
               "le_slope_uflow_shift", "le_slope_oflow_scale", "le_slope_oflow_shift",
               "lo_slope_uflow_scale", "lo_slope_uflow_shift", "lo_slope_oflow_scale",
               "lo_slope_oflow_shift", "uflow_lo", "oflow_lo", "hybrid_lo")
_LUT_REGISTERS = 65 + 257 + len(LUT_SCALARS)


def nvdla_lut_float(x, le, lo, **scalars):
    """The SDP Y stage's LUT in float mode (nv_full, proc precision FP16) on
    fp32 bit patterns x, as the format library computes it: the fp32 bit
    patterns (uint32 array) it hands to the output converter. le (65) / lo
    (257) are fp16 bit patterns, the scalars those of LUT_SCALARS (starts
    and ends fp32 bit patterns; *_lo priorities true for LO)."""
    if set(scalars) != set(LUT_SCALARS):
        raise DLAValueError("the LUT's scalars are " + ", ".join(LUT_SCALARS))
    regs = [int(v) for v in le] + [int(v) for v in lo] + [int(scalars[n]) for n in LUT_SCALARS]
    x = np.ascontiguousarray(np.asarray(x, dtype=np.uint32).reshape(-1))
    y = np.empty_like(x)
    _check(_capi.dlaNvdlaLutFloat(len(regs), _capi.int64_array(regs, "LUT register"), x.size,
                                  x.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)),
                                  y.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32))))
    return y


def nvdla_lut_float_program(function):
    """The float-mode LUT program the compiler runs for "sigmoid" / "tanh":
    (registers as a dict: le, lo and LUT_SCALARS; max absolute error over
    every finite fp16 input; the input where it occurs)."""
    regs = (ctypes.c_int64 * _LUT_REGISTERS)()
    err, at = ctypes.c_double(0), ctypes.c_double(0)
    _check(_capi.dlaNvdlaLutFloatProgram(str(function).encode(), _LUT_REGISTERS, regs,
                                         ctypes.byref(err), ctypes.byref(at)))
    values = list(regs)
    out = {"le": np.array(values[:65], np.int64), "lo": np.array(values[65:322], np.int64)}
    out.update(zip(LUT_SCALARS, values[322:]))
    return out, err.value, at.value


def nvdla_lrn_float_tables(alpha, beta, k, size):
    """The CDP's float-mode tables of an fp16 LRN as the register plan
    programs them (lrnFloatTables): registers as a dict (le, lo and
    LUT_SCALARS)."""
    regs = (ctypes.c_int64 * _LUT_REGISTERS)()
    _check(_capi.dlaNvdlaLrnFloatTables(float(alpha), float(beta), float(k), int(size),
                                        _LUT_REGISTERS, regs))
    values = list(regs)
    out = {"le": np.array(values[:65], np.int64), "lo": np.array(values[65:322], np.int64)}
    out.update(zip(LUT_SCALARS, values[322:]))
    return out


# --- NVDLA's fp16 convolution arithmetic (NvdlaConvFp16.h) ------------------

def _ptr(a, ctype):
    return a.ctypes.data_as(ctypes.POINTER(ctype))


def _contig(a, dtype):
    return np.ascontiguousarray(np.asarray(a).astype(dtype, copy=False))


def nvdla_cmac_fp16(data, weight):
    """CMAC's fp16 dot product of channel atoms (nv_full), as the format
    library computes it: data / weight fp16 bit patterns [..., 64]; returns
    (exponent, mantissa) int64 arrays [...] (fp_nvdla.cmac_fp16's)."""
    d, w = _contig(data, np.uint16), _contig(weight, np.uint16)
    if d.shape != w.shape or d.ndim < 1 or d.shape[-1] != 64:
        raise DLAValueError("cmac_fp16 takes data and weights of one shape [..., 64], got %s and %s"
                            % (d.shape, w.shape))
    n = d.size // 64
    e, m = np.empty(n, np.int64), np.empty(n, np.int64)
    _check(_capi.dlaNvdlaCmacFp16(n, _ptr(d, ctypes.c_uint16), _ptr(w, ctypes.c_uint16),
                                  _ptr(e, ctypes.c_int64), _ptr(m, ctypes.c_int64)))
    return e.reshape(d.shape[:-1]), m.reshape(d.shape[:-1])


def nvdla_cacc_add(acc_exp, acc_mant, mac_exp, mac_mant):
    """CACC's fp16 accumulation (fp_nvdla.cacc_add's arguments, broadcast);
    returns the new (exponent, mantissa)."""
    arrs = [_contig(a, np.int64) for a in np.broadcast_arrays(acc_exp, acc_mant, mac_exp, mac_mant)]
    oe, om = np.empty_like(arrs[0]), np.empty_like(arrs[0])
    _check(_capi.dlaNvdlaCaccAdd(arrs[0].size, *[_ptr(a, ctypes.c_int64) for a in arrs],
                                 _ptr(oe, ctypes.c_int64), _ptr(om, ctypes.c_int64)))
    return oe, om


def nvdla_cacc_to_fp32(acc_exp, acc_mant):
    """The fp32 bits CACC hands the SDP (fp_nvdla.cacc_to_fp32)."""
    e, m = (_contig(a, np.int64) for a in np.broadcast_arrays(acc_exp, acc_mant))
    out = np.empty(e.shape, np.uint32)
    _check(_capi.dlaNvdlaCaccToFp32(e.size, _ptr(e, ctypes.c_int64), _ptr(m, ctypes.c_int64),
                                    _ptr(out, ctypes.c_uint32)))
    return out


def nvdla_conv_fp16(x, w, stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1)):
    """A direct fp16 convolution as nv_full computes it (fp_nvdla.conv_fp16's
    arguments: x [C, H, W], w [K, C, R, S] fp16 bit patterns, pad top,
    bottom, left, right): the fp32 bits CACC delivers, [K, OH, OW]."""
    x, w = _contig(x, np.uint16), _contig(w, np.uint16)
    if x.ndim != 3 or w.ndim != 4 or w.shape[1] != x.shape[0]:
        raise DLAValueError("conv_fp16 takes x [C, H, W] and w [K, C, R, S], got %s and %s"
                            % (x.shape, w.shape))
    shape = list(x.shape) + [w.shape[0], w.shape[2], w.shape[3]]
    params = list(stride) + list(pad) + list(dilation)
    if len(params) != 8:
        raise DLAValueError("conv_fp16: stride (2), pad (4), dilation (2)")
    (C, H, W), (K, _, R, S) = x.shape, w.shape
    oh = (H + pad[0] + pad[1] - ((R - 1) * dilation[0] + 1)) // stride[0] + 1
    ow = (W + pad[2] + pad[3] - ((S - 1) * dilation[1] + 1)) // stride[1] + 1
    out = np.empty((K, max(oh, 0), max(ow, 0)), np.uint32)
    _check(_capi.dlaNvdlaConvFp16(_capi.int64_array(shape, "shape"),
                                  _capi.int64_array(params, "parameter"),
                                  _ptr(x, ctypes.c_uint16), _ptr(w, ctypes.c_uint16),
                                  _ptr(out, ctypes.c_uint32)))
    return out


def nvdla_conv_wino_fp16(x, taps, pad=(0, 0, 0, 0), pad_value=0):
    """A 3x3 stride-1 Winograd fp16 convolution as nv_full computes it
    (fp_nvdla.conv_wino_fp16's arguments: x [C, H, W], taps [K, C', 4, 4]
    fp16 bit patterns, C' >= C, pad top, bottom, left, right, pad_value fp16
    bits): the fp32 bits CACC delivers, [K, OH, OW]."""
    x, taps = _contig(x, np.uint16), _contig(taps, np.uint16)
    if x.ndim != 3 or taps.ndim != 4 or taps.shape[2:] != (4, 4) or taps.shape[1] < x.shape[0]:
        raise DLAValueError("conv_wino_fp16 takes x [C, H, W] and taps [K, C' >= C, 4, 4], "
                            "got %s and %s" % (x.shape, taps.shape))
    if len(pad) != 4:
        raise DLAValueError("conv_wino_fp16: pad (4)")
    (C, H, W), (K, CX) = x.shape, taps.shape[:2]
    oh, ow = H + pad[0] + pad[1] - 2, W + pad[2] + pad[3] - 2
    out = np.empty((K, max(oh, 0), max(ow, 0)), np.uint32)
    _check(_capi.dlaNvdlaConvWinoFp16(_capi.int64_array([C, H, W, K, CX], "shape"),
                                      _capi.int64_array(list(pad), "padding"),
                                      ctypes.c_uint16(int(pad_value)),
                                      _ptr(x, ctypes.c_uint16), _ptr(taps, ctypes.c_uint16),
                                      _ptr(out, ctypes.c_uint32)))
    return out


def nvdla_sdp_x_fp16(x, alu_bypass=1, alu_algo=2, alu_op=0, mul_bypass=1, mul_op=0,
                     mul_prelu=0, relu_bypass=1, nan_to_zero=0):
    """One SDP X stage at precision FP16 (fp_nvdla.sdp_x_fp16's arguments):
    fp32 bits in and out, fp16 operands broadcast to x."""
    x = _contig(x, np.uint32).reshape(-1)
    alu = _contig(np.broadcast_to(np.asarray(alu_op), x.shape), np.uint16)
    mul = _contig(np.broadcast_to(np.asarray(mul_op), x.shape), np.uint16)
    cfg = [int(bool(alu_bypass)), int(alu_algo), int(bool(mul_bypass)), int(bool(mul_prelu)),
           int(bool(relu_bypass)), int(bool(nan_to_zero))]
    out = np.empty_like(x)
    _check(_capi.dlaNvdlaSdpXFp16(_capi.int64_array(cfg, "config"), x.size,
                                  _ptr(x, ctypes.c_uint32), _ptr(alu, ctypes.c_uint16),
                                  _ptr(mul, ctypes.c_uint16), _ptr(out, ctypes.c_uint32)))
    return out


# --- one-call helpers on a shared context -----------------------------------

_default_context = None


def default_context():
    """The context the module-level helpers use (created on first use)."""
    global _default_context
    if _default_context is None:
        _default_context = Context()
    return _default_context


def layout(tensor_type):
    """Layout of a tensor type string, e.g.
    "tensor<1x3x5x30xi8, #dla.chunked<crouton>>"."""
    return default_context().layout(tensor_type)


def storage_bytes(tensor_type):
    return layout(tensor_type).storage_bytes


def byte_offset(tensor_type, index):
    return layout(tensor_type).byte_offset(index)


def pack(tensor_type, data):
    return layout(tensor_type).pack(data)


def unpack(tensor_type, storage, dtype=None):
    return layout(tensor_type).unpack(storage, dtype)


def pack_surfaces(tensor_type, data):
    """Every storage surface of a constant of `tensor_type` (compressed and
    Winograd weights included): {name: numpy uint8 array}."""
    if not isinstance(tensor_type, Type):
        tensor_type = default_context().parse_type(tensor_type)
    return tensor_type.pack_surfaces(data)


from .onnx_import import import_onnx  # noqa: E402  (needs the classes above)
