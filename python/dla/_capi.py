"""ctypes declarations of libDLACAPI.so (include/dla-c/ and the upstream MLIR
C API it re-exports). Private: use the classes of the `dla` package.

The library is looked up, in order, at
  1. $DLA_CAPI_LIBRARY (a path to the .so),
  2. ../../lib/libDLACAPI.so relative to this package (an installed prefix
     P/python_packages/dla, or a build tree's python_packages/dla),
  3. the dynamic loader's search path (LD_LIBRARY_PATH, ...).
"""

import ctypes
import operator
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_char_p, c_double, c_int,
                    c_int8, c_int16, c_int32, c_int64, c_size_t, c_ssize_t, c_uint8, c_uint16,
                    c_uint32, c_uint64, c_void_p)

from .errors import DLAOverflowError, DLATypeError, DLAValueError

LIBRARY_NAME = "libDLACAPI.so"


def _find_library():
    env = os.environ.get("DLA_CAPI_LIBRARY")
    if env:
        if not os.path.isfile(env):
            raise OSError("DLA_CAPI_LIBRARY=%s: no such file" % env)
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    candidate = os.path.normpath(os.path.join(here, "..", "..", "lib", LIBRARY_NAME))
    if os.path.isfile(candidate):
        return candidate
    return LIBRARY_NAME


LIBRARY_PATH = _find_library()
# Loaded at the first use of a declared function (_load), not at import: the
# parts of the package that need no library (dla.pipelines, dla.onnx's
# graph code) import without it, e.g. in a process that cannot load an
# instrumented build of it.
lib = None


def _handle(name):
    """A C API handle: a struct holding one pointer."""
    return type(name, (Structure,), {"_fields_": [("ptr", c_void_p)]})


MlirContext = _handle("MlirContext")
MlirDialectHandle = _handle("MlirDialectHandle")
MlirModule = _handle("MlirModule")
MlirOperation = _handle("MlirOperation")
MlirType = _handle("MlirType")
MlirAttribute = _handle("MlirAttribute")
MlirTypeID = _handle("MlirTypeID")
MlirIdentifier = _handle("MlirIdentifier")
MlirValue = _handle("MlirValue")
MlirLocation = _handle("MlirLocation")
MlirOpPrintingFlags = _handle("MlirOpPrintingFlags")
DlaStatus = _handle("DlaStatus")
DlaBoundLayout = _handle("DlaBoundLayout")
DlaConstantPacker = _handle("DlaConstantPacker")
DlaStorageDescription = _handle("DlaStorageDescription")


class MlirStringRef(Structure):
    _fields_ = [("data", c_void_p), ("length", c_size_t)]

    @classmethod
    def of(cls, data):
        """A reference to `data` (bytes), which the caller keeps alive."""
        return cls(ctypes.cast(c_char_p(data), c_void_p), len(data))

    def bytes(self):
        return ctypes.string_at(self.data, self.length) if self.length else b""


class MlirLogicalResult(Structure):
    _fields_ = [("value", c_int8)]


class MlirNamedAttribute(Structure):
    _fields_ = [("name", MlirIdentifier), ("attribute", MlirAttribute)]


MlirStringCallback = CFUNCTYPE(None, MlirStringRef, c_void_p)
# MlirWalkResult (int) callback(MlirOperation, void *userData)
MlirOperationWalkCallback = CFUNCTYPE(ctypes.c_int, MlirOperation, c_void_p)
DlaDiagnosticCallback = CFUNCTYPE(None, c_int, MlirStringRef, MlirStringRef, c_void_p)
#: MlirDiagnosticSeverity, by value.
SEVERITIES = ("error", "warning", "note", "remark")
WALK_ADVANCE = 0
WALK_PRE_ORDER = 0
_I64P = POINTER(c_int64)


def _int_range(ctype):
    bits = 8 * ctypes.sizeof(ctype)
    signed = ctype(-1).value < 0
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


