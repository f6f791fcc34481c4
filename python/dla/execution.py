"""Compile and run MLIR modules on the CPU through MLIR's ExecutionEngine.

    import numpy as np
    from dla import execution

    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(text)                 # func.func @forward(tensor...) -> tensor
        engine = execution.compile(module)      # dla + tosa -> LLVM -> JIT
        engine.remarks                          # what the pipeline said
        (y,) = engine.invoke("forward", [x])

Inputs and outputs are numpy arrays passed as memref descriptors to the
`llvm.emit_c_interface` wrapper of the function (`reference_pipeline()`
requests it for every function). `compile` records each function's type as
the attribute `dla.signature` before lowering (`record_signatures`, for
modules lowered by other means): `invoke` checks the number, element types,
byte order and shapes of the inputs against it, derives the outputs' shapes
and types from it, copies each result out of the memref the function
returns and frees that memref.
"""

import ctypes
import os
from ctypes import POINTER, Structure, c_bool, c_int, c_int64, c_void_p

import numpy as np

from . import Context, DLAError, _capi, pipelines
from .errors import DLATypeError, DLAValueError

__all__ = ["ExecutionContext", "ExecutionEngine", "compile", "compile_pipeline", "public_functions",
           "record_signatures", "reference_pipeline", "RUNTIME_LIBRARIES", "SIGNATURE_ATTR"]

MlirExecutionEngine = _capi._handle("MlirExecutionEngine")
MlirDialectRegistry = _capi._handle("MlirDialectRegistry")

_capi._declare("mlirDialectRegistryCreate", MlirDialectRegistry)
_capi._declare("mlirDialectRegistryDestroy", None, MlirDialectRegistry)
_capi._declare("mlirRegisterAllDialects", None, MlirDialectRegistry)
_capi._declare("mlirContextAppendDialectRegistry", None, _capi.MlirContext, MlirDialectRegistry)
_capi._declare("mlirRegisterAllLLVMTranslations", None, _capi.MlirContext)
# include/dla-c/Execution.h: upstream's engine, code generated at opt_level.
_capi._declare("dlaExecutionEngineCreate", MlirExecutionEngine, _capi.MlirModule, c_int, c_int,
               POINTER(_capi.MlirStringRef))
_capi._declare("mlirExecutionEngineDestroy", None, MlirExecutionEngine)
_capi._declare("mlirExecutionEngineLookupPacked", c_void_p, MlirExecutionEngine,
               _capi.MlirStringRef)

_capi._declare("mlirOperationGetAttributeByName", _capi.MlirAttribute, _capi.MlirOperation,
               _capi.MlirStringRef)
_capi._declare("mlirOperationSetAttributeByName", None, _capi.MlirOperation, _capi.MlirStringRef,
               _capi.MlirAttribute)
_capi._declare("mlirTypeAttrGet", _capi.MlirAttribute, _capi.MlirType)
_capi._declare("mlirTypeIsAMemRef", c_bool, _capi.MlirType)
_capi._declare("mlirShapedTypeHasRank", c_bool, _capi.MlirType)
_capi._declare("mlirShapedTypeIsDynamicDim", c_bool, _capi.MlirType, ctypes.c_ssize_t)

MlirRegion = _capi._handle("MlirRegion")
MlirBlock = _capi._handle("MlirBlock")
_capi._declare("mlirOperationGetNumRegions", ctypes.c_ssize_t, _capi.MlirOperation)
_capi._declare("mlirOperationGetRegion", MlirRegion, _capi.MlirOperation, ctypes.c_ssize_t)
_capi._declare("mlirRegionGetFirstBlock", MlirBlock, MlirRegion)
_capi._declare("mlirModuleGetBody", MlirBlock, _capi.MlirModule)
_capi._declare("mlirBlockGetFirstOperation", _capi.MlirOperation, MlirBlock)
_capi._declare("mlirOperationGetNextInBlock", _capi.MlirOperation, _capi.MlirOperation)

_libc = ctypes.CDLL(None)
_libc.free.argtypes = [c_void_p]
_libc.free.restype = None

