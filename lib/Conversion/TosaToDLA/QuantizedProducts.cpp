//===- QuantizedProducts.cpp - Products of two int8 run-time tensors ------===//
//
// rescale(mul(rescale(x, 1, zx) : i32, rescale(g, 1, 0) : i32), f, zy),
// the integer form dla-import-onnx writes for the product in a quantized
// hard-swish (x times its gate u = relu6(x + 3) / 6, an int8 map at zero
// point 0), as one offline SDP pass:
//   X1: ALU adds -zx, MUL by f's int16 m (both registers), no shift;
//   X2: MUL reads g per element (memory), shift s2, keeping F bits below
//       the output's unit (|x - zx| m |g| <= 255 * 32767 * 128 < 2^31:
//       exact until this shift);
//   output converter: + zy 2^F, shift F (one final rounding).
// An i32 constant c added to the product before the rescale (the
// learnable affine block after PP-OCRv4's hard-swishes: qdq_hardswish.py)
// joins the converter's offset: + (zy + c f) 2^F, rounded once there.
// The memory operand sits alone in X2 because NVIDIA's firmware takes a
// stage's ALU and MUL operands from one source (dla_sdp_op's mode; the
// loadable writer refuses mixed stages).
// TOSA computes the product exactly and rounds once (half up, 31-bit
// multiplier); the SDP's m keeps 15 bits of f and rounds half away from
// zero: within one, nearly always equal.
//
// The same with g one value per channel (1x1x1xC: squeeze-excitation's
// scaling x * gate[c], dla-import-onnx's form of DQ(x), DQ(gate) -> Mul ->
// Q) reads g as X2's per-kernel data: the gate layer's 1xCx1x1 result
// itself as the `prelu` operand, read as a plain multiply (a packed 1x1xC
// feature surface is the per-channel run; docs/WholeNetworks.md).
//
// With factors and added constants one per channel (the hard-swish whose
// trailing map is per channel, qdq_hardswish.py: both factors at zero
// point 0) the stages swap:
//   X1: MUL reads g per element (memory), no shift (|x g| <= 2^14);
//   X2: ALU adds c[k], MUL by m[k] (the batch-norm surface's pairs),
//       shift s2, keeping F bits below the output's unit;
//   output converter: + zy 2^F, shift F.
// m[k] share s2 (a per-layer register): a channel whose factor is r times
// below the largest keeps 15 - log2(r) bits of it.
//
// The gate's zero point must be 0: the X stages read memory operands
// without an offset (only the Y stage, absent on nv_small, has operand
// converters). dla-import-onnx writes u at scale 1/127, zero point 0, for
// both int8 and uint8 models (docs/IntegerAttributes.md decision 19).
//
//===----------------------------------------------------------------------===//

#include "QuantizedSdp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Bits below the output's unit that X2 keeps for the output converter.
constexpr int kProductFractionBits = 12;

struct QuantProduct {
  Value x, g;            // the feature map and its per-element multiplier
  int64_t zx = 0, zy = 0;
  double factor = 0;     // output units per unit of (x - zx) g
  double offset = 0;     // output units added before the rounding
  bool perChannel = false; // g is 1x1x1xC: read per kernel
  // Per output channel (then factor and offset are unused): output units
  // per unit of x g, and the constants added to x g.
  std::vector<double> channelFactors;
  std::vector<int64_t> channelAdded;
};

/// The constants of an i32 `add(v, c)` (either side; one value, or one per
/// channel 1x1x1xC) and v.
std::optional<std::pair<Value, std::vector<int64_t>>> readConstantAdd(Value v) {
  auto add = v.getDefiningOp<tosa::AddOp>();
  if (!add || !add->hasOneUse())
    return std::nullopt;
  auto channels = cast<RankedTensorType>(add.getType()).getShape().back();
  for (auto [value, constant] : {std::pair(add.getInput1(), add.getInput2()),
                                 std::pair(add.getInput2(), add.getInput1())}) {
    DenseElementsAttr c;
    if (!matchPattern(constant, m_Constant(&c)) || !c.getElementType().isInteger(32))
      continue;
    ArrayRef<int64_t> shape = c.getType().getShape();
    if (c.getType().getNumElements() != 1 &&
        (c.getType().getNumElements() != channels || shape.back() != channels))
      continue;
    std::vector<int64_t> values;
    for (const APInt &i : c.getValues<APInt>())
      values.push_back(i.getSExtValue());
    return std::make_pair(value, std::move(values));
  }
  return std::nullopt;
}

