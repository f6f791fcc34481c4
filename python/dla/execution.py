"""Compile and run MLIR modules on the CPU through MLIR's ExecutionEngine.

    import numpy as np
    from dla import execution

    with execution.ExecutionContext() as ctx:
        module = ctx.parse_module(text)                 # func.func @forward(tensor...) -> tensor
        module.run_pipeline(execution.reference_pipeline())   # dla + tosa -> LLVM
        engine = execution.ExecutionEngine(module)
        (y,) = engine.invoke("forward", [x], [((1, 2), np.float32)])

Inputs and outputs are numpy arrays passed as memref descriptors to the
`llvm.emit_c_interface` wrapper of the function (`reference_pipeline()`
requests it for every function); each output is described by its shape and
dtype and copied out of the memref the function returns.
"""

import ctypes
import os
from ctypes import POINTER, Structure, c_bool, c_int, c_int64, c_void_p

import numpy as np

from . import Context, DLAError, _capi

__all__ = ["ExecutionContext", "ExecutionEngine", "reference_pipeline", "RUNTIME_LIBRARIES"]

MlirExecutionEngine = _capi._handle("MlirExecutionEngine")
MlirDialectRegistry = _capi._handle("MlirDialectRegistry")

_capi._declare("mlirDialectRegistryCreate", MlirDialectRegistry)
_capi._declare("mlirDialectRegistryDestroy", None, MlirDialectRegistry)
_capi._declare("mlirRegisterAllDialects", None, MlirDialectRegistry)
_capi._declare("mlirContextAppendDialectRegistry", None, _capi.MlirContext, MlirDialectRegistry)
_capi._declare("mlirRegisterAllLLVMTranslations", None, _capi.MlirContext)
_capi._declare("mlirRegisterAllPasses", None)
_capi._declare("mlirExecutionEngineCreate", MlirExecutionEngine, _capi.MlirModule, c_int, c_int,
               POINTER(_capi.MlirStringRef), c_bool, c_bool)
_capi._declare("mlirExecutionEngineDestroy", None, MlirExecutionEngine)
_capi._declare("mlirExecutionEngineLookupPacked", c_void_p, MlirExecutionEngine,
               _capi.MlirStringRef)

# Every upstream pass by name (tosa-to-linalg, one-shot-bufferize, ...).
_capi.mlirRegisterAllPasses()

_LLVM_LIB = "/usr/lib/llvm-22/lib"
#: memrefCopy and friends, which lowered memref.copy calls.
RUNTIME_LIBRARIES = [os.path.join(_LLVM_LIB, "libmlir_c_runner_utils.so")]


def reference_pipeline(*, storage_layers=False):
    """The pipeline from dla layer ops and TOSA host ops to the LLVM dialect,
    with a C interface wrapper for every function: the registered
    --dla-lower-to-llvm pipeline (lib/Pipelines), by name. By default every
    layer op goes through --dla-lower-to-reference (the reference
    execution); `storage_layers` runs encoded layers on their storage."""
    return "builtin.module(dla-lower-to-llvm{c-wrappers=true storage-layers=%s})" % (
        "true" if storage_layers else "false")


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
        desc.strides[i] = stride // array.itemsize
    return desc


def _from_descriptor(desc, shape, dtype):
    """A copy of the memref's elements (any strides) as a new array."""
    dtype = np.dtype(dtype)
    if list(desc.sizes) != list(shape):
        raise DLAError("result has shape %s, expected %s" % (list(desc.sizes), list(shape)))
    out = np.empty(shape, dtype)
    if out.size == 0:
        return out
    if not desc.aligned:
        raise DLAError("result memref is null")
    base = desc.aligned + desc.offset * dtype.itemsize
    span = 1 + sum((s - 1) * st for s, st in zip(shape, desc.strides))
    raw = (ctypes.c_char * (span * dtype.itemsize)).from_address(base)
    flat = np.frombuffer(raw, dtype=dtype, count=span)
    view = np.lib.stride_tricks.as_strided(
        flat, shape=shape, strides=[st * dtype.itemsize for st in desc.strides])
    out[...] = view
    return out


class ExecutionEngine:
    """JIT-compiles a module that is fully in the LLVM dialect."""

    def __init__(self, module, *, opt_level=2, shared_libraries=None):
        libs = RUNTIME_LIBRARIES if shared_libraries is None else list(shared_libraries)
        self._lib_data = [_capi.to_cstr(p, "library path") for p in libs]
        refs = (_capi.MlirStringRef * max(len(libs), 1))(
            *[_capi.MlirStringRef.of(d) for d in self._lib_data])
        self._module = module  # the engine reads the module's context
        self._handle = _capi.mlirExecutionEngineCreate(module.handle, opt_level, len(libs), refs,
                                                       False, False)
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

    def invoke(self, name, inputs, outputs):
        """Calls `name` (compiled with llvm.emit_c_interface) on the numpy
        arrays `inputs`; `outputs` lists (shape, dtype) of its memref
        results, returned as new arrays."""
        if self._handle is None:
            raise DLAError("the execution engine is closed")
        symbol = _capi.to_cstr("_mlir_ciface_" + name, "function name")
        fn = _capi.mlirExecutionEngineLookupPacked(self._handle, _capi.MlirStringRef.of(symbol))
        if not fn:
            raise DLAError("no function @%s with a C interface in the module" % name)
        arrays = [np.ascontiguousarray(a) for a in inputs]
        in_descs = [_to_descriptor(a) for a in arrays]
        out_types = [_descriptor_type(len(shape)) for shape, _ in outputs]
        args = []
        result = None
        if len(outputs) == 1:
            result = out_types[0]()
            args.append(ctypes.pointer(result))
        elif outputs:
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
        if len(outputs) == 1:
            descs = [result]
        else:
            descs = [getattr(result, "r%d" % i) for i in range(len(outputs))]
        return [_from_descriptor(d, shape, dtype) for d, (shape, dtype) in zip(descs, outputs)]
