//===- Passes.h - Passes of the dla dialect ---------------------*- C++ -*-===//
#ifndef DLA_DIALECT_DLA_TRANSFORMS_PASSES_H
#define DLA_DIALECT_DLA_TRANSFORMS_PASSES_H

#include "dla/Dialect/DLA/Transforms/PassOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::dla {

#define GEN_PASS_DECL
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_TRANSFORMS_PASSES_H
