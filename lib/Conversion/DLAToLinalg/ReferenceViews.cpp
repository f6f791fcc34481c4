//===- ReferenceViews.cpp - Channel views without encoding ---------------===//
//
// A dla.channel_slice / dla.channel_concat of plain (row-major) tensors is
// a channel slice / concatenation; encoded ones move storage bytes
// (lib/Conversion/DLAToMemRef/ChannelViewStorage.cpp).
//
//===----------------------------------------------------------------------===//

#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::dla;

namespace {

struct ChannelSliceToTensor : OpRewritePattern<ChannelSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ChannelSliceOp op, PatternRewriter &rewriter) const override {
    if (!isPlainChannelView(op))
      return rewriter.notifyMatchFailure(op, "views encoded storage");
    RankedTensorType result = op.getResult().getType();
    SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0)), sizes,
        strides(4, rewriter.getIndexAttr(1));
    offsets[1] = rewriter.getIndexAttr(static_cast<int64_t>(op.getOffset()));
    for (int64_t d : result.getShape())
      sizes.push_back(rewriter.getIndexAttr(d));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(op, result, op.getSource(), offsets, sizes,
                                                        strides);
    return success();
  }
};

struct ChannelConcatToTensor : OpRewritePattern<ChannelConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ChannelConcatOp op, PatternRewriter &rewriter) const override {
    if (!isPlainChannelView(op))
      return rewriter.notifyMatchFailure(op, "views encoded storage");
    rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, op.getResult().getType(), /*dim=*/1,
                                                  op.getInputs());
    return success();
  }
};

} // namespace

bool mlir::dla::isPlainChannelView(Operation *op) {
  if (!isa<ChannelViewOpInterface>(op))
    return false;
  auto plain = [](Type t) { return !cast<RankedTensorType>(t).getEncoding(); };
  return llvm::all_of(op->getOperandTypes(), plain) && llvm::all_of(op->getResultTypes(), plain);
}

void mlir::dla::populateChannelViewReferencePatterns(RewritePatternSet &patterns) {
  patterns.add<ChannelSliceToTensor, ChannelConcatToTensor>(patterns.getContext());
}