/// A rescale of an int8 map to i32 by exactly 1 (only its zero point
/// subtracted), or why not.
FailureOr<int64_t> readWidening(tosa::RescaleOp r, std::string &why) {
  FailureOr<Rescale> w = readRescale(r, why);
  if (failed(w))
    return failure();
  if (w->factors.size() != 1 || w->factors[0] != 1.0 || w->outputZp != 0) {
    why = "a factor of its product is rescaled by other than 1 (TOSA would round it before "
          "the product)";
    return failure();
  }
  return w->inputZp;
}

FailureOr<QuantProduct> readQuantProduct(tosa::RescaleOp op, const OffloadTarget &target,
                                         std::string &why) {
  Value product = op.getInput();
  std::vector<int64_t> added{0};
  if (auto sum = readConstantAdd(product))
    std::tie(product, added) = *sum;
  auto mul = product.getDefiningOp<tosa::MulOp>();
  if (!mul || !mul->hasOneUse() || !getElementTypeOrSelf(mul.getType()).isInteger(32)) {
    why = "its input is not an i32 product (plus a constant) read by it alone";
    return failure();
  }
  DenseElementsAttr shift;
  if (!matchPattern(mul.getShift(), m_Constant(&shift)) ||
      !llvm::all_of(shift.getValues<APInt>(), [](const APInt &v) { return v.isZero(); })) {
    why = "its product has a non-zero or non-constant shift";
    return failure();
  }
  auto ra = mul.getInput1().getDefiningOp<tosa::RescaleOp>();
  auto rb = mul.getInput2().getDefiningOp<tosa::RescaleOp>();
  if (ra && rb && ra.getInput().getType() != op.getType())
    std::swap(ra, rb);
  // The multiplier: a map of the same type, or one value per channel (the
  // squeeze-excitation's gate, 1x1x1xC, one image).
  auto out = cast<RankedTensorType>(op.getType());
  auto isChannels = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return t.getRank() == 4 && out.getRank() == 4 && out.getDimSize(0) == 1 &&
           t.getShape() == ArrayRef<int64_t>{1, 1, 1, out.getDimSize(3)} &&
           t.getElementType() == out.getElementType();
  };
  if (!ra || !rb || !ra->hasOneUse() || !rb->hasOneUse() ||
      ra.getInput().getType() != op.getType() ||
      (rb.getInput().getType() != op.getType() && !isChannels(rb.getInput()))) {
    why = "it does not multiply a widened feature map of its own shape and type by another or "
          "by one value per channel";
    return failure();
  }
  if (!isTargetInteger(op.getType(), target) || cast<RankedTensorType>(op.getType()).getRank() != 4 ||
      !cast<RankedTensorType>(op.getType()).hasStaticShape()) {
    why = "it is not a static rank-4 feature map in the target precision";
    return failure();
  }
  if (std::string w = target.checkSourceType(op.getType()); !w.empty()) {
    why = w;
    return failure();
  }
  FailureOr<Rescale> outRescale = readRescale(op, why);
  FailureOr<int64_t> za = readWidening(ra, why);
  if (failed(za))
    return failure();
  FailureOr<int64_t> zb = readWidening(rb, why);
  if (failed(outRescale) || failed(zb))
    return failure();
  const Rescale *o = &*outRescale;
  if (o->inputZp != 0 || llvm::any_of(o->factors, [](double f) { return !(f > 0); })) {
    why = "its rescale has an input zero point or a factor that is not positive";
    return failure();
  }
  QuantProduct q{ra.getInput(), rb.getInput(), *za, o->outputZp, o->factors[0],
                 static_cast<double>(added[0]) * o->factors[0]};
  q.perChannel = rb.getInput().getType() != op.getType();
  if (o->factors.size() > 1 || added.size() > 1) {
    // X1 holds the memory operand, so no register takes a zero point.
    if (q.perChannel || *za != 0 || *zb != 0) {
      why = "its rescale or added constant is per channel, which needs both factors at zero "
            "point 0 and of one shape (X1 then reads the multiplier per element, X2 the "
            "per-channel pairs)";
      return failure();
    }
    const int64_t channels = cast<RankedTensorType>(op.getType()).getShape().back();
    for (int64_t k = 0; k < channels; ++k) {
      q.channelFactors.push_back(o->factors[o->factors.size() > 1 ? k : 0]);
      q.channelAdded.push_back(added[added.size() > 1 ? k : 0]);
    }
    return q;
  }
  if (!q.perChannel && *za == 0 && *zb != 0) {
    std::swap(q.x, q.g);
    q.zx = *zb;
  } else if (*zb != 0) {
    why = q.perChannel ? "its per-channel multiplier has a zero point (the X stages read a "
                         "memory operand without an offset)"
                       : "neither factor of its product has zero point 0 (the X stages read a "
                         "memory operand without an offset)";
    return failure();
  }
  if (q.zx < -32768 || q.zx > 32767) {
    why = "its input zero point does not fit the ALU's int16 register";
    return failure();
  }
  if (std::string w = target.checkOfflineSdp(); !w.empty()) {
    why = w;
    return failure();
  }
  return q;
}

