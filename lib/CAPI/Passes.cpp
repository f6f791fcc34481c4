//===- Passes.cpp - C API of the dla passes -------------------------------===//
//
// mlirRegister<Group>Passes, mlirCreate<Group><Pass>, mlirRegister<Group><Pass>:
// generated from each Passes.td, so a new pass reaches C and Python without edits here.
//
//===----------------------------------------------------------------------===//

#include "dla-c/Passes.h"

#include "dla/Conversion/Passes.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Transforms/Passes.h"
#include "dla/Pipelines/Pipelines.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::dla;

#include "dla-c/ConversionPasses.capi.cpp.inc"
#include "dla-c/GenericPasses.capi.cpp.inc"
#include "dla-c/Passes.capi.cpp.inc"

void dlaRegisterAllPasses(void) { registerAllDLAPasses(); }
