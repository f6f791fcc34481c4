//===- PoolPatterns.cpp - tosa.max_pool2d / avg_pool2d -> dla.pool --------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaRegisters.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The dla.pool layers of `op`: one when the PDP registers hold its window.
template <typename OpTy>
FailureOr<SmallVector<PoolStage>> planPool(OpTy op, const OffloadTarget &target,
                                           std::string &why) {
  ArrayRef<int64_t> nhwc = cast<RankedTensorType>(op.getInput().getType()).getShape();
  return planPoolChain(std::is_same_v<OpTy, tosa::MaxPool2dOp>, nhwc.slice(1, 2),
                       op.getKernel(), op.getStride(), op.getPad(), why);
}

template <typename OpTy>
std::string whyNotPool(OpTy op, const OffloadTarget &target) {
  for (Type type : {op.getInput().getType(), op.getOutput().getType()})
    if (std::string why = target.checkSourceType(type); !why.empty())
      return why;
  if (std::string why = target.check(nv::ConversionQuery::pooling(
          nv::featureInput(target.precision), target.precision));
      !why.empty())
    return why;
  std::string why;
  if (failed(planPool(op, target, why)))
    return why;
  return "";
}

/// "[a, b]" of a pair.
std::string pair(const int64_t v[2]) {
  return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "]";
}

template <typename OpTy, PoolKind kind>
struct PoolToDLA : OpRewritePattern<OpTy> {
  PoolToDLA(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern<OpTy>(context), target(target) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    std::string why;
    if constexpr (kind == PoolKind::Max)
      why = whyNotMaxPool(op, target);
    else
      why = whyNotAvgPool(op, target);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    SmallVector<PoolStage> chain = *planPool(op, target, why);
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    Type element = target.getElementType(rewriter.getContext());
    Value value = toLayerInput(rewriter, loc, op.getInput(), element);
    for (const PoolStage &stage : chain) {
      SmallVector<int64_t> shape(cast<RankedTensorType>(value.getType()).getShape());
      for (int d = 0; d < 2; ++d)
        shape[2 + d] = (shape[2 + d] + stage.pad[2 * d] + stage.pad[2 * d + 1] -
                        stage.kernel[d]) / stage.stride[d] + 1;
      if (chain.size() == 1)
        shape = toNchwShape(outType.getShape()); // dynamic extents stay dynamic
      auto pool = PoolOp::create(rewriter, loc, RankedTensorType::get(shape, element), kind,
                                 value, stage.kernel);
      pool.setStrides(stage.stride);
      pool.setPadding(stage.pad);
      if (kind == PoolKind::Average && isa<IntegerType>(element) && chain.size() == 1) {
        // One rounding, as TOSA's integer average (NVIDIA's firmware table
        // rounds twice). A chain is inexact anyway: its stages take the
        // firmware's table, which a loadable can express (pdp.c has no
        // field for other reciprocals).
        nv::PdpReciprocals recip = nv::pdpSingleRoundingReciprocals(stage.kernel[0],
                                                                    stage.kernel[1]);
        pool.setRecipKernelWidth(recip.width);
        pool.setRecipKernelHeight(recip.height);
      }
      value = pool;
    }
    if (chain.size() > 1) {
      std::string kernels;
      for (const PoolStage &stage : chain)
        kernels += (kernels.empty() ? "" : ", ") + pair(stage.kernel);
      std::string how = kind == PoolKind::Max ? "max over overlapping windows, exact"
                        : isa<IntegerType>(element)
                            ? "mean of equal sub-window means; " + averageChainError(chain.size())
                            : "mean of equal sub-window means; fp16 rounds once per layer";
      mlir::emitRemark(loc) << "split into " << chain.size() << " dla.pool layers of kernels "
                            << kernels << ": its "
                            << whyNotWindow(nv::kPdpWindow, op.getKernel(), op.getStride(),
                                            op.getPad())
                            << " (" << how << ")";
    }
    rewriter.replaceOp(op, toTosaResult(rewriter, loc, value, outType));
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotMaxPool(tosa::MaxPool2dOp op, const OffloadTarget &target) {
  return whyNotPool(op, target);
}

std::string tosa_to_dla::whyNotAvgPool(tosa::AvgPool2dOp op, const OffloadTarget &target) {
  // TOSA divides by the number of valid (non-padding) elements of a window;
  // dla.pool defines no such divisor, so only unpadded windows agree.
  if (llvm::any_of(op.getPad(), [](int64_t p) { return p != 0; }))
    return "padded average pooling divides by the count of valid elements, which dla.pool "
           "does not";
  // Without padding the divisor is the window's size, so a zero point z
  // in and out cancels: avg(x - z) + z = avg(x).
  FailureOr<int64_t> inputZp = op.getInputZeroPoint();
  FailureOr<int64_t> outputZp = op.getOutputZeroPoint();
  if (failed(inputZp) || failed(outputZp) || *inputZp != *outputZp)
    return "it is quantized with different or non-constant input and output zero points";
  return whyNotPool(op, target);
}

void tosa_to_dla::populatePoolPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                       const OffloadTarget &target) {
  patterns.add<PoolToDLA<tosa::MaxPool2dOp, PoolKind::Max>,
               PoolToDLA<tosa::AvgPool2dOp, PoolKind::Average>>(patterns.getContext(), target);
  rules.add<tosa::MaxPool2dOp>(whyNotMaxPool);
  rules.add<tosa::AvgPool2dOp>(whyNotAvgPool);
}