_LLVM_LIB = "/usr/lib/llvm-22/lib"
#: memrefCopy and friends, which lowered memref.copy calls.
RUNTIME_LIBRARIES = [os.path.join(_LLVM_LIB, "libmlir_c_runner_utils.so")]


#: The pipelines of the lowering (dla.pipelines, where they are written).
reference_pipeline = pipelines.reference_pipeline
compile_pipeline = pipelines.compile_pipeline


class ExecutionContext(Context):
    """A Context with every upstream dialect and the LLVM IR translations, as
    the lowering and the JIT need them."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        registry = _capi.mlirDialectRegistryCreate()
        _capi.mlirRegisterAllDialects(registry)
        _capi.mlirContextAppendDialectRegistry(self.handle, registry)
        _capi.mlirDialectRegistryDestroy(registry)
        _capi.mlirRegisterAllLLVMTranslations(self.handle)


#: The discardable attribute holding a function's type from before the
#: lowering: what invoke checks calls against.
SIGNATURE_ATTR = "dla.signature"

#: Element types of the memrefs invoke passes, and their numpy dtypes.
ELEMENT_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
                  "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
                  "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
                  "si8": np.int8, "si16": np.int16, "si32": np.int32, "si64": np.int64}


def _functions(module, names):
    """[(op name, symbol name, MlirOperation)] of the module's top-level ops
    named `names` (functions live there: no walk of their bodies)."""
    found = []
    op = _capi.mlirBlockGetFirstOperation(_capi.mlirModuleGetBody(module.handle))
    while op.ptr:
        name = _capi.mlirIdentifierStr(_capi.mlirOperationGetName(op)).bytes().decode()
        if name in names:
            sym = _capi.mlirOperationGetAttributeByName(op, _capi.MlirStringRef.of(b"sym_name"))
            if sym.ptr:
                symbol = _capi.to_string(_capi.mlirAttributePrint, sym).strip('"')
                found.append((name, symbol, op))
        op = _capi.mlirOperationGetNextInBlock(op)
    return found


def public_functions(module):
    """The names of the module's public func.func ops, in order."""
    names = []
    for _, symbol, op in _functions(module, ("func.func",)):
        vis = _capi.mlirOperationGetAttributeByName(op, _capi.MlirStringRef.of(b"sym_visibility"))
        body = _capi.mlirOperationGetNumRegions(op) and _capi.mlirRegionGetFirstBlock(
            _capi.mlirOperationGetRegion(op, 0)).ptr
        if not vis.ptr and body:
            names.append(symbol)
    return names


def record_signatures(module):
    """Copies each func.func's type into its `dla.signature` attribute,
    which the lowering to LLVM keeps on the llvm.func: what
    ExecutionEngine.invoke checks calls against. `compile` does it."""
    key = _capi.MlirStringRef.of(SIGNATURE_ATTR.encode())
    for _, _, op in _functions(module, ("func.func",)):
        ftype = _capi.mlirOperationGetAttributeByName(op, _capi.MlirStringRef.of(b"function_type"))
        if ftype.ptr:
            _capi.mlirOperationSetAttributeByName(op, key, ftype)
    return module


def compile(module, *, storage_layers=False, pipeline=None, opt_level=2, shared_libraries=None,
            print_ops=False, **compile_options):
    """Records the signatures of `module`'s functions, lowers it (by
    `pipeline`, default reference_pipeline()) and JIT-compiles it. Options
    of compile_pipeline (target, precision, layouts, ...) compile it with
    compile_pipeline(**compile_options) instead, as dla-run-onnx does:
    `compile(module, layouts=True)`. The engine's `remarks` are the
    pipeline's diagnostics (dla.Diagnostic)."""
    if compile_options:
        if pipeline is not None:
            raise DLAError("execution.compile: give a pipeline or compile_pipeline's options (%s), "
                           "not both" % ", ".join(sorted(compile_options)))
        try:
            pipeline = compile_pipeline(**compile_options)
        except TypeError as e:
            raise DLAError("execution.compile: %s" % e)
    record_signatures(module)
    remarks = module.run_pipeline(pipeline or reference_pipeline(storage_layers=storage_layers),
                                  print_ops=print_ops)
    engine = ExecutionEngine(module, opt_level=opt_level, shared_libraries=shared_libraries)
    engine.remarks = remarks
    return engine


