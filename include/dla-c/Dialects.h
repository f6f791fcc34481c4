/*===- dla-c/Dialects.h - C API of the dla dialect ----------------*- C -*-===*\
|*                                                                            *|
|* The dla dialect in MLIR's C API style: a dialect handle, the #dla.chunked  *|
|* encoding, layout queries on any encoded tensor type (through the           *|
|* LayoutEncodingAttr interface), and a few helpers that return a DlaStatus   *|
|* carrying the diagnostics instead of printing them (parse, run a textual    *|
|* pass pipeline).                                                            *|
|*                                                                            *|
|* Pass registration and creation are generated from Passes.td: see           *|
|* dla-c/Passes.h (mlirRegisterDLAPasses, mlirCreateDLADLAPackWeights, ...).  *|
|*                                                                            *|
|* libDLACAPI.so also exports the upstream MLIR C API needed to use it alone: *|
|* mlir-c/IR.h, BuiltinAttributes.h, BuiltinTypes.h, Diagnostics.h, Pass.h,   *|
|* Transforms.h and the func, arith and tensor dialect handles.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DLA_C_DIALECTS_H
#define DLA_C_DIALECTS_H

#include "dla-c/Format.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(DLA, dla);

/// Registers in `context` every dialect dla-opt registers (one list,
/// mlir::dla::registerAllDialects) and loads dla.
DLA_CAPI_EXPORTED void dlaContextRegisterDialects(MlirContext context);

/*===----------------------------------------------------------------------===*
 * #dla.chunked
 *===----------------------------------------------------------------------===*/

DLA_CAPI_EXPORTED bool dlaAttributeIsAChunked(MlirAttribute attr);
DLA_CAPI_EXPORTED MlirTypeID dlaChunkedAttrGetTypeID(void);

/// `#dla.chunked<[(dims[0], sizes[0]), ...]>`. Returns a null attribute and
/// emits a diagnostic on the context (its handlers, stderr by default) when
/// the pairs are invalid; dlaChunkedValidate gives the message as a status.
DLA_CAPI_EXPORTED MlirAttribute dlaChunkedAttrGet(MlirContext context, intptr_t numPairs,
                                                  const int64_t *dims, const int64_t *sizes);

/// `#dla.chunked<name>` for a preset name; null attribute for an unknown one.
DLA_CAPI_EXPORTED MlirAttribute dlaChunkedAttrGetPreset(MlirContext context, MlirStringRef name);

DLA_CAPI_EXPORTED intptr_t dlaChunkedAttrGetNumPairs(MlirAttribute attr);
/// Dimension / size of pair `pos`, outermost first (size 0: all the rest).
DLA_CAPI_EXPORTED int64_t dlaChunkedAttrGetDim(MlirAttribute attr, intptr_t pos);
DLA_CAPI_EXPORTED int64_t dlaChunkedAttrGetSize(MlirAttribute attr, intptr_t pos);
/// Rank the pairs name (largest dim + 1).
DLA_CAPI_EXPORTED int64_t dlaChunkedAttrGetRank(MlirAttribute attr);
/// The preset these pairs spell, or an empty string. Static storage.
DLA_CAPI_EXPORTED MlirStringRef dlaChunkedAttrGetPresetName(MlirAttribute attr);

/*===----------------------------------------------------------------------===*
 * Layout queries on tensor types (LayoutEncodingAttr)
 *===----------------------------------------------------------------------===*/

/// True when `attr` implements the LayoutEncodingAttr interface (every dla
/// encoding does).
DLA_CAPI_EXPORTED bool dlaAttributeIsALayoutEncoding(MlirAttribute attr);

/// Binds the layout of a ranked tensor type: its dla encoding's, or
/// row-major when it has none. Fails for foreign encodings, dynamic or
/// unlayable shapes, and element types without a storage width. On success
/// `*result` owns a new bound layout (see dla-c/Format.h for its queries).
DLA_CAPI_EXPORTED DlaStatus dlaTypeBindLayout(MlirType tensorType, DlaBoundLayout *result);

