//===- ProductPatterns.cpp - Products of run-time tensors -> dla.sdp ------===//
//
// The SDP's X multiplier reads its operand from memory, one value per
// element or per channel (SDP_RDMA's per-element / per-kernel data modes),
// so two products of a float network run on it without any constant:
//   tosa.mul of two feature maps of one shape        (hard-swish x * hsig(x))
//     -> dla.sdp x eltwise y  bs <mul_operand = eltwise>
//   tosa.mul by a per-channel tensor computed at run time (squeeze-excitation)
//     -> dla.sdp x prelu s    bs <mul_operand = prelu>
// in the float stage form (docs/IntegerAttributes.md section 4.7). The
// per-channel multiplier is the PReLU operand read as a plain multiply, as
// the quantized convolutions' X1 multipliers are; here s is the 1xCx1x1
// result of the layer that computes it, read in place (no host reshape).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

enum class Product { None, PerElement, PerChannel };

/// Which product `op` is, with its feature map `x` and its run-time
/// multiplier `y`.
Product classify(tosa::MulOp op, Value &x, Value &y) {
  auto out = cast<RankedTensorType>(op.getType());
  if (out.getRank() != 4)
    return Product::None;
  auto isMap = [&](Value v) { return v.getType() == out && !isReadableConstant(v); };
  auto isChannels = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return t.getRank() == 4 && t.getShape() == ArrayRef<int64_t>{1, 1, 1, out.getDimSize(3)} &&
           out.getDimSize(0) == 1 && !isReadableConstant(v);
  };
  for (auto [a, b] : {std::pair(op.getInput1(), op.getInput2()),
                      std::pair(op.getInput2(), op.getInput1())}) {
    if (!isMap(a))
      continue;
    x = a;
    y = b;
    if (isMap(b))
      return Product::PerElement;
    if (isChannels(b))
      return Product::PerChannel;
  }
  return Product::None;
}

struct ProductToSdp : OpRewritePattern<tosa::MulOp> {
  ProductToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::MulOp op, PatternRewriter &rewriter) const override {
    Value x, y;
    Product kind = classify(op, x, y);
    if (kind == Product::None)
      return failure();
    if (std::string why = whyNotMul(op, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type element = target.getElementType(ctx);
    // The multiplier first: operands dominate the layer.
    // Per element, in the operands' own dimension order; per channel the
    // 1xCx1x1 multiplier is read in place (the PReLU operand as feature
    // data), its channels NHWC's last dimension.
    ElementwiseFrame frame(kind == Product::PerElement ? ValueRange{x, y} : ValueRange{});
    Value multiplier = frame.input(rewriter, loc, y, element);
    nv::SdpMemOperand mem =
        kind == Product::PerElement ? nv::SdpMemOperand::Eltwise : nv::SdpMemOperand::Prelu;
    Value input = frame.input(rewriter, loc, x, element);
    auto sdp = SdpOp::create(rewriter, loc, input.getType(), SdpMode::Offline, input);
    if (kind == Product::PerElement)
      sdp.getEltwiseMutable().assign(multiplier);
    else
      sdp.getPreluMutable().assign(multiplier);
    sdp.setBsAttr(SdpXAttr::get(ctx, std::nullopt, SdpOperand(), 0, SdpOperand::ofMemory(mem), 0,
                                /*prelu=*/false, /*relu=*/false));
    rewriter.replaceOp(op, frame.result(rewriter, loc, sdp, cast<RankedTensorType>(op.getType())));
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotProduct(tosa::MulOp op, const OffloadTarget &target) {
  Value x, y;
  switch (classify(op, x, y)) {
  case Product::None: {
    auto out = cast<RankedTensorType>(op.getType());
    for (Value v : {op.getInput1(), op.getInput2()}) {
      auto t = cast<RankedTensorType>(v.getType());
      if (t.getRank() == 4 && t.getDimSize(1) == 1 && t.getDimSize(2) == 1 &&
          t.getDimSize(3) == out.getDimSize(3) && out.getDimSize(0) > 1 && t.getDimSize(0) > 1)
        return "its per-channel multiplier differs between the images of the batch (the SDP "
               "reads one value per channel for the whole batch)";
    }
    return "it multiplies a feature map by neither a per-channel constant, a per-channel "
           "tensor nor a feature map of its shape";
  }
  case Product::PerElement:
  case Product::PerChannel:
    break;
  }
  // (An integer product's i32 result is no target precision: whyNotMul
  // refused it before.)
  return target.checkOfflineSdp();
}

void tosa_to_dla::populateProductPatterns(RewritePatternSet &patterns,
                                          const OffloadTarget &target) {
  patterns.add<ProductToSdp>(patterns.getContext(), target);
}