_DESCRIPTORS = {}


def _descriptor_type(rank):
    """The C struct of a ranked memref: allocated, aligned, offset, sizes,
    strides (in elements)."""
    if rank not in _DESCRIPTORS:
        _DESCRIPTORS[rank] = type("MemRef%dD" % rank, (Structure,), {"_fields_": [
            ("allocated", c_void_p), ("aligned", c_void_p), ("offset", c_int64),
            ("sizes", c_int64 * rank), ("strides", c_int64 * rank)]})
    return _DESCRIPTORS[rank]


def _to_descriptor(array):
    desc = _descriptor_type(array.ndim)()
    desc.allocated = desc.aligned = array.ctypes.data
    desc.offset = 0
    for i, (size, stride) in enumerate(zip(array.shape, array.strides)):
        desc.sizes[i] = size
        desc.strides[i] = stride // array.itemsize if array.itemsize else 0
    return desc


def _from_descriptor(desc, shape, dtype):
    """A copy of the memref's elements (any strides) as a new array."""
    dtype = np.dtype(dtype)
    sizes = list(desc.sizes)
    if any(d is not None and d != s for d, s in zip(shape, sizes)) or any(s < 0 for s in sizes):
        raise DLAError("result has shape %s, its type says %s"
                       % (sizes, ["?" if d is None else d for d in shape]))
    out = np.empty(sizes, dtype)
    if out.size == 0:
        return out
    if not desc.aligned:
        raise DLAError("result memref is null")
    base = desc.aligned + desc.offset * dtype.itemsize
    span = 1 + sum((s - 1) * st for s, st in zip(sizes, desc.strides))
    raw = (ctypes.c_char * (span * dtype.itemsize)).from_address(base)
    flat = np.frombuffer(raw, dtype=dtype, count=span)
    view = np.lib.stride_tricks.as_strided(
        flat, shape=sizes, strides=[st * dtype.itemsize for st in desc.strides])
    out[...] = view
    return out


class TensorSpec:
    """One argument or result of a recorded signature: shape (None for a
    dynamic size), numpy dtype and the MLIR type's text."""

    def __init__(self, shape, dtype, text):
        self.shape, self.dtype, self.text = shape, dtype, text

    def __repr__(self):
        return self.text


class Signature:
    def __init__(self, name, inputs, results):
        self.name, self.inputs, self.results = name, inputs, results


def _spec(t):
    """A TensorSpec of type `t`, or its text when invoke cannot pass it."""
    text = _capi.to_string(_capi.mlirTypePrint, t)
    if not ((_capi.mlirTypeIsARankedTensor(t) or _capi.mlirTypeIsAMemRef(t))
            and _capi.mlirShapedTypeHasRank(t)):
        return text
    element = _capi.to_string(_capi.mlirTypePrint, _capi.mlirShapedTypeGetElementType(t))
    if element not in ELEMENT_DTYPES:
        return text
    shape = tuple(None if _capi.mlirShapedTypeIsDynamicDim(t, i) else
                  _capi.mlirShapedTypeGetDimSize(t, i)
                  for i in range(_capi.mlirShapedTypeGetRank(t)))
    return TensorSpec(shape, np.dtype(ELEMENT_DTYPES[element]), text)


def _signature(name, ftype):
    ins = [_spec(_capi.mlirFunctionTypeGetInput(ftype, i))
           for i in range(_capi.mlirFunctionTypeGetNumInputs(ftype))]
    outs = [_spec(_capi.mlirFunctionTypeGetResult(ftype, i))
            for i in range(_capi.mlirFunctionTypeGetNumResults(ftype))]
    return Signature(name, ins, outs)