/// The storage description of a ranked tensor type: its bound layout's
/// buffers and views, or, for storage that is not a layout (compressed
/// weights), its surfaces with bytes -1 (they depend on the values), their
/// alignment, and no views. On success `*result` owns a new description
/// (release with dlaStorageDescriptionDestroy; queries in dla-c/Format.h).
DLA_CAPI_EXPORTED DlaStatus dlaTypeDescribeStorage(MlirType tensorType,
                                                   DlaStorageDescription *result);

/// Shorthands that bind, ask, and release.
DLA_CAPI_EXPORTED DlaStatus dlaTypeGetStorageBytes(MlirType tensorType, int64_t *bytes);
DLA_CAPI_EXPORTED DlaStatus dlaTypeGetByteOffset(MlirType tensorType, intptr_t rank,
                                                 const int64_t *index, int64_t *offset);
DLA_CAPI_EXPORTED DlaStatus dlaTypePack(MlirType tensorType, const void *logical,
                                        size_t logicalBytes, void *storage,
                                        size_t storageBytes);
DLA_CAPI_EXPORTED DlaStatus dlaTypeUnpack(MlirType tensorType, const void *storage,
                                          size_t storageBytes, void *logical,
                                          size_t logicalBytes);

/*===----------------------------------------------------------------------===*
 * Constant packers: every encoding, compressed and Winograd weights included
 *===----------------------------------------------------------------------===*/

/// What --dla-pack-weights runs on one constant: turns logical data into the
/// storage surfaces of a tensor type (one, or WGS / WMB / data for
/// compressed weights), with sizes that may depend on the data.
typedef struct DlaConstantPacker {
  void *ptr;
} DlaConstantPacker;

/// The packer of a ranked tensor type (its dla encoding's, or row-major).
/// On success `*result` owns a new packer; release with
/// dlaConstantPackerDestroy.
DLA_CAPI_EXPORTED DlaStatus dlaTypeCreateConstantPacker(MlirType tensorType,
                                                        DlaConstantPacker *result);
DLA_CAPI_EXPORTED void dlaConstantPackerDestroy(DlaConstantPacker packer);
/// Number of surfaces, and the name of each ("storage"; "wgs", "wmb", "data").
DLA_CAPI_EXPORTED intptr_t dlaConstantPackerGetNumSurfaces(DlaConstantPacker packer);
DLA_CAPI_EXPORTED const char *dlaConstantPackerGetSurfaceName(DlaConstantPacker packer,
                                                              intptr_t pos);
/// Plans the surfaces of `logical` (row-major elements of the tensor's
/// width): writes one size per surface to `surfaceBytes`. Once per packer,
/// before dlaConstantPackerPack with the same data.
DLA_CAPI_EXPORTED DlaStatus dlaConstantPackerPlan(DlaConstantPacker packer, const void *logical,
                                                  size_t logicalBytes, int64_t *surfaceBytes);
/// Writes every byte of every surface (`surfaces[i]` holds the planned size).
DLA_CAPI_EXPORTED DlaStatus dlaConstantPackerPack(DlaConstantPacker packer, const void *logical,
                                                  size_t logicalBytes, void *const *surfaces);

/*===----------------------------------------------------------------------===*
 * Resource blobs (what --dla-pack-weights produces)
 *===----------------------------------------------------------------------===*/

/// The blob behind a `dense_resource<key>` attribute: its key and its bytes
/// as the context holds them, i.e. the packed storage without the 4-byte
/// alignment header that starts the blob's textual (hex) form. The pointers
/// stay valid while the context and the blob live. Fails for any other
/// attribute and for a key the module gave no data.
DLA_CAPI_EXPORTED DlaStatus dlaDenseResourceAttrGetBlob(MlirAttribute attr, MlirStringRef *key,
                                                        const void **data, size_t *size);

