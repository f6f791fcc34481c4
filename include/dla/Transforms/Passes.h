//===- Passes.h - Passes on upstream IR for the JIT -------------*- C++ -*-===//
//
// Generic passes --dla-lower-to-llvm runs after the dla lowerings; they
// include nothing of the dla dialect.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TRANSFORMS_PASSES_H
#define DLA_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::dla {

#define GEN_PASS_DECL
#include "dla/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dla/Transforms/Passes.h.inc"

} // namespace mlir::dla

#endif // DLA_TRANSFORMS_PASSES_H
