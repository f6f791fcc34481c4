//===- IntegerResizeBorders.cpp - host integer bilinear resizes, borders --===//
//
// An integer bilinear tosa.resize with a negative offset (ONNX's half-pixel
// coordinates: the first output reads from a quarter pixel before the
// first input) came out of tosa-to-linalg wrong at the borders: the source
// index there rounds toward zero instead of down, so the first output
// weights its pixels by more than one and less than zero (7 of 8 borders
// of a 2x upsampling wrong by up to 38 steps). Shifting the coordinates by
// one input pixel over an input padded by its edge values (what ONNX's
// clamp reads there) gives the same interpolation with a non-negative
// offset, which that lowering gets right. Host only: an offloaded resize
// is a deconvolution (docs/Resize.md).
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAINTEGERRESIZEBORDERS
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

/// `x` (NHWC) with its first and last row (axis 1) or column (axis 2)
/// repeated once outside.
Value padEdges(PatternRewriter &rewriter, Location loc, Value x, int32_t axis) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<int64_t> size = shape, start(4, 0);
  size[axis] = 1;
  auto edgeType = type.clone(size);
  auto first = tosa::SliceOp::create(rewriter, loc, edgeType, x,
                                     tosa::getTosaConstShape(rewriter, loc, start),
                                     tosa::getTosaConstShape(rewriter, loc, size));
  start[axis] = shape[axis] - 1;
  auto last = tosa::SliceOp::create(rewriter, loc, edgeType, x,
                                    tosa::getTosaConstShape(rewriter, loc, start),
                                    tosa::getTosaConstShape(rewriter, loc, size));
  shape[axis] += 2;
  return tosa::ConcatOp::create(rewriter, loc, type.clone(shape),
                                ValueRange{first, x, last}, axis);
}

struct NonNegativeOffsets : OpRewritePattern<tosa::ResizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ResizeOp op, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
    SmallVector<int64_t> scale, offset, border;
    if (!type || !type.hasStaticShape() || !type.getElementType().isInteger() ||
        op.getMode() != tosa::ResizeMode::BILINEAR ||
        !tosa::getConstShapeValues(op.getScale().getDefiningOp(), scale) ||
        !tosa::getConstShapeValues(op.getOffset().getDefiningOp(), offset) ||
        !tosa::getConstShapeValues(op.getBorder().getDefiningOp(), border) ||
        (offset[0] >= 0 && offset[1] >= 0))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getInput();
    // Per axis (y: 1, x: 2 of NHWC) with a negative offset: one pixel
    // more each side, the coordinates one pixel (scale numerator) on, the
    // border one less so that the output keeps its size.
    for (int i = 0; i < 2; ++i) {
      if (offset[i] >= 0)
        continue;
      x = padEdges(rewriter, loc, x, i + 1);
      offset[i] += scale[2 * i];
      border[i] -= scale[2 * i];
    }
    rewriter.replaceOpWithNewOp<tosa::ResizeOp>(
        op, op.getType(), x, op.getScale(), tosa::getTosaConstShape(rewriter, loc, offset),
        tosa::getTosaConstShape(rewriter, loc, border), op.getModeAttr());
    return success();
  }
};

struct IntegerResizeBorders
    : mlir::dla::impl::DLAIntegerResizeBordersBase<IntegerResizeBorders> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NonNegativeOffsets>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
