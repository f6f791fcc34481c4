//===- PoolPatterns.cpp - tosa.max_pool2d / avg_pool2d -> dla.pool --------===//

#include "TosaToDLA.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaRegisters.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

template <typename OpTy>
std::string whyNotPool(OpTy op, const OffloadTarget &target) {
  for (Type type : {op.getInput().getType(), op.getOutput().getType()})
    if (std::string why = target.checkSourceType(type); !why.empty())
      return why;
  return target.check(
      nv::ConversionQuery::pooling(nv::featureInput(target.precision), target.precision));
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
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    Type element = target.getElementType(rewriter.getContext());
    Value input = toLayerInput(rewriter, loc, op.getInput(), element);
    auto pool = PoolOp::create(rewriter, loc,
                               RankedTensorType::get(toNchwShape(outType.getShape()), element),
                               kind, input, op.getKernel());
    pool.setStrides(op.getStride());
    pool.setPadding(op.getPad());
    if (kind == PoolKind::Average && isa<IntegerType>(element)) {
      // One rounding, as TOSA's integer average (NVIDIA's firmware table
      // would round twice).
      ArrayRef<int64_t> k = op.getKernel();
      nv::PdpReciprocals recip = nv::pdpSingleRoundingReciprocals(k[0], k[1]);
      pool.setRecipKernelWidth(recip.width);
      pool.setRecipKernelHeight(recip.height);
    }
    rewriter.replaceOp(op, toTosaResult(rewriter, loc, pool, outType));
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

void tosa_to_dla::populatePoolPatterns(RewritePatternSet &patterns, const OffloadTarget &target) {
  patterns.add<PoolToDLA<tosa::MaxPool2dOp, PoolKind::Max>,
               PoolToDLA<tosa::AvgPool2dOp, PoolKind::Average>>(patterns.getContext(), target);
}
