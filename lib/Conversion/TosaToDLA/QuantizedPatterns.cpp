//===- QuantizedPatterns.cpp - TOSA's quantized layers -> integer dla ops -===//
//
// TOSA writes a quantized layer as integer arithmetic on i8 with zero points
// and an i32 result brought back to i8 by tosa.rescale. On NVDLA the
// rescale is the SDP's job (nvdla/sw maps a calibrated network the same
// way; ../shared/design/int8-pipeline.md section 3):
//
//   rescale(conv2d(x, w, bias, zx, zw)) [clamp at the output zero point]
//     -> dla.conv (PAD_VALUE = zx) + on-the-fly SDP:
//        per tensor:  bs <alu = sum, alu_operand = bias, alu_shift,
//                         mul_operand = register, mul_shift>
//                     bn <alu = sum, alu_operand = batchnorm, mul_operand =
//                         batchnorm, mul_shift, relu>
//        per channel: bs <mul_operand = prelu, mul_shift>
//                     bn <alu = sum, alu_operand = batchnorm, alu_shift,
//                         mul_operand = batchnorm, mul_shift, relu>
//        out_cvt <offset = -zy 2^F, scale = 1, shift = F>
//     The input zero point is exact: padded positions feed zx, and
//     -zx * sum(w_k) joins the bias. The factor is the product of the two
//     MULs' int16s (NvdlaScale.h twoStageScalesFromFactors: ~28 bits where
//     one int16 keeps 15), their products keeping F bits below the output's
//     unit. The bias is an int16 at a left shift: per tensor X1 adds it in
//     accumulator units and X2 the remainder in X1's result units; per
//     channel (X1's surface holds the multipliers) X2 adds it all. ReLU at
//     the zero point is X2's ReLU before the zero point is added; the
//     output converter rounds once.
//   rescale(add(rescale(a), rescale(b)))
//     -> offline SDP, x = the operand of smaller weight, e = the other:
//        bs <alu = sum, alu_operand = -zx, mul_operand = r>   (x - zx) * r
//        bn <alu = sum, alu_operand = eltwise, alu_shift = s> + e * 2^s
//        out_cvt: (t - offset) * Ce 2^-s, offset = ze 2^s - zy 2^s / Ce
//     BN reads per-element data on every configuration (nv_small has no
//     EW stage).
//
// Rounding: TOSA's SINGLE_ROUND rounds half up, the SDP half away from
// zero, so results can differ by one on exact negative ties.
//
// The program itself is QuantizedSdp.h's; RescalePatterns.cpp runs it
// offline for a rescale with no accumulator in front (an int8 map's
// requantization, the per-channel affine map).
//
//===----------------------------------------------------------------------===//

#include "QuantizedSdp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

//===----------------------------------------------------------------------===//
// Convolution + rescale
//===----------------------------------------------------------------------===//

template <typename OpTy>
FailureOr<QuantConv> readQuantConv(OpTy conv, const Rescale &rescale, std::string &why) {
  FailureOr<int64_t> inZp = conv.getInputZeroPoint(), wZp = conv.getWeightZeroPoint();
  if (failed(inZp) || failed(wZp)) {
    why = "its zero points are not constants";
    return failure();
  }
  auto wType = cast<RankedTensorType>(conv.getWeight().getType());
  if (!wType.getElementType().isInteger(8) || !isReadableConstant(conv.getWeight()) ||
      !isReadableConstant(conv.getBias())) {
    why = "its weight or bias is not an i8 / i32 constant";
    return failure();
  }
  std::vector<char> raw = readConstantBytes(conv.getWeight());
  QuantConv q;
  q.inputZp = *inZp;
  q.outputZp = rescale.outputZp;
  for (char c : raw) {
    int64_t v = static_cast<int8_t>(c) - *wZp;
    if (v < -128 || v > 127) {
      why = "its weight minus the weight zero point leaves int8";
      return failure();
    }
    q.kcrs.push_back(static_cast<int8_t>(v));
  }
  return q;
}

