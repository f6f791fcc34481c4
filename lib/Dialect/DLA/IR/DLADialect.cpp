//===- DLADialect.cpp - The dla dialect ----------------------------------===//

#include "BindUtils.h" // the encodings' verifier, defined in ODS

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dla;

#include "dla/Dialect/DLA/IR/DLADialect.cpp.inc"
#include "dla/Dialect/DLA/IR/DLAEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dla/Dialect/DLA/IR/DLAAttrs.cpp.inc"

void DLADialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dla/Dialect/DLA/IR/DLAAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dla/Dialect/DLA/IR/DLAOps.cpp.inc"
      >();
}
