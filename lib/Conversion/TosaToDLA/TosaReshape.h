//===- TosaReshape.h - a tosa.reshape to a static shape -----------*- C++ -*-===//
//
// The host reshape the product patterns put around their layers (a matmul's
// operands as NCHW maps and back: MatMulPatterns.cpp, ActivationProducts.cpp,
// AttentionSoftmax.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_TOSARESHAPE_H
#define DLA_LIB_CONVERSION_TOSATODLA_TOSARESHAPE_H

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

namespace mlir::dla::tosa_to_dla {

/// `v` reshaped to `shape`, its element type kept.
inline Value reshapeTo(PatternRewriter &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, getElementTypeOrSelf(v.getType()));
  return tosa::ReshapeOp::create(b, loc, type, v, tosa::getTosaConstShape(b, loc, shape));
}

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_TOSARESHAPE_H