/// X2's multiplier and shift and the output converter's fraction bits:
/// m 2^-(s2 + F) ~ factor, F as large as kProductFractionBits allows.
FailureOr<std::pair<nv::ScaleShift, int>> productScale(double factor, std::string &why) {
  for (int f = kProductFractionBits; f >= 0; --f) {
    ::dlaformat::Expected<nv::ScaleShift> s =
        nv::scaleFromFactor(std::ldexp(factor, f), nv::ScaleRounding::Nearest);
    if (s)
      return std::make_pair(*s, f);
    if (f == 0)
      why = "its requantization factor has no int16 multiplier: " + s.message();
  }
  return failure();
}

/// X2's (c[k], m[k]) pairs with their shifts and the output converter's
/// fraction bits, for the per-channel form.
struct ChannelProgram {
  std::vector<int16_t> pairs; // c[k] >> aluShift, m[k] per channel
  uint8_t aluShift = 0, mulShift = 0;
  int fraction = 0;
};

FailureOr<ChannelProgram> channelProgram(const QuantProduct &q, std::string &why) {
  ChannelProgram p;
  for (int f = kProductFractionBits; f >= 0; --f) {
    std::vector<double> scaled;
    for (double factor : q.channelFactors)
      scaled.push_back(std::ldexp(factor, f));
    ::dlaformat::Expected<nv::SharedShiftScales> s =
        nv::scalesFromFactors(scaled, nv::ScaleRounding::Nearest);
    if (!s) {
      if (f == 0)
        why = "its requantization factors have no int16 multipliers: " + s.message();
      continue;
    }
    // The constants come from an i32 tensor (readConstantAdd).
    std::vector<int32_t> added(q.channelAdded.begin(), q.channelAdded.end());
    nv::Int16Bias bias = nv::biasToInt16(added, nv::BiasRounding::Nearest);
    for (size_t k = 0; k < added.size(); ++k) {
      p.pairs.push_back(bias.values[k]);
      p.pairs.push_back(s->scales[k]);
    }
    p.aluShift = bias.shift;
    p.mulShift = s->shift;
    p.fraction = f;
    return p;
  }
  return failure();
}