/// dla.conv + on-the-fly stage-form dla.sdp over NCHW `input` for
/// `q`'s kernels [k0, k0 + n) with KCRS `weight` of those kernels.
Value emitQuantConv(PatternRewriter &rewriter, Location loc, Value input, const QuantConv &q,
                    const SdpProgram &p, int64_t k0, ArrayRef<int64_t> kcrs,
                    ArrayRef<int8_t> weight, ArrayRef<int64_t> outNchw, ArrayRef<int64_t> stride,
                    ArrayRef<int64_t> pad, ArrayRef<int64_t> dilation, bool relu) {
  Type i8 = rewriter.getI8Type();
  const int64_t n = kcrs[0];
  auto wType = RankedTensorType::get(kcrs, i8);
  Value w = makeConstant(rewriter, loc, wType,
                         ArrayRef<char>(reinterpret_cast<const char *>(weight.data()),
                                        weight.size()),
                         i8, "dla_conv_weight");
  auto outType = RankedTensorType::get(outNchw, i8);
  auto conv = ConvOp::create(rewriter, loc, outType, nv::ConvMode::Direct, input, w);
  conv.setStrides(stride);
  conv.setPadding(pad);
  conv.setDilations(dilation);
  if (q.inputZp != 0 && llvm::any_of(pad, [](int64_t v) { return v != 0; }))
    conv.setPadValue(q.inputZp);
  return emitRescaleSdp(rewriter, loc, SdpMode::OnTheFly, conv, q, p, k0, n, relu);
}



template <typename OpTy>
std::string whyNotQuantConv(OpTy conv, tosa::RescaleOp rescale, const OffloadTarget &target) {
  if (!conv || !conv->hasOneUse())
    return "its input is not a convolution read by it alone";
  if (!isTargetInteger(conv.getInput().getType(), target) ||
      !getElementTypeOrSelf(conv.getType()).isInteger(32) ||
      !isTargetInteger(rescale.getType(), target) ||
      !getElementTypeOrSelf(conv.getInput().getType()).isInteger(8))
    return "it is not an int8 convolution rescaled to the target precision";
  for (Type type : {conv.getInput().getType(), rescale.getType()})
    if (std::string why = target.checkSourceType(type); !why.empty())
      return why;
  if (std::string why = whyNotConvRegisters(conv, /*channelsCut=*/false); !why.empty())
    return "its convolution's " + why.substr(4);
  return target.check(nv::ConversionQuery::convolution(
      nv::ConvMode::Direct, nv::featureInput(target.precision), target.precision));
}

/// The bias per kernel (broadcast when one), minus zx * sum of the kernel.
std::vector<int64_t> foldedBias(Value bias, const QuantConv &q, int64_t kernels,
                                int64_t perKernel) {
  std::vector<char> bytes = readConstantBytes(bias);
  auto element = getElementTypeOrSelf(bias.getType());
  const size_t width = element.getIntOrFloatBitWidth() / 8;
  const size_t count = bytes.size() / width;
  std::vector<int64_t> out(static_cast<size_t>(kernels), 0);
  for (int64_t k = 0; k < kernels; ++k) {
    if (count) {
      uint64_t raw = 0;
      std::memcpy(&raw, &bytes[(count == 1 ? 0 : k) * width], width);
      out[k] = llvm::SignExtend64(raw, static_cast<unsigned>(width * 8));
    }
    int64_t sum = 0;
    for (int64_t i = 0; i < perKernel; ++i)
      sum += q.kcrs[k * perKernel + i];
    out[k] -= q.inputZp * sum;
  }
  return out;
}

/// The layer `op` rescales: its weights per kernel (KCRS, or a depthwise
/// kernel's kh x kw taps), the folded bias and the factors, or why not.
FailureOr<QuantConv> analyzeConv(tosa::RescaleOp op, const OffloadTarget &target,
                                 std::string &why) {
  Operation *producer = op.getInput().getDefiningOp();
  auto conv = dyn_cast_or_null<tosa::Conv2DOp>(producer);
  auto depthwise = dyn_cast_or_null<tosa::DepthwiseConv2DOp>(producer);
  why = conv ? whyNotQuantConv(conv, op, target) : whyNotQuantConv(depthwise, op, target);
  if (!why.empty())
    return failure();
  FailureOr<Rescale> rescale = readRescale(op, why);
  if (failed(rescale))
    return failure();
  if (rescale->inputZp != 0) {
    why = "the accumulator's rescale has an input zero point";
    return failure();
  }
  FailureOr<QuantConv> read =
      conv ? readQuantConv(conv, *rescale, why) : readQuantConv(depthwise, *rescale, why);
  if (failed(read))
    return failure();
  QuantConv q = std::move(*read);
  q.source = q.kcrs;
  Value weight = conv ? conv.getWeight() : depthwise.getWeight();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(weight.getType()).getShape();
  int64_t kernels, perKernel;
  if (conv) {
    // OHWI -> KCRS (int8: one byte an element).
    std::vector<char> ohwi(q.kcrs.begin(), q.kcrs.end());
    std::vector<char> kcrs = transposeBytes(ohwi, shape, 1, {0, 3, 1, 2});
    q.kcrs.assign(kcrs.begin(), kcrs.end());
    q.shape = {shape[0], shape[3], shape[1], shape[2]};
    kernels = shape[0];
    perKernel = shape[1] * shape[2] * shape[3];
  } else {
    // HWCM -> output channel c * M + m: its kh x kw taps.
    const int64_t kh = shape[0], kw = shape[1], channels = shape[2], mult = shape[3];
    std::vector<int8_t> taps(q.kcrs.size());
    for (int64_t t = 0; t < kh * kw; ++t)
      for (int64_t k = 0; k < channels * mult; ++k)
        taps[k * kh * kw + t] = q.kcrs[t * channels * mult + k];
    q.kcrs = std::move(taps);
    q.shape = {channels * mult, 1, kh, kw};
    kernels = channels * mult;
    perKernel = kh * kw;
  }
  q.bias = foldedBias(conv ? conv.getBias() : depthwise.getBias(), q, kernels, perKernel);
  q.factors = rescale->factors;
  if (q.factors.size() == 1)
    q.factors.assign(static_cast<size_t>(kernels), q.factors.front());
  if (static_cast<int64_t>(q.factors.size()) != kernels) {
    why = "its rescale has a multiplier count other than one or one per kernel";
    return failure();
  }
  return q;
}

