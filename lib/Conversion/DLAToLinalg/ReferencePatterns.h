//===- ReferencePatterns.h - Layer ops as upstream linalg -------*- C++ -*-===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEPATTERNS_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEPATTERNS_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaConversion.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::dla::reference {

/// The layer's "real precision in pipeline": its `pipeline_precision` when
/// stated, else from NVDLA's conversion tables; failure (with the table's
/// message when `diagnose`) for an invalid layer.
FailureOr<::dlaformat::nvdla::PipelinePrecision>
getPipelinePrecision(LayerOpInterface op, bool diagnose);

/// Marks a dla.conv whose constant weight is block-diagonal (a depthwise
/// convolution run dense, K == C, every weight off k == c zero): its
/// reference computes the depthwise sum, the same numbers C times faster.
/// Set while the weight is still a readable constant (before
/// --dla-pack-weights); the storage form reads it after packing.
constexpr llvm::StringLiteral kDepthwiseWeightAttr = "reference_depthwise";
void markDepthwiseWeight(ConvOp conv);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEPATTERNS_H
