/*===- dla-c/Passes.h - C API of the dla passes -------------------*- C -*-===*\
|*                                                                            *|
|* Generated from Passes.td (-gen-pass-capi-header --prefix DLA):             *|
|*   void mlirRegisterDLAPasses(void);          all dla passes, by flag       *|
|*   MlirPass mlirCreateDLA<PassName>(void);    e.g. mlirCreateDLADLAPackWeights *|
|*   void mlirRegisterDLA<PassName>(void);                                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DLA_C_PASSES_H
#define DLA_C_PASSES_H

#include "mlir-c/Pass.h"

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