def _check_name(name):
    """A function name: a str without NUL (DLATypeError, DLAValueError)."""
    if not isinstance(name, str):
        raise DLATypeError("a function name must be a str, got %r" % (name,))
    _capi.to_cstr(name, "function name")


class ExecutionEngine:
    """JIT-compiles a module that is fully in the LLVM dialect.
    `opt_level` (0-3) is LLVM's IR optimization level and its code
    generator's (dlaExecutionEngineCreate, include/dla-c/Execution.h)."""

    def __init__(self, module, *, opt_level=2, shared_libraries=None):
        if isinstance(opt_level, bool) or not isinstance(opt_level, int):
            raise DLATypeError("opt_level must be an int (LLVM's level, 0-3), got %r" % (opt_level,))
        if not 0 <= opt_level <= 3:
            raise DLAValueError("opt_level %d: LLVM's optimization levels are 0 to 3" % opt_level)
        if isinstance(shared_libraries, (str, bytes)):
            raise DLATypeError("shared_libraries must be a list of paths, got the string %r"
                               % (shared_libraries,))
        libs = RUNTIME_LIBRARIES if shared_libraries is None else list(shared_libraries)
        for lib in libs:
            path = _capi.to_cstr(lib, "shared library path").decode("utf-8", "replace")
            if not os.path.isfile(path):
                # The engine would print the loader's error and go on without it.
                raise DLAValueError("shared library %s: no such file" % path)
        self._lib_data = [_capi.to_cstr(p, "library path") for p in libs]
        refs = (_capi.MlirStringRef * max(len(libs), 1))(
            *[_capi.MlirStringRef.of(d) for d in self._lib_data])
        # The context, not the module: translated to LLVM IR, the module is
        # not read again, and its constants need not stay.
        self._context = module.context
        self.remarks = []
        # The signatures first: the engine may consume the module's functions.
        self.signatures = {}
        key = _capi.MlirStringRef.of(SIGNATURE_ATTR.encode())
        for _, symbol, op in _functions(module, ("llvm.func", "func.func")):
            attr = _capi.mlirOperationGetAttributeByName(op, key)
            if attr.ptr and _capi.mlirAttributeIsAType(attr):
                ftype = _capi.mlirTypeAttrGetValue(attr)
                if _capi.mlirTypeIsAFunction(ftype):
                    self.signatures[symbol] = _signature(symbol, ftype)
        self._handle = _capi.dlaExecutionEngineCreate(module.handle, opt_level, len(libs), refs)
        if not self._handle.ptr:
            raise DLAError("cannot JIT-compile the module: it must be lowered to the LLVM "
                           "dialect completely (see reference_pipeline())")

    def close(self):
        if getattr(self, "_handle", None) is not None and self._handle.ptr:
            _capi.mlirExecutionEngineDestroy(self._handle)
        self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def signature(self, name):
        """The recorded Signature of @name (inputs and results as TensorSpec)."""
        _check_name(name)
        sig = self.signatures.get(name)
        if sig is None:
            raise DLAError("@%s has no recorded signature (the `%s` attribute): lower the module "
                           "with execution.compile(), or call execution.record_signatures() "
                           "before lowering it" % (name, SIGNATURE_ATTR))
        for what, specs in (("input", sig.inputs), ("result", sig.results)):
            for i, spec in enumerate(specs):
                if not isinstance(spec, TensorSpec):
                    raise DLAError("@%s: %s %d has type %s; invoke passes ranked tensors and "
                                   "memrefs of %s only" % (name, what, i, spec,
                                                           ", ".join(ELEMENT_DTYPES)))
        return sig

    def _check_inputs(self, sig, inputs):
        if len(inputs) != len(sig.inputs):
            raise DLAError("@%s takes %d inputs %s, %d given"
                           % (sig.name, len(sig.inputs), sig.inputs, len(inputs)))
        arrays = []
        for i, (a, spec) in enumerate(zip(inputs, sig.inputs)):
            if not isinstance(a, np.ndarray):
                raise DLAError("@%s: input %d is a %s, not a numpy array (%s)"
                               % (sig.name, i, type(a).__name__, spec))
            if not a.dtype.isnative and a.dtype.newbyteorder("=") == spec.dtype:
                raise DLAError("@%s: input %d is %s-endian %s; the function reads the host's "
                               "byte order (convert with .astype(np.%s))"
                               % (sig.name, i, "big" if a.dtype.byteorder == ">" else "little",
                                  a.dtype.name, spec.dtype.name))
            if a.dtype != spec.dtype:
                raise DLAError("@%s: input %d has dtype %s, the function takes %s (%s)"
                               % (sig.name, i, a.dtype, spec.dtype, spec))
            if len(a.shape) != len(spec.shape) or any(
                    d is not None and d != n for d, n in zip(spec.shape, a.shape)):
                raise DLAError("@%s: input %d has shape %s, the function takes %s"
                               % (sig.name, i, list(a.shape), spec))
            arrays.append(np.ascontiguousarray(a))
        return arrays

    def _lookup(self, name):
        if self._handle is None:
            raise DLAError("the execution engine is closed")
        _check_name(name)
        symbol = _capi.to_cstr("_mlir_ciface_" + name, "function name")
        fn = _capi.mlirExecutionEngineLookupPacked(self._handle, _capi.MlirStringRef.of(symbol))
        if not fn:
            raise DLAError("no function @%s with a C interface in the module" % name)
        return fn

    def generate_code(self, name):
        """Generates the machine code of the module now rather than at the
        first invoke (the JIT compiles on the first look-up of a symbol):
        compile times then include it, run times do not."""
        self._lookup(name)

    def invoke(self, name, inputs=()):
        """Calls `name` (compiled with llvm.emit_c_interface) on the list of
        numpy arrays `inputs`, checked against its recorded signature;
        returns the list of its results, new arrays of the shapes and dtypes
        its type gives."""
        _check_name(name)
        if not isinstance(inputs, (list, tuple)):
            raise DLAError("@%s: inputs must be a list of numpy arrays, got a %s"
                           % (name, type(inputs).__name__))
        fn = self._lookup(name)
        sig = self.signature(name)
        arrays = self._check_inputs(sig, inputs)
        in_descs = [_to_descriptor(a) for a in arrays]
        out_types = [_descriptor_type(len(spec.shape)) for spec in sig.results]
        args = []
        result = None
        if len(out_types) == 1:
            result = out_types[0]()
            args.append(ctypes.pointer(result))
        elif out_types:
            result = type("Results", (Structure,),
                          {"_fields_": [("r%d" % i, t) for i, t in enumerate(out_types)]})()
            args.append(ctypes.pointer(result))
        args += [ctypes.pointer(d) for d in in_descs]
        # The packed wrapper takes one pointer per argument, each pointing at
        # the argument (here: at a descriptor pointer).
        holders = [ctypes.pointer(a) for a in args]
        packed = (c_void_p * max(len(holders), 1))(
            *[ctypes.cast(h, c_void_p) for h in holders])
        ctypes.CFUNCTYPE(None, c_void_p)(fn)(ctypes.cast(packed, c_void_p))
        descs = [result] if len(out_types) == 1 else \
            [getattr(result, "r%d" % i) for i in range(len(out_types))]
        try:
            return [_from_descriptor(d, spec.shape, spec.dtype)
                    for d, spec in zip(descs, sig.results)]
        finally:
            _free_results(descs, arrays)


# memref.get_global's descriptors hold this as their allocated pointer.
_GLOBAL_ALLOCATED = 0xDEADBEEF


def _free_results(descs, arrays):
    """Frees the heap buffer of every result once: the caller owns what a
    function returns (the lowering clones a returned argument or
    constant). Never an input's buffer or a global."""
    inputs = {a.ctypes.data for a in arrays}
    freed = set()
    for d in descs:
        p = d.allocated
        if p and p != _GLOBAL_ALLOCATED and p not in inputs and p not in freed:
            freed.add(p)
            _libc.free(p)