struct QuantizedConvToDLA : OpRewritePattern<tosa::RescaleOp> {
  QuantizedConvToDLA(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context, /*benefit=*/2), target(target) {}

  LogicalResult matchAndRewrite(tosa::RescaleOp op, PatternRewriter &rewriter) const override {
    Operation *producer = op.getInput().getDefiningOp();
    if (!isa_and_nonnull<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(producer))
      return failure();
    std::string why;
    FailureOr<QuantConv> q = analyzeConv(op, target, why);
    if (failed(q))
      return rewriter.notifyMatchFailure(op, why);
    FailureOr<SdpProgram> p = planProgram(*q, why);
    if (failed(p))
      return rewriter.notifyMatchFailure(op, why);
    tosa::ClampOp clamp = reluAtZeroPoint(op, q->outputZp);
    Value nchw;
    if (auto conv = dyn_cast<tosa::Conv2DOp>(producer)) {
      Location loc = conv.getLoc();
      Value input = toLayerInput(rewriter, loc, conv.getInput(), rewriter.getI8Type());
      nchw = emitQuantConv(rewriter, loc, input, *q, *p, 0, q->shape, q->kcrs,
                           toNchwShape(cast<RankedTensorType>(op.getType()).getShape()),
                           conv.getStride(), conv.getPad(), conv.getDilation(), bool(clamp));
    } else {
      nchw = emitDepthwise(cast<tosa::DepthwiseConv2DOp>(producer), op, *q, *p, bool(clamp),
                           rewriter);
    }
    Operation *root = clamp ? clamp.getOperation() : op.getOperation();
    rewriter.replaceOp(root, toTosaResult(rewriter, op.getLoc(), nchw,
                                          cast<RankedTensorType>(root->getResult(0).getType())));
    if (clamp)
      rewriter.eraseOp(op);
    return success();
  }

  /// Slices of atomic-C channels as dense block-diagonal convolutions
  /// (emitDepthwiseSlices), each with its SDP.
  Value emitDepthwise(tosa::DepthwiseConv2DOp conv, tosa::RescaleOp op, const QuantConv &q,
                      const SdpProgram &p, bool relu, PatternRewriter &rewriter) const {
    Location loc = conv.getLoc();
    Type i8 = rewriter.getI8Type();
    ArrayRef<int64_t> hwcm = cast<RankedTensorType>(conv.getWeight().getType()).getShape();
    const int64_t mult = hwcm[3];
    Value input = toLayerInput(rewriter, loc, conv.getInput(), i8);
    SmallVector<int64_t> outNchw = toNchwShape(cast<RankedTensorType>(op.getType()).getShape());
    ArrayRef<char> source(reinterpret_cast<const char *>(q.source.data()), q.source.size());
    return emitDepthwiseSlices(
        rewriter, loc, input, source, hwcm, 1, target.config.atomicC,
        RankedTensorType::get(outNchw, i8),
        [&](Value part, int64_t c0, int64_t n, ArrayRef<int64_t> kcrs, ArrayRef<char> weight) {
          SmallVector<int64_t> partOut = {outNchw[0], n * mult, outNchw[2], outNchw[3]};
          return emitQuantConv(rewriter, loc, part, q, p, c0 * mult, kcrs,
                               ArrayRef<int8_t>(reinterpret_cast<const int8_t *>(weight.data()),
                                                weight.size()),
                               partOut, conv.getStride(), conv.getPad(), conv.getDilation(),
                               relu);
        });
  }

