/*===- dla-c/Passes.h - C API of the dla passes -------------------*- C -*-===*\
|*                                                                            *|
|* Generated from each Passes.td (-gen-pass-capi-header), one group each:    *|
|*   the dialect's (prefix DLA), the conversions (DLAConversion), the         *|
|*   generic passes (DLAGeneric):                                             *|
|*   void mlirRegister<Group>Passes(void);      the group's passes, by flag   *|
|*   MlirPass mlirCreate<Group><PassName>(void); e.g. mlirCreateDLADLAPackWeights *|
|*   void mlirRegister<Group><PassName>(void);                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DLA_C_PASSES_H
#define DLA_C_PASSES_H

#include "mlir-c/Pass.h"

#include "dla-c/ConversionPasses.capi.h.inc"
#include "dla-c/GenericPasses.capi.h.inc"
#include "dla-c/Passes.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers everything dla-opt registers beyond upstream: the dla passes,
/// the conversions into dla (dla-convert-tosa) and the named pipelines
/// (dla-compile, dla-lower-to-llvm).
MLIR_CAPI_EXPORTED void dlaRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* DLA_C_PASSES_H */
