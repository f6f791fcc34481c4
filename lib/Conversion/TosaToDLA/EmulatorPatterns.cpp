//===- EmulatorPatterns.cpp - Softmax of int8 logits as an EMU task -------===//
//
// ONNX's Softmax reaches TOSA as reduce_max, sub, exp, reduce_sum,
// reciprocal and mul. When its logits are a dequantized int8 layer result
// (1xCx1x1, the softmax over C; zero point 0, one scale), NVIDIA's runtime
// runs it on the CPU as an EMU task after the DLA task
// (Emulator::executeSoftmax): dla.emu_softmax reads the layer's int8 data
// with the dequantization's scale as its input scale factor and writes int8
// probabilities in steps of 1/128 (decision: 1/128 divides exactly, and
// the truncating cast keeps 1.0 at 127/128 rather than 126/127 as a
// rounded 1/127 would), dequantized on the host. With the option off, or
// on anything else, the chain stays on the host.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {

/// The output scale of the probabilities.
constexpr float kProbabilityStep = 1.0f / 128.0f;

/// The splat value of a constant f32 tensor.
std::optional<float> splatOf(Value v) {
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() ||
      !attr.getElementType().isF32())
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToFloat();
}

/// Whether a shift operand of tosa.mul is a constant 0.
bool noShift(tosa::MulOp mul) {
  DenseIntElementsAttr attr;
  return matchPattern(mul.getShift(), m_Constant(&attr)) &&
         llvm::all_of(attr.getValues<APInt>(), [](const APInt &v) { return v.isZero(); });
}

/// The int8 value `logits` dequantizes, and the scale: through reshapes
/// (of the int8 data too) and integer widening casts, one cast to f32 and
/// one multiplication by a positive splat constant.
std::optional<std::pair<Value, float>> dequantizedInt8(Value logits) {
  std::optional<float> scale;
  Value v = logits;
  while (Operation *def = v.getDefiningOp()) {
    if (auto reshape = dyn_cast<tosa::ReshapeOp>(def)) {
      v = reshape.getInput1();
    } else if (auto castOp = dyn_cast<tosa::CastOp>(def)) {
      Type from = getElementTypeOrSelf(castOp.getInput().getType());
      if (!from.isSignlessInteger() || from.getIntOrFloatBitWidth() > 32)
        return std::nullopt;
      v = castOp.getInput();
    } else if (auto mul = dyn_cast<tosa::MulOp>(def); mul && !scale && noShift(mul)) {
      if ((scale = splatOf(mul.getInput2())))
        v = mul.getInput1();
      else if ((scale = splatOf(mul.getInput1())))
        v = mul.getInput2();
      else
        return std::nullopt;
    } else if (getElementTypeOrSelf(v.getType()).isInteger(8)) {
      break;
    } else {
      return std::nullopt;
    }
  }
  if (!scale || !(*scale > 0.0f) || !std::isfinite(*scale) ||
      !getElementTypeOrSelf(v.getType()).isInteger(8))
    return std::nullopt;
  return std::pair{v, *scale};
}

struct SoftmaxToEmulator : OpRewritePattern<tosa::MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::MulOp root, PatternRewriter &rewriter) const override {
    // exp(x - max x) * reciprocal(sum exp(x - max x)), over one axis.
    if (!noShift(root))
      return failure();
    auto recip = root.getInput2().getDefiningOp<tosa::ReciprocalOp>();
    Value e = root.getInput1();
    if (!recip) {
      recip = root.getInput1().getDefiningOp<tosa::ReciprocalOp>();
      e = root.getInput2();
    }
    auto sum = recip ? recip.getInput1().getDefiningOp<tosa::ReduceSumOp>() : nullptr;
    auto exp = e.getDefiningOp<tosa::ExpOp>();
    if (!sum || !exp || sum.getInput() != e)
      return rewriter.notifyMatchFailure(root, "not a softmax");
    auto sub = exp.getInput1().getDefiningOp<tosa::SubOp>();
    auto max = sub ? sub.getInput2().getDefiningOp<tosa::ReduceMaxOp>() : nullptr;
    if (!max || max.getInput() != sub.getInput1() || max.getAxis() != sum.getAxis())
      return rewriter.notifyMatchFailure(root, "not a softmax");
    // All of the logits along the axis: the other dimensions are 1.
    auto type = cast<RankedTensorType>(root.getType());
    if (!type.hasStaticShape() || !type.getElementType().isF32())
      return failure();
    const int64_t c = type.getDimSize(sum.getAxis());
    if (type.getNumElements() != c)
      return rewriter.notifyMatchFailure(root, "a softmax over one of several rows");
    std::optional<std::pair<Value, float>> q = dequantizedInt8(max.getInput());
    if (!q)
      return rewriter.notifyMatchFailure(root, "the logits are no dequantized int8 data");
    auto [logits, inScale] = *q;
    // The DLA task's result, as the layer wrote it.
    auto qType = cast<RankedTensorType>(logits.getType());
    if (!isLayerOrView(logits.getDefiningOp()) ||
        qType.getShape() != ArrayRef<int64_t>{1, c, 1, 1})
      return rewriter.notifyMatchFailure(root, "the logits are no layer's 1xCx1x1 result");

    Location loc = root.getLoc();
    auto probabilities = EmuSoftmaxOp::create(rewriter, loc, qType, logits,
                                              rewriter.getF32FloatAttr(inScale),
                                              rewriter.getF32FloatAttr(kProbabilityStep));
    // Dequantized on the host: float(p) / 128, exact.
    auto f32Type = RankedTensorType::get(qType.getShape(), rewriter.getF32Type());
    Value f = tosa::CastOp::create(rewriter, loc, f32Type, probabilities);
    auto splat = [&](Type element, Attribute value) {
      auto t = RankedTensorType::get(SmallVector<int64_t>(4, 1), element);
      return tosa::ConstOp::create(rewriter, loc, t, DenseElementsAttr::get(t, value));
    };
    Value step = splat(rewriter.getF32Type(), rewriter.getF32FloatAttr(kProbabilityStep));
    auto shiftType = RankedTensorType::get({1}, rewriter.getI8Type());
    Value shift = tosa::ConstOp::create(rewriter, loc, shiftType,
                                        DenseElementsAttr::get(shiftType, rewriter.getI8IntegerAttr(0)));
    Value scaled = tosa::MulOp::create(rewriter, loc, f32Type, f, step, shift);
    Value shape = tosa::getTosaConstShape(rewriter, loc, type.getShape());
    rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(root, type, scaled, shape);
    mlir::emitRemark(loc) << "softmax over " << c
                          << " int8 logits runs in NVIDIA's runtime emulator (an EMU task "
                             "after the DLA task): probabilities in steps of 1/128, truncated";
    return success();
  }
};

} // namespace

void tosa_to_dla::populateEmulatorPatterns(RewritePatternSet &patterns,
                                           const OffloadTarget &target) {
  if (target.emulator && target.precision == ::dlaformat::nvdla::Precision::Int8)
    patterns.add<SoftmaxToEmulator>(patterns.getContext());
}