/*===----------------------------------------------------------------------===*
 * Layer ops
 *===----------------------------------------------------------------------===*/

/// The NVDLA unit a layer op runs on ("CONV/CACC", "SDP", "PDP", "CDP": the
/// format library's getHardwareUnit of its LayerOpInterface kind), "BDMA"
/// for a dla.relayout an NVDLA program runs as a copy between feature
/// layouts (isBdmaCopy: a configuration with BDMA); NULL for any other op
/// (a relayout the host runs among them). The string is static.
DLA_CAPI_EXPORTED const char *dlaOperationGetHardwareUnit(MlirOperation op);

/// Whether `op` runs in NVIDIA's runtime emulator (an EMU task of the
/// loadable, on the CPU beside the DLA task): dla.emu_softmax, dla.emu_power.
DLA_CAPI_EXPORTED bool dlaOperationRunsInEmulator(MlirOperation op);

/// Whether `op` computes (a layer, on the accelerator or the host), as
/// opposed to holding a value or structuring the program: false for ops
/// without operands and without side effects (constants of every dialect,
/// packed weights), terminators, and functions and modules.
DLA_CAPI_EXPORTED bool dlaOperationComputes(MlirOperation op);

/*===----------------------------------------------------------------------===*
 * Diagnosing helpers: errors come back in the status, not on stderr
 *===----------------------------------------------------------------------===*/

/// Parses a module. On failure the status holds every diagnostic, one per
/// line ("loc: error: message").
DLA_CAPI_EXPORTED DlaStatus dlaModuleParse(MlirContext context, MlirStringRef source,
                                           MlirModule *result);
DLA_CAPI_EXPORTED DlaStatus dlaTypeParse(MlirContext context, MlirStringRef source,
                                         MlirType *result);
DLA_CAPI_EXPORTED DlaStatus dlaAttributeParse(MlirContext context, MlirStringRef source,
                                              MlirAttribute *result);

/// Parses a textual pass pipeline anchored on the operation's name (e.g.
/// "builtin.module(dla-pack-weights,canonicalize)") and runs it on `op`.
/// Passes must be registered first (mlirRegisterDLAPasses,
/// mlirRegisterTransformsPasses). Fails with the parse error or the
/// diagnostics of the failing pass.
DLA_CAPI_EXPORTED DlaStatus dlaRunPassPipeline(MlirOperation op, MlirStringRef pipeline);

/// Severities of DlaDiagnosticCallback, as MlirDiagnosticSeverity.
/// Called once per diagnostic (notes included, after their diagnostic):
/// its severity, location ("file:line:col", a name location's name, or the
/// printed location; empty when unknown) and message. Both strings are
/// valid during the call only.
typedef void (*DlaDiagnosticCallback)(int severity, MlirStringRef location,
                                      MlirStringRef message, void *userData);

/// dlaRunPassPipeline that hands every diagnostic of the run (remarks of a
/// pipeline that succeeds too) to `callback` (may be null), in the order
/// emitted, once the run is over and on the calling thread. A failure's
/// status message holds at most `maxErrorLines` lines (0: all) of its
/// diagnostics, remarks left out; unless `printOps`, an error does not
/// append the operation it is about (for a pass on the module: all of it).
DLA_CAPI_EXPORTED DlaStatus dlaRunPassPipelineWithDiagnostics(MlirOperation op,
                                                              MlirStringRef pipeline,
                                                              DlaDiagnosticCallback callback,
                                                              void *userData, bool printOps,
                                                              intptr_t maxErrorLines);

/// Writes the passes and pass pipelines registered in this process, as
/// `mlir-opt --list-passes` prints them, through `callback` (several
/// chunks). dla-opt's `--list-passes` prints the same text when the same
/// passes are registered.
DLA_CAPI_EXPORTED void dlaPrintRegisteredPasses(MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* DLA_C_DIALECTS_H */