struct QuantizedProductToSdp : OpRewritePattern<tosa::RescaleOp> {
  QuantizedProductToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::RescaleOp op, PatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<QuantProduct> q = readQuantProduct(op, target, why);
    if (failed(q))
      return rewriter.notifyMatchFailure(op, why);
    if (!q->channelFactors.empty())
      return rewriteChannels(op, *q, rewriter);
    auto scale = productScale(q->factor, why);
    if (failed(scale))
      return rewriter.notifyMatchFailure(op, why);
    const auto [m, fraction] = *scale;
    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    Type element = target.getElementType(ctx);
    // The multiplier first: operands dominate the layer. Per channel it
    // is the gate's own 1xCx1x1 result, read in place as the PReLU
    // operand (a plain multiply of per-kernel data): its transpose cancels
    // the gate layer's, so no host step sits between the two. Per element,
    // in the operands' own dimension order.
    ElementwiseFrame frame(q->perChannel ? ValueRange{} : ValueRange{q->x, q->g});
    Value g = frame.input(rewriter, loc, q->g, element);
    Value x = frame.input(rewriter, loc, q->x, element);
    auto sdp = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
    if (q->perChannel)
      sdp.getPreluMutable().assign(g);
    else
      sdp.getEltwiseMutable().assign(g);
    const nv::SdpMemOperand mem =
        q->perChannel ? nv::SdpMemOperand::Prelu : nv::SdpMemOperand::Eltwise;
    std::optional<nv::SdpAluAlgo> none, sum = nv::SdpAluAlgo::Sum;
    // Registers in X1, the memory operand alone in X2: NVIDIA's
    // dla_sdp_op takes a stage's ALU and MUL operands from one source.
    sdp.setBsAttr(SdpXAttr::get(ctx, q->zx ? sum : none,
                                q->zx ? SdpOperand::ofRegister(-q->zx) : SdpOperand(), 0,
                                SdpOperand::ofRegister(m.scale), 0, false, false));
    sdp.setBnAttr(SdpXAttr::get(ctx, none, SdpOperand(), 0, SdpOperand::ofMemory(mem), m.shift,
                                false, false));
    const int64_t offset =
        std::llround(std::ldexp(static_cast<double>(q->zy) + q->offset, fraction));
    if (offset != 0 || fraction != 0)
      sdp.setOutCvtAttr(CvtAttr::get(ctx, -offset, 1, fraction));
    rewriter.replaceOp(op, frame.result(rewriter, loc, sdp, cast<RankedTensorType>(op.getType())));
    return success();
  }

  /// The per-channel form (the header's second program).
  LogicalResult rewriteChannels(tosa::RescaleOp op, const QuantProduct &q,
                                PatternRewriter &rewriter) const {
    std::string why;
    auto plan = channelProgram(q, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why);
    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    Type element = target.getElementType(ctx);
    ElementwiseFrame frame(ValueRange{q.x, q.g});
    Value g = frame.input(rewriter, loc, q.g, element);
    Value x = frame.input(rewriter, loc, q.x, element);
    auto sdp = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
    sdp.getEltwiseMutable().assign(g);
    auto pairsType = RankedTensorType::get({int64_t(plan->pairs.size() / 2), 2}, rewriter.getI16Type());
    sdp.getBatchnormMutable().assign(arith::ConstantOp::create(
        rewriter, loc, pairsType, DenseElementsAttr::get(pairsType, ArrayRef(plan->pairs))));
    std::optional<nv::SdpAluAlgo> none, sum = nv::SdpAluAlgo::Sum;
    const SdpOperand pairs = SdpOperand::ofMemory(nv::SdpMemOperand::Batchnorm);
    sdp.setBsAttr(SdpXAttr::get(ctx, none, SdpOperand(), 0,
                                SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise), 0, false, false));
    sdp.setBnAttr(SdpXAttr::get(ctx, sum, pairs, plan->aluShift, pairs, plan->mulShift, false,
                                false));
    const int64_t offset = q.zy * (int64_t(1) << plan->fraction);
    if (offset != 0 || plan->fraction != 0)
      sdp.setOutCvtAttr(CvtAttr::get(ctx, -offset, 1, plan->fraction));
    rewriter.replaceOp(op, frame.result(rewriter, loc, sdp, cast<RankedTensorType>(op.getType())));
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotQuantProduct(tosa::RescaleOp op, const OffloadTarget &target) {
  std::string why;
  FailureOr<QuantProduct> q = readQuantProduct(op, target, why);
  if (succeeded(q) && !q->channelFactors.empty())
    (void)channelProgram(*q, why);
  else if (succeeded(q))
    (void)productScale(q->factor, why);
  return why;
}

void tosa_to_dla::populateQuantizedProductPatterns(RewritePatternSet &patterns,
                                                   const OffloadTarget &target) {
  patterns.add<QuantizedProductToSdp>(patterns.getContext(), target);
}
