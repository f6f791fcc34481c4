//===- ReferenceViews.cpp - Channel views without encoding ---------------===//
//
// A dla.channel_slice / dla.channel_concat of plain (row-major) tensors is
// a channel slice / concatenation, a dla.as_weights a transpose, a
// dla.reshape_view a reshape of the positions; encoded
// ones move storage bytes
// (lib/Conversion/DLAToMemRef/ChannelViewStorage.cpp).
//
//===----------------------------------------------------------------------===//

#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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
    RankedTensorType result = op.getResult().getType();
    if (!op.getOffsets()) {
      rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, result, /*dim=*/1, op.getInputs());
      return success();
    }
    // A padded concatenation: its gaps hold zeros.
    Value joined = arith::ConstantOp::create(
        rewriter, op.getLoc(), result,
        DenseElementsAttr::get(result, rewriter.getZeroAttr(result.getElementType())));
    for (auto [input, first] : llvm::zip_equal(op.getInputs(), op.getInputChannels())) {
      SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0)), sizes,
          strides(4, rewriter.getIndexAttr(1));
      offsets[1] = rewriter.getIndexAttr(first);
      for (int64_t d : cast<RankedTensorType>(input.getType()).getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
      joined = tensor::InsertSliceOp::create(rewriter, op.getLoc(), input, joined, offsets, sizes,
                                             strides);
    }
    rewriter.replaceOp(op, joined);
    return success();
  }
};

/// dla.as_weights without encoding: [1, C, H, W] -> [C, H W] -> its
/// transpose [H W, C] -> [H W, C, 1, 1].
struct AsWeightsToTensor : OpRewritePattern<AsWeightsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AsWeightsOp op, PatternRewriter &rewriter) const override {
    if (!isPlainChannelView(op))
      return rewriter.notifyMatchFailure(op, "views encoded storage");
    Location loc = op.getLoc();
    RankedTensorType result = op.getResult().getType();
    const int64_t k = result.getDimSize(0), c = result.getDimSize(1);
    Value flat = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get({c, k}, result.getElementType()), op.getSource(),
        ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    Value init = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{k, c},
                                         result.getElementType());
    Value kernels =
        linalg::TransposeOp::create(rewriter, loc, flat, init, ArrayRef<int64_t>{1, 0})
            ->getResult(0);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, result, kernels, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    return success();
  }
};

/// dla.reshape_view without encoding: the positions collapsed, then
/// expanded to the result's rows.
struct ReshapeViewToTensor : OpRewritePattern<ReshapeViewOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeViewOp op, PatternRewriter &rewriter) const override {
    if (!isPlainChannelView(op))
      return rewriter.notifyMatchFailure(op, "views encoded storage");
    RankedTensorType source = op.getSource().getType(), result = op.getResult().getType();
    ArrayRef<int64_t> s = source.getShape();
    Value flat = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(),
        RankedTensorType::get({s[0], s[1], s[2] * s[3]}, source.getElementType()),
        op.getSource(), ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, result, flat, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
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
  patterns.add<ChannelSliceToTensor, ChannelConcatToTensor, AsWeightsToTensor,
               ReshapeViewToTensor>(
      patterns.getContext());
}