  OffloadTarget target;
};

//===----------------------------------------------------------------------===//
// Element-wise add
//===----------------------------------------------------------------------===//

/// rescale(add(rescale(a), rescale(b))) read as y = Ca (a - za) + Cb (b - zb)
/// + zy, or why not.
struct QuantAdd {
  Value a, b;
  double ca = 0, cb = 0;
  int64_t za = 0, zb = 0, zy = 0;
};

FailureOr<QuantAdd> readQuantAdd(tosa::RescaleOp op, const OffloadTarget &target,
                                 std::string &why) {
  auto add = op.getInput().getDefiningOp<tosa::AddOp>();
  if (!add || !add->hasOneUse() || !getElementTypeOrSelf(add.getType()).isInteger(32)) {
    why = "its input is not an i32 add read by it alone";
    return failure();
  }
  auto ra = add.getInput1().getDefiningOp<tosa::RescaleOp>();
  auto rb = add.getInput2().getDefiningOp<tosa::RescaleOp>();
  if (!ra || !rb || !ra->hasOneUse() || !rb->hasOneUse() ||
      ra.getInput().getType() != op.getType() || rb.getInput().getType() != op.getType()) {
    why = "it does not add two rescaled feature maps of its own shape and type";
    return failure();
  }
  if (!isTargetInteger(op.getType(), target)) {
    why = "it is not rescaled to the target precision";
    return failure();
  }
  if (std::string w = target.checkSourceType(op.getType()); !w.empty()) {
    why = w;
    return failure();
  }
  if (cast<RankedTensorType>(op.getType()).getRank() != 4) {
    why = "it does not add rank-4 feature maps";
    return failure();
  }
  FailureOr<Rescale> out = readRescale(op, why), fa = readRescale(ra, why),
                     fb = readRescale(rb, why);
  if (failed(out) || failed(fa) || failed(fb))
    return failure();
  if (out->factors.size() != 1 || fa->factors.size() != 1 || fb->factors.size() != 1 ||
      out->inputZp != 0 || fa->outputZp != 0 || fb->outputZp != 0) {
    why = "its rescales are per channel or carry zero points inside the sum";
    return failure();
  }
  QuantAdd q{ra.getInput(), rb.getInput(), out->factors[0] * fa->factors[0],
             out->factors[0] * fb->factors[0], fa->inputZp, fb->inputZp, out->outputZp};
  if (!(q.ca > 0) || !(q.cb > 0)) {
    why = "its rescales are not positive";
    return failure();
  }
  if (std::string w = target.checkOfflineSdp(); !w.empty()) {
    why = w;
    return failure();
  }
  return q;
}

struct QuantizedAddToSdp : OpRewritePattern<tosa::RescaleOp> {
  QuantizedAddToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::RescaleOp op, PatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<QuantAdd> read = readQuantAdd(op, target, why);
    if (failed(read))
      return rewriter.notifyMatchFailure(op, why);
    QuantAdd q = *read;
    // x: the operand of smaller weight, scaled by r = Cx / Ce 2^s (15
    // significant bits); e is added exactly, shifted by s.
    if (q.ca > q.cb) {
      std::swap(q.a, q.b);
      std::swap(q.ca, q.cb);
      std::swap(q.za, q.zb);
    }
    const int bits = getElementTypeOrSelf(op.getType()).getIntOrFloatBitWidth();
    // e * 2^s and (x - zx) * r stay inside the 32-bit stage.
    const int maxShift = 31 - bits;
    int s = maxShift;
    while (s > 0 && std::ldexp(q.ca / q.cb, s) >= 32767.5)
      --s;
    const int64_t r = std::llround(std::ldexp(q.ca / q.cb, s));
    ::dlaformat::Expected<nv::ScaleShift> cvt =
        nv::scaleFromFactor(std::ldexp(q.cb, -s), nv::ScaleRounding::Nearest);
    if (!cvt)
      return rewriter.notifyMatchFailure(op, "no output converter: " + cvt.message());
    const int64_t offset =
        q.zb * (int64_t(1) << s) - std::llround(std::ldexp(double(q.zy), s) / q.cb);
    if (offset < INT32_MIN || offset > INT32_MAX || q.za < -32768 || q.za > 32767)
      return rewriter.notifyMatchFailure(op, "its zero points do not fit the registers");

