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

#endif /* DLA_C_PASSES_H */
