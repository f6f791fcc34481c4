//===- Passes.h - Conversions into the dla dialect --------------*- C++ -*-===//
#ifndef DLA_CONVERSION_PASSES_H
#define DLA_CONVERSION_PASSES_H

#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "dla/Dialect/DLA/Transforms/PassOptions.h"
#include "dla/Format/NvdlaPrecision.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::dla {

#define GEN_PASS_DECL
#include "dla/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dla/Conversion/Passes.h.inc"

} // namespace mlir::dla

#endif // DLA_CONVERSION_PASSES_H
