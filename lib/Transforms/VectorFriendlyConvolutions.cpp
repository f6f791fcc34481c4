//===- VectorFriendlyConvolutions.cpp - filters --dla-vectorize-kernels reads -===//
//
// tosa-to-linalg-named writes NHWC convolutions with FHWC filters: the
// output channel, the output's innermost dimension, is the filter's
// outermost, and --dla-vectorize-kernels (which vectorizes along the
// output's innermost dimension) leaves them to scalar loops. An HWCF
// filter, or for a depthwise convolution of multiplier 1 the HWC form,
// reads it innermost. The reduction loops stay those of the op replaced:
// every output element is the same sum in the same order.
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAVECTORFRIENDLYCONVOLUTIONS
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

/// The strides and dilations of a convolution, for its replacement.
SmallVector<NamedAttribute> windowAttrs(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  for (StringRef name : {"strides", "dilations"})
    if (Attribute a = op->getAttr(name))
      attrs.push_back(NamedAttribute(StringAttr::get(op->getContext(), name), a));
  return attrs;
}

/// conv_2d_nhwc_fhwc -> transposed filter + nhwc_hwcf.
template <typename FromOp, typename ToOp> struct FilterChannelLast : OpRewritePattern<FromOp> {
  using OpRewritePattern<FromOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(FromOp op, PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    Value filter = op.getDpsInputOperand(1)->get();
    auto type = dyn_cast<RankedTensorType>(filter.getType());
    if (!type || type.getRank() != 4)
      return failure();
    Location loc = op.getLoc();
    const int64_t perm[] = {1, 2, 3, 0};
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, filter);
    SmallVector<OpFoldResult> permuted = {sizes[1], sizes[2], sizes[3], sizes[0]};
    Value empty = tensor::EmptyOp::create(rewriter, loc, permuted, type.getElementType());
    Value hwcf = linalg::TransposeOp::create(rewriter, loc, filter, empty, perm)->getResult(0);
    SmallVector<Value> inputs(op.getDpsInputs());
    inputs[1] = hwcf;
    rewriter.replaceOpWithNewOp<ToOp>(op, op->getResultTypes(), inputs, op.getDpsInits(),
                                      windowAttrs(op));
    return success();
  }
};

/// depthwise_conv_2d_nhwc_hwcm of multiplier 1 -> the
/// nhwc_hwc form between reshapes.
template <typename FromOp, typename ToOp> struct DepthwiseWithoutMultiplier : OpRewritePattern<FromOp> {
  using OpRewritePattern<FromOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(FromOp op, PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
      return failure();
    Value filter = op.getDpsInputOperand(1)->get();
    Value init = op.getDpsInitOperand(0)->get();
    auto filterType = dyn_cast<RankedTensorType>(filter.getType());
    auto initType = dyn_cast<RankedTensorType>(init.getType());
    if (!filterType || !initType || filterType.getRank() != 4 || initType.getRank() != 5 ||
        filterType.getDimSize(3) != 1 || initType.getDimSize(4) != 1)
      return failure();
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> lastTwo4 = {{0}, {1}, {2, 3}};
    SmallVector<ReassociationIndices> lastTwo5 = {{0}, {1}, {2}, {3, 4}};
    Value hwc = tensor::CollapseShapeOp::create(rewriter, loc, filter, lastTwo4);
    Value out = tensor::CollapseShapeOp::create(rewriter, loc, init, lastTwo5);
    SmallVector<Value> inputs(op.getDpsInputs());
    inputs[1] = hwc;
    Value y = ToOp::create(rewriter, loc, TypeRange{out.getType()}, inputs, ValueRange{out},
                           windowAttrs(op))
                  ->getResult(0);
    SmallVector<OpFoldResult> shape = tensor::getMixedSizes(rewriter, loc, init);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, initType, y, lastTwo5, shape);
    return success();
  }
};

struct VectorFriendlyConvolutionsPass
    : mlir::dla::impl::DLAVectorFriendlyConvolutionsBase<VectorFriendlyConvolutionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // The float forms only (what a float network's calibration runs); the
    // _q forms with zero points are left as they are, not measured.
    patterns.add<FilterChannelLast<linalg::Conv2DNhwcFhwcOp, linalg::Conv2DNhwcHwcfOp>,
                 DepthwiseWithoutMultiplier<linalg::DepthwiseConv2DNhwcHwcmOp,
                                            linalg::DepthwiseConv2DNhwcHwcOp>>(&getContext());
    // One rewrite per op, no folding: nothing else in the function changes.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