    // A ReLU at a zero output point is BN's (offset 0: the converter adds
    // nothing, so BN's sign is the output's): no layer of its own.
    tosa::ClampOp clamp = offset == 0 && q.zy == 0 ? reluAtZeroPoint(op, 0) : tosa::ClampOp();

    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    Type element = target.getElementType(ctx);
    ElementwiseFrame frame(ValueRange{q.a, q.b});
    Value x = frame.input(rewriter, loc, q.a, element);
    Value e = frame.input(rewriter, loc, q.b, element);
    auto sdp = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
    sdp.getEltwiseMutable().assign(e);
    std::optional<nv::SdpAluAlgo> none, sum = nv::SdpAluAlgo::Sum;
    sdp.setBsAttr(SdpXAttr::get(ctx, q.za ? sum : none,
                                q.za ? SdpOperand::ofRegister(-q.za) : SdpOperand(), 0,
                                SdpOperand::ofRegister(r), 0, false, false));
    sdp.setBnAttr(SdpXAttr::get(ctx, sum, SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise), s,
                                SdpOperand(), 0, false, bool(clamp)));
    sdp.setOutCvtAttr(CvtAttr::get(ctx, offset, cvt->scale, cvt->shift));
    Operation *root = clamp ? clamp.getOperation() : op.getOperation();
    rewriter.replaceOp(root, frame.result(rewriter, loc, sdp,
                                          cast<RankedTensorType>(root->getResult(0).getType())));
    if (clamp)
      rewriter.eraseOp(op);
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotRescale(tosa::RescaleOp op, const OffloadTarget &target) {
  std::string why;
  Operation *producer = op.getInput().getDefiningOp();
  if (isa_and_nonnull<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(producer)) {
    FailureOr<QuantConv> q = analyzeConv(op, target, why);
    if (succeeded(q))
      (void)planProgram(*q, why);
    return why;
  }
  if (auto add = dyn_cast_or_null<tosa::AddOp>(producer)) {
    // A constant added to one rescaled map is the affine map's form.
    if (isReadableConstant(add.getInput1()) || isReadableConstant(add.getInput2()))
      return whyNotAffineRescale(op, target);
    (void)readQuantAdd(op, target, why);
    return why;
  }
  if (isa_and_nonnull<tosa::MulOp>(producer)) {
    // The affine map with negative factors' signs, else a product.
    if (std::string why = whyNotAffineRescale(op, target); why.empty())
      return why;
    return whyNotQuantProduct(op, target);
  }
  if (auto mm = dyn_cast_or_null<tosa::MatMulOp>(producer);
      mm && !isReadableConstant(mm.getB()))
    return whyNotActivationProduct(mm, target); // the product's own SDP
  return whyNotFeatureRescale(op, target);
}

bool tosa_to_dla::isFusedQuantizedRelu(tosa::ClampOp clamp, const OffloadTarget &target) {
  // A convolution's rescale, an int8 feature map's or the affine map's
  // (RescalePatterns.cpp): the ReLU is X2's. A residual add's rescale
  // takes it in BN when its output converter adds no offset
  // (QuantizedAddToSdp), else as a dla.clamp.
  auto rescale = clamp.getInput().getDefiningOp<tosa::RescaleOp>();
  if (!rescale)
    return false;
  if (isa_and_nonnull<tosa::AddOp>(rescale.getInput().getDefiningOp()) &&
      !whyNotAffineRescale(rescale, target).empty()) {
    std::string why;
    FailureOr<QuantAdd> q = readQuantAdd(rescale, target, why);
    // As QuantizedAddToSdp: e, added exactly, is the operand of larger
    // weight; the converter's offset is then ze 2^s.
    return succeeded(q) && q->zy == 0 && (q->ca > q->cb ? q->za : q->zb) == 0 &&
           reluAtZeroPoint(rescale, 0) == clamp;
  }
  FailureOr<int64_t> zp = rescale.getOutputZeroPoint();
  return succeeded(zp) && reluAtZeroPoint(rescale, *zp) == clamp &&
         whyNotRescale(rescale, target).empty();
}

void tosa_to_dla::populateQuantizedPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                            const OffloadTarget &target) {
  patterns.add<QuantizedConvToDLA, QuantizedAddToSdp>(patterns.getContext(), target);
  populateRescalePatterns(patterns, target);
  populateQuantizedProductPatterns(patterns, target);
  populateTablePatterns(patterns, rules, target);
  rules.add<tosa::RescaleOp>(whyNotRescale);
}