# ctypes converts Python ints to C integers modulo 2**bits and passes bytes
# to char* up to their first NUL: 2**64 + 1 would arrive as 1 and
# "flat\0junk" as "flat". Every declared function therefore checks its
# integer and string arguments first.
_INT_RANGES = {t: _int_range(t) for t in (c_int64, c_ssize_t, c_size_t, c_uint64, c_int8,
                                           c_int32)}


def to_int(value, ctype=c_int64, what="integer"):
    """`value` as an int that `ctype` holds exactly; TypeError for
    non-integers (3.5 is not silently truncated), OverflowError outside the
    range."""
    try:
        v = operator.index(value)
    except TypeError:
        raise DLATypeError("%s must be an integer, got %r" % (what, value)) from None
    lo, hi = _INT_RANGES[ctype]
    if not lo <= v <= hi:
        raise DLAOverflowError("%s %d does not fit in a %d-bit %s integer"
                            % (what, v, 8 * ctypes.sizeof(ctype),
                               "signed" if lo < 0 else "unsigned"))
    return v


def to_cstr(text, what="string"):
    """`text` (str or bytes) as NUL-free bytes for a char* argument."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise DLATypeError("%s must be a str, got %r" % (what, text))
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    if b"\0" in data:
        raise DLAValueError("%s %r contains a NUL character" % (what, text))
    return data


#: {C function: (restype, [argtypes])}: every declaration of the package
#: (here and in its modules), which python/tests/test_capi_declarations.py
#: checks against the C headers (include/dla-c, mlir-c).
DECLARED = {}


def _declare(name, restype, *argtypes):
    """Records a C function; _load binds it (the module's attribute `name`)."""
    DECLARED[name] = (restype, list(argtypes))


def _load():
    """Loads the library once and binds every declared function."""
    global lib
    if lib is not None:
        return
    try:
        loaded = ctypes.CDLL(LIBRARY_PATH)
    except OSError as e:
        raise ImportError(
            "dla: cannot load %s (%s). Build it (ninja DLACAPI), install the "
            "package, or set DLA_CAPI_LIBRARY to its path." % (LIBRARY_PATH, e)) from e
    for name, (restype, argtypes) in DECLARED.items():
        _bind(loaded, name, restype, argtypes)
    lib = loaded
    # Passes and pipelines are registered once per process, by flag, for
    # textual pipelines: dla's and every upstream one, as dla-opt has them.
    dlaRegisterAllPasses()
    mlirRegisterAllPasses()


def __getattr__(name):
    # A declared function before the library is loaded.
    if name in DECLARED:
        _load()
        return globals()[name]
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def _bind(lib, name, restype, argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    ints = [(i, t) for i, t in enumerate(argtypes) if t in _INT_RANGES]
    strs = [i for i, t in enumerate(argtypes) if t is c_char_p]
    if not ints and not strs:
        globals()[name] = fn
        return

    def checked(*args):
        for i, t in ints:
            to_int(args[i], t, "argument %d of %s" % (i, name))
        for i in strs:
            if args[i] is not None:
                to_cstr(args[i], "argument %d of %s" % (i, name))
        return fn(*args)

    checked.__name__ = name
    globals()[name] = checked


# --- upstream MLIR C API -----------------------------------------------------
_declare("mlirContextCreateWithThreading", MlirContext, c_bool)
_declare("mlirContextDestroy", None, MlirContext)
_declare("mlirContextSetAllowUnregisteredDialects", None, MlirContext, c_bool)
_declare("mlirDialectHandleRegisterDialect", None, MlirDialectHandle, MlirContext)
for _ns in ("func", "arith", "tensor"):
    _declare("mlirGetDialectHandle__%s__" % _ns, MlirDialectHandle)
_declare("mlirModuleGetOperation", MlirOperation, MlirModule)
_declare("mlirModuleDestroy", None, MlirModule)
_declare("mlirOperationPrint", None, MlirOperation, MlirStringCallback, c_void_p)
_declare("mlirOpPrintingFlagsCreate", MlirOpPrintingFlags)
_declare("mlirOpPrintingFlagsDestroy", None, MlirOpPrintingFlags)
_declare("mlirOpPrintingFlagsEnableDebugInfo", None, MlirOpPrintingFlags, c_bool, c_bool)
_declare("mlirOperationPrintWithFlags", None, MlirOperation, MlirOpPrintingFlags, MlirStringCallback,
         c_void_p)
_declare("mlirOperationWriteBytecode", None, MlirOperation, MlirStringCallback, c_void_p)
_declare("mlirModuleCreateParseFromFile", MlirModule, MlirContext, MlirStringRef)
_declare("mlirOperationVerify", c_bool, MlirOperation)
_declare("mlirTypePrint", None, MlirType, MlirStringCallback, c_void_p)
_declare("mlirTypeEqual", c_bool, MlirType, MlirType)
_declare("mlirAttributePrint", None, MlirAttribute, MlirStringCallback, c_void_p)
_declare("mlirAttributeEqual", c_bool, MlirAttribute, MlirAttribute)
_declare("mlirTypeIsARankedTensor", c_bool, MlirType)
_declare("mlirShapedTypeGetElementType", MlirType, MlirType)
_declare("mlirRankedTensorTypeGetEncoding", MlirAttribute, MlirType)
_declare("mlirShapedTypeGetRank", c_int64, MlirType)
_declare("mlirShapedTypeGetDimSize", c_int64, MlirType, c_ssize_t)
_declare("mlirRegisterTransformsPasses", None)
_declare("mlirOperationWalk", None, MlirOperation, MlirOperationWalkCallback, c_void_p,
         ctypes.c_int)
_declare("mlirOperationGetName", MlirIdentifier, MlirOperation)
_declare("mlirIdentifierStr", MlirStringRef, MlirIdentifier)
_declare("mlirOperationGetNumAttributes", c_ssize_t, MlirOperation)
_declare("mlirOperationGetAttribute", MlirNamedAttribute, MlirOperation, c_ssize_t)
_declare("mlirOperationGetNumResults", c_ssize_t, MlirOperation)
_declare("mlirOperationGetResult", MlirValue, MlirOperation, c_ssize_t)
_declare("mlirValueGetType", MlirType, MlirValue)
_declare("mlirOperationGetNumOperands", c_ssize_t, MlirOperation)
_declare("mlirOperationGetOperand", MlirValue, MlirOperation, c_ssize_t)
_declare("mlirValueIsABlockArgument", c_bool, MlirValue)
_declare("mlirBlockArgumentGetArgNumber", c_ssize_t, MlirValue)
_declare("mlirOperationGetLocation", MlirLocation, MlirOperation)
_declare("mlirLocationPrint", None, MlirLocation, MlirStringCallback, c_void_p)
_declare("mlirAttributeIsADenseResourceElements", c_bool, MlirAttribute)
_declare("mlirAttributeIsAType", c_bool, MlirAttribute)
_declare("mlirTypeAttrGetValue", MlirType, MlirAttribute)
_declare("mlirTypeIsAFunction", c_bool, MlirType)
_declare("mlirFunctionTypeGetNumInputs", c_ssize_t, MlirType)
_declare("mlirFunctionTypeGetInput", MlirType, MlirType, c_ssize_t)
_declare("mlirFunctionTypeGetNumResults", c_ssize_t, MlirType)
_declare("mlirFunctionTypeGetResult", MlirType, MlirType, c_ssize_t)

# --- dla C API (dla-c/Dialects.h, Format.h, Passes.h) ------------------------
_declare("mlirGetDialectHandle__dla__", MlirDialectHandle)
_declare("mlirRegisterDLAPasses", None)
_declare("dlaContextRegisterDialects", None, MlirContext)
_declare("dlaDenseResourceAttrGetBlob", DlaStatus, MlirAttribute, POINTER(MlirStringRef),
         POINTER(c_void_p), POINTER(c_size_t))
_declare("dlaOperationGetHardwareUnit", c_char_p, MlirOperation)
_declare("dlaOperationComputes", c_bool, MlirOperation)
_declare("dlaOperationRunsInEmulator", c_bool, MlirOperation)
_declare("dlaStatusGetMessage", c_char_p, DlaStatus)
_declare("dlaStatusDestroy", None, DlaStatus)

_declare("dlaAttributeIsAChunked", c_bool, MlirAttribute)
_declare("dlaAttributeIsALayoutEncoding", c_bool, MlirAttribute)
_declare("dlaChunkedAttrGet", MlirAttribute, MlirContext, c_ssize_t, _I64P, _I64P)
_declare("dlaChunkedAttrGetPreset", MlirAttribute, MlirContext, MlirStringRef)
_declare("dlaChunkedAttrGetNumPairs", c_ssize_t, MlirAttribute)
_declare("dlaChunkedAttrGetDim", c_int64, MlirAttribute, c_ssize_t)
_declare("dlaChunkedAttrGetSize", c_int64, MlirAttribute, c_ssize_t)
_declare("dlaChunkedAttrGetRank", c_int64, MlirAttribute)
_declare("dlaChunkedAttrGetPresetName", MlirStringRef, MlirAttribute)

_declare("dlaTypeBindLayout", DlaStatus, MlirType, POINTER(DlaBoundLayout))
_declare("dlaTypeCreateConstantPacker", DlaStatus, MlirType, POINTER(DlaConstantPacker))
_declare("dlaConstantPackerDestroy", None, DlaConstantPacker)
_declare("dlaConstantPackerGetNumSurfaces", c_ssize_t, DlaConstantPacker)
_declare("dlaConstantPackerGetSurfaceName", c_char_p, DlaConstantPacker, c_ssize_t)
_declare("dlaConstantPackerPlan", DlaStatus, DlaConstantPacker, c_void_p, c_size_t, _I64P)
_declare("dlaConstantPackerPack", DlaStatus, DlaConstantPacker, c_void_p, c_size_t,
         POINTER(c_void_p))
_declare("dlaModuleParse", DlaStatus, MlirContext, MlirStringRef, POINTER(MlirModule))
_declare("dlaTypeParse", DlaStatus, MlirContext, MlirStringRef, POINTER(MlirType))
_declare("dlaAttributeParse", DlaStatus, MlirContext, MlirStringRef, POINTER(MlirAttribute))
_declare("dlaRunPassPipeline", DlaStatus, MlirOperation, MlirStringRef)
_declare("dlaRunPassPipelineWithDiagnostics", DlaStatus, MlirOperation, MlirStringRef,
         DlaDiagnosticCallback, c_void_p, c_bool, c_ssize_t)
_declare("dlaPrintRegisteredPasses", None, MlirStringCallback, c_void_p)

_declare("dlaBoundLayoutDestroy", None, DlaBoundLayout)
_declare("dlaBoundLayoutGetRank", c_ssize_t, DlaBoundLayout)
_declare("dlaBoundLayoutGetDimSize", c_int64, DlaBoundLayout, c_ssize_t)
_declare("dlaBoundLayoutGetElementBytes", c_int64, DlaBoundLayout)
_declare("dlaBoundLayoutGetNumElements", c_int64, DlaBoundLayout)
_declare("dlaBoundLayoutGetStorageBytes", c_int64, DlaBoundLayout)
_declare("dlaBoundLayoutDescribeStorage", DlaStorageDescription, DlaBoundLayout)
_declare("dlaTypeDescribeStorage", DlaStatus, MlirType, ctypes.POINTER(DlaStorageDescription))
_declare("dlaStorageDescriptionDestroy", None, DlaStorageDescription)
_declare("dlaStorageDescriptionGetNumBuffers", c_ssize_t, DlaStorageDescription)
_declare("dlaStorageDescriptionGetBuffer", DlaStatus, DlaStorageDescription, c_ssize_t,
         POINTER(c_char_p), _I64P, _I64P)
_declare("dlaStorageDescriptionGetNumViews", c_ssize_t, DlaStorageDescription)
_declare("dlaStorageDescriptionGetView", DlaStatus, DlaStorageDescription, c_ssize_t,
         POINTER(c_char_p), POINTER(c_ssize_t), _I64P, _I64P, POINTER(c_ssize_t))
_declare("dlaStorageDescriptionGetViewDim", DlaStatus, DlaStorageDescription, c_ssize_t,
         c_ssize_t, _I64P, _I64P, _I64P, _I64P)
_declare("dlaStorageDescriptionGetViewLogicalBase", c_int64, DlaStorageDescription, c_ssize_t,
         c_ssize_t)
_declare("dlaBoundLayoutGetByteOffset", DlaStatus, DlaBoundLayout, c_ssize_t, _I64P, _I64P)
_declare("dlaBoundLayoutLocate", DlaStatus, DlaBoundLayout, c_int64, POINTER(c_bool), _I64P,
         _I64P)
_declare("dlaBoundLayoutPack", DlaStatus, DlaBoundLayout, c_void_p, c_size_t, c_void_p,
         c_size_t)
_declare("dlaBoundLayoutUnpack", DlaStatus, DlaBoundLayout, c_void_p, c_size_t, c_void_p,
         c_size_t)
_declare("dlaChunkedGetNumPresets", c_ssize_t)
_declare("dlaChunkedGetPresetName", c_char_p, c_ssize_t)
_declare("dlaChunkedGetPresetPairs", DlaStatus, c_char_p, c_ssize_t, _I64P, _I64P,
         POINTER(c_ssize_t))
_declare("dlaChunkedValidate", DlaStatus, c_ssize_t, _I64P, _I64P)
_declare("dlaChunkedBind", DlaStatus, c_ssize_t, _I64P, _I64P, c_ssize_t, _I64P, c_int64,
         POINTER(DlaBoundLayout))
_declare("dlaNvdlaScalesFromFactors", DlaStatus, c_ssize_t, POINTER(c_double), c_int,
         POINTER(c_int16), POINTER(c_uint8), POINTER(c_double))
_declare("dlaNvdlaBiasToInt16", DlaStatus, c_ssize_t, POINTER(c_int32), c_int, POINTER(c_int16),
         POINTER(c_uint8), POINTER(c_int64))
_declare("dlaNvdlaLutFloat", DlaStatus, c_ssize_t, _I64P, c_ssize_t, POINTER(c_uint32),
         POINTER(c_uint32))
_declare("dlaNvdlaLutFloatProgram", DlaStatus, c_char_p, c_ssize_t, _I64P, POINTER(c_double),
         POINTER(c_double))
_declare("dlaNvdlaLrnFloatTables", DlaStatus, c_double, c_double, c_double, c_int64, c_ssize_t,
         _I64P)
_declare("dlaNvdlaCmacFp16", DlaStatus, c_ssize_t, POINTER(c_uint16), POINTER(c_uint16), _I64P,
         _I64P)
_declare("dlaNvdlaCaccAdd", DlaStatus, c_ssize_t, _I64P, _I64P, _I64P, _I64P, _I64P, _I64P)
_declare("dlaNvdlaCaccToFp32", DlaStatus, c_ssize_t, _I64P, _I64P, POINTER(c_uint32))
_declare("dlaNvdlaConvFp16", DlaStatus, _I64P, _I64P, POINTER(c_uint16), POINTER(c_uint16),
         POINTER(c_uint32))
_declare("dlaNvdlaConvWinoFp16", DlaStatus, _I64P, _I64P, c_uint16, POINTER(c_uint16),
         POINTER(c_uint16), POINTER(c_uint32))
_declare("dlaNvdlaSdpXFp16", DlaStatus, _I64P, c_ssize_t, POINTER(c_uint32), POINTER(c_uint16),
         POINTER(c_uint16), POINTER(c_uint32))

# --- dla-c/Performance.h ------------------------------------------------------
def _struct(name, fields):
    """A ctypes Structure of (type, "a, b, c") groups, in the header's order."""
    return type(name, (Structure,), {"_fields_": [(n.strip(), t) for t, names in fields
                                                  for n in names.split(",")]})


DlaPerfConfig = _struct("DlaPerfConfig", [
    (c_int32, "base, precision"),
    (c_int64, "macs, channelGranule, kernelGranule, featureChannelGranule, convBufferBytes"),
    (c_double, "clockHz, dramBytesPerSecond"), (c_int64, "memifBytesPerCycle"),
    (c_double, "memoryLatencyCycles"),
    (c_int64, "sdpThroughput, sdpEwThroughput, pdpThroughput, cdpThroughput"),
    (c_int32, "winograd"), (c_int64, "fcBatch"),
    (c_int32, "foldStride, spreadsheetBufferRule, postProcessingBound, winogradWeightsExpanded,"
              "fcWeightsAmortized, bufferReloads"),
    (c_int64, "minInputExtraRows, minWeightKernels"),
    (c_int32, "sideByLeastInput, sideByAllWeights, operandAfterPooling"),
    (c_double, "convStartCycles, sdpStartCycles, pdpStartCycles, cdpStartCycles, startLatencies"),
    (c_int64, "readsInFlight"), (c_double, "requestCycles"), (c_int64, "stripeAtomics"),
    (c_double, "stripeCycles, firstStripeAtomCycles, convSdpAtomCycles"),
    (c_int64, "unitChannelGranule")])
DlaPerfLayer = _struct("DlaPerfLayer", [
    (c_int32, "kind"),
    (c_int64, "channels, height, width, kernels, kernelH, kernelW, strideH, strideW,"
              "padTop, padBottom, padLeft, padRight, dilationH, dilationW"),
    (c_int32, "winograd"),
    (c_int64, "poolH, poolW, poolStrideH, poolStrideW, poolPadTop, poolPadBottom, poolPadLeft,"
              "poolPadRight"),
    (c_int32, "elementwiseOperand"), (c_int64, "weightBytes, weightBanks")])
DlaPerfEstimate = _struct("DlaPerfEstimate", [
    (c_double, "macCycles, memoryCycles, sdpCycles, pdpCycles, cdpCycles, stripeCycles,"
               "startCycles, cycles"),
    (c_int32, "longPole"),
    (c_double, "inputBytes, weightBytes, outputBytes, operandBytes, trafficBytes"),
    (c_int64, "inputReads, weightReads, outHeight, outWidth"),
    (c_double, "networkMacs, seconds")])
_declare("dlaPerfGetHardwareConfig", DlaStatus, c_char_p, c_char_p, c_double, c_double,
         POINTER(DlaPerfConfig))
_declare("dlaPerfGetSpreadsheetConfig", None, POINTER(DlaPerfConfig))
_declare("dlaPerfEstimateLayer", DlaStatus, POINTER(DlaPerfConfig), POINTER(DlaPerfLayer),
         POINTER(DlaPerfEstimate), c_void_p, c_size_t)
_declare("dlaPerfGetLongPoleName", c_char_p, c_int32)

_declare("dlaRegisterAllPasses", None)
_declare("mlirRegisterAllPasses", None)


def int64_array(values, what="integer"):
    values = [to_int(v, c_int64, what) for v in values]
    return (c_int64 * max(len(values), 1))(*values)


def to_string(print_fn, handle):
    """Collects what an mlir*Print function writes."""
    chunks = []

    def collect(ref, _user_data):
        chunks.append(ref.bytes())

    callback = MlirStringCallback(collect)
    print_fn(handle, callback, None)
    return b"".join(chunks).decode("utf-8")
