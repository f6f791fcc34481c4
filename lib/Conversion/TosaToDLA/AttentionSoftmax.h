//===- AttentionSoftmax.h - an attention core's softmax on NVDLA -*- C++ -*-===//
//
// The quantized attention core per head (the softmax over the keys and p v,
// its q k^T transposed) as layers: AttentionSoftmax.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_ATTENTIONSOFTMAX_H
#define DLA_LIB_CONVERSION_TOSATODLA_ATTENTIONSOFTMAX_H

#include "Patterns.h"

namespace mlir::dla::tosa_to_dla {

/// The importer's mark on p v's per-head products whose p is an int8
/// softmax of scores (qdq_attention.py SOFTMAX_MARK): the scales.
inline constexpr llvm::StringLiteral kAttentionSoftmaxMark = "dla.attention_softmax";

/// Why the marked p v `op` and its softmax do not run on NVDLA as
/// AttentionSoftmax.cpp's program; empty when they do.
std::string whyNotAttentionSoftmax(tosa::MatMulOp op, const OffloadTarget &target);

/// A marked attention core per head as AttentionSoftmax.cpp's layers;
/// applied before the other patterns, which would take its products apart.
void populateAttentionSoftmaxPatterns(RewritePatternSet &patterns, const OffloadTarget &target);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_ATTENTIONSOFTMAX_H
