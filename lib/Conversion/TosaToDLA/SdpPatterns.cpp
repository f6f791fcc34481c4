//===- SdpPatterns.cpp - Element-wise TOSA ops -> dla.sdp -----------------===//
//
// The SDP runs, per element, bias, batch-norm (add, then multiply), an
// element-wise addend, then ReLU or PReLU. TOSA spells these as:
//   tosa.clamp to [0, +inf)                       -> relu
//   tosa.clamp to other bounds                    -> dla.clamp (MAX / MIN)
//   tosa.add of two feature maps                  -> eltwise
//   tosa.add of a per-channel constant            -> bias
//   tosa.mul by a per-channel constant a (then
//   tosa.add of a per-channel constant b)         -> batchnorm (add b/a, multiply by a)
//   tosa.mul of run-time tensors                  -> ProductPatterns.cpp
// After conversion an SDP whose input is a convolution's only use runs
// on the fly, and an SDP that reads another SDP's only result merges with it
// when its stages all come later in the SDP's order.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// A rank-4 activation of exactly the result's shape (no broadcast).
bool isFeatureMap(Value v, Value result) {
  return v.getType() == result.getType() && cast<RankedTensorType>(v.getType()).getRank() == 4 &&
         !isReadableConstant(v);
}

int64_t channelsOf(Value nhwc) { return cast<RankedTensorType>(nhwc.getType()).getDimSize(3); }

bool isPerChannelConstant(Value v, int64_t channels) {
  return readPerChannelConstant(v, channels).has_value();
}

bool isZeroShift(tosa::MulOp mul) {
  DenseElementsAttr shift;
  if (!matchPattern(mul.getShift(), m_Constant(&shift)))
    return false;
  return llvm::all_of(shift.getValues<APInt>(), [](const APInt &v) { return v.isZero(); });
}

/// mul(x, per-channel constant): returns the feature operand, nullptr if not.
Value scaledFeature(tosa::MulOp mul) {
  if (!isZeroShift(mul))
    return nullptr;
  Value out = mul.getOutput();
  int64_t c = channelsOf(out);
  if (isFeatureMap(mul.getInput1(), out) && isPerChannelConstant(mul.getInput2(), c))
    return mul.getInput1();
  if (isFeatureMap(mul.getInput2(), out) && isPerChannelConstant(mul.getInput1(), c))
    return mul.getInput2();
  return nullptr;
}

Value scaleOf(tosa::MulOp mul) {
  return scaledFeature(mul) == mul.getInput1() ? mul.getInput2() : mul.getInput1();
}

/// add(mul(x, a), b) with per-channel a and b, mul used once: the mul.
tosa::MulOp batchnormMul(tosa::AddOp add, Value &shift) {
  Value out = add.getOutput();
  for (auto [m, other] : {std::pair(add.getInput1(), add.getInput2()),
                          std::pair(add.getInput2(), add.getInput1())}) {
    auto mul = m.getDefiningOp<tosa::MulOp>();
    if (mul && mul->hasOneUse() && mul.getType() == out.getType() && scaledFeature(mul) &&
        isPerChannelConstant(other, channelsOf(out))) {
      shift = other;
      return mul;
    }
  }
  return nullptr;
}

/// Whether an integer layer's operand holds every value exactly (float
/// layers round in the packer).
bool fitsElement(ArrayRef<float> values, Type element) {
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer)
    return true;
  const double hi = std::ldexp(1.0, integer.getWidth() - 1) - 1, lo = -hi - 1;
  return llvm::all_of(values, [&](float v) { return v >= lo && v <= hi && v == std::trunc(v); });
}

/// The batch-norm operand tensor<Cx2> (add, mul per channel) for x * a + b,
/// or an empty vector when some a is zero (b / a undefined) or, for integer
/// layers, b / a is no integer (the SDP adds it before multiplying).
std::vector<float> batchnormData(ArrayRef<float> a, ArrayRef<float> b, bool integer) {
  std::vector<float> data;
  data.reserve(a.size() * 2);
  for (size_t c = 0; c < a.size(); ++c) {
    if (a[c] == 0.0f)
      return {};
    float add = b.empty() ? 0.0f : b[c] / a[c];
    if (integer && add != std::trunc(add))
      return {};
    data.push_back(add);
    data.push_back(a[c]);
  }
  return data;
}

/// The batch-norm data of x * a (+ b), both per channel, or an empty vector
/// (unreadable or not expressible: see batchnormData).
std::vector<float> readBatchnorm(Value scale, Value shift, int64_t channels, Type element) {
  std::optional<std::vector<float>> a = readPerChannelConstant(scale, channels);
  std::optional<std::vector<float>> b =
      shift ? readPerChannelConstant(shift, channels) : std::vector<float>{};
  if (!a || !b)
    return {};
  std::vector<float> data = batchnormData(*a, *b, element.isInteger());
  return fitsElement(data, element) ? data : std::vector<float>{};
}

/// The per-channel bias `v` for layers of `element` type, or nullopt
/// (unreadable, or a value the integer type cannot hold).
std::optional<std::vector<float>> readBias(Value v, int64_t channels, Type element) {
  std::optional<std::vector<float>> bias = readPerChannelConstant(v, channels);
  if (!bias || !fitsElement(*bias, element))
    return std::nullopt;
  return bias;
}

/// An SDP operand constant of `element` type: f32 values rounded by the
/// packer (arith.truncf), or integers (exact: fitsElement was checked).
Value sdpConstant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ArrayRef<float> values,
                  Type element, StringRef name) {
  if (auto integer = dyn_cast<IntegerType>(element)) {
    SmallVector<APInt> ints;
    for (float v : values)
      ints.push_back(APInt(integer.getWidth(), static_cast<int64_t>(v), /*isSigned=*/true));
    auto type = RankedTensorType::get(shape, element);
    return arith::ConstantOp::create(b, loc, type, DenseElementsAttr::get(type, ints));
  }
  ArrayRef<char> bytes(reinterpret_cast<const char *>(values.data()),
                       values.size() * sizeof(float));
  return makeConstant(b, loc, RankedTensorType::get(shape, b.getF32Type()), bytes, element, name);
}

/// Builds `dla.sdp offline` over NHWC `x` and replaces `root` with it.
void replaceWithSdp(PatternRewriter &rewriter, Operation *root, Value x, Value bias,
                    Value batchnorm, Value eltwise, bool relu, Type element) {
  Location loc = root->getLoc();
  auto outType = cast<RankedTensorType>(root->getResult(0).getType());
  Value input = toLayerInput(rewriter, loc, x, element);
  auto sdp = SdpOp::create(rewriter, loc, input.getType(), SdpMode::Offline, input);
  if (bias)
    sdp.getBiasMutable().assign(bias);
  if (batchnorm)
    sdp.getBatchnormMutable().assign(batchnorm);
  if (eltwise)
    sdp.getEltwiseMutable().assign(eltwise);
  sdp.setRelu(relu);
  rewriter.replaceOp(root, toTosaResult(rewriter, loc, sdp, outType));
}

/// Whether a clamp's upper bound clamps nothing: +inf / the largest float,
/// or the largest value of the integer type.
bool isUnboundedAbove(Attribute max) {
  if (auto i = dyn_cast<IntegerAttr>(max)) {
    unsigned width = i.getType().getIntOrFloatBitWidth();
    return i.getType().isUnsignedInteger() ? i.getValue().isMaxValue()
                                           : i.getValue().isMaxSignedValue() && width > 0;
  }
  auto f = dyn_cast<FloatAttr>(max);
  if (!f)
    return false;
  APFloat v = f.getValue();
  APFloat::cmpResult c = v.compare(APFloat::getLargest(v.getSemantics()));
  return c == APFloat::cmpGreaterThan || c == APFloat::cmpEqual;
}

bool isZero(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  return false;
}

//===----------------------------------------------------------------------===//
// Conversion patterns
//===----------------------------------------------------------------------===//

struct ClampToSdp : OpRewritePattern<tosa::ClampOp> {
  ClampToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}
  LogicalResult matchAndRewrite(tosa::ClampOp op, PatternRewriter &rewriter) const override {
    if (std::string why = whyNotClamp(op, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Type element = target.getElementType(rewriter.getContext());
    if (isa<FloatAttr>(op.getMinValAttr()) && isZero(op.getMinVal()) &&
        isUnboundedAbove(op.getMaxVal())) {
      replaceWithSdp(rewriter, op, op.getInput(), {}, {}, {}, /*relu=*/true, element);
      return success();
    }
    // Any other bounds (ReLU6, hard-sigmoid's [0, 1], integer clamps): the
    // SDP X ALU's MAX then MIN with register operands. Float bounds beyond
    // fp16's range sit at its largest finite values (the SDP's fp16 output
    // clips there anyway); integer bounds are the type's own.
    auto bound = [](Attribute a) {
      if (auto i = dyn_cast<IntegerAttr>(a))
        return double(i.getInt());
      return std::clamp(cast<FloatAttr>(a).getValueAsDouble(), -65504.0, 65504.0);
    };
    Location loc = op.getLoc();
    Value input = toLayerInput(rewriter, loc, op.getInput(), element);
    Value clamp = ClampOp::create(rewriter, loc, input.getType(), input,
                                  rewriter.getF64FloatAttr(bound(op.getMinValAttr())),
                                  rewriter.getF64FloatAttr(bound(op.getMaxValAttr())), CvtAttr(),
                                  PipelinePrecisionAttr());
    rewriter.replaceOp(op, toTosaResult(rewriter, loc, clamp,
                                        cast<RankedTensorType>(op.getType())));
    return success();
  }
  OffloadTarget target;
};

struct AddToSdp : OpRewritePattern<tosa::AddOp> {
  AddToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}
  LogicalResult matchAndRewrite(tosa::AddOp op, PatternRewriter &rewriter) const override {
    if (std::string why = whyNotAdd(op, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    Value out = op.getOutput();
    Type element = target.getElementType(rewriter.getContext());
    int64_t channels = channelsOf(out);
    Value shift;
    if (tosa::MulOp mul = batchnormMul(op, shift)) {
      std::vector<float> data = readBatchnorm(scaleOf(mul), shift, channels, element);
      if (data.empty())
        return rewriter.notifyMatchFailure(op, "no batch-norm data");
      Value bn = sdpConstant(rewriter, loc, {channels, 2}, data, element, "dla_batchnorm");
      replaceWithSdp(rewriter, op, scaledFeature(mul), {}, bn, {}, false, element);
      rewriter.eraseOp(mul);
      return success();
    }
    Value a = op.getInput1(), b = op.getInput2();
    if (isFeatureMap(a, out) && isFeatureMap(b, out)) {
      ElementwiseFrame frame(ValueRange{a, b});
      Value addend = frame.input(rewriter, loc, b, element);
      Value input = frame.input(rewriter, loc, a, element);
      auto sdp = SdpOp::create(rewriter, loc, input.getType(), SdpMode::Offline, input);
      sdp.getEltwiseMutable().assign(addend);
      rewriter.replaceOp(op, frame.result(rewriter, loc, sdp, cast<RankedTensorType>(out.getType())));
      return success();
    }
    if (!isFeatureMap(a, out))
      std::swap(a, b);
    std::optional<std::vector<float>> bias = readBias(b, channels, element);
    if (!bias)
      return rewriter.notifyMatchFailure(op, "unreadable bias");
    Value bv = sdpConstant(rewriter, loc, {channels}, *bias, element, "dla_sdp_bias");
    replaceWithSdp(rewriter, op, a, bv, {}, {}, false, element);
    return success();
  }
  OffloadTarget target;
};

struct MulToSdp : OpRewritePattern<tosa::MulOp> {
  MulToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}
  LogicalResult matchAndRewrite(tosa::MulOp op, PatternRewriter &rewriter) const override {
    if (std::string why = whyNotMul(op, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    // Products of run-time tensors: ProductPatterns.cpp.
    if (!scaledFeature(op))
      return failure();
    // x * a + b converts as one batch-norm, from the add.
    if (op->hasOneUse())
      if (auto add = dyn_cast<tosa::AddOp>(*op->getUsers().begin())) {
        Value shift;
        if (batchnormMul(add, shift) == op && whyNotAdd(add, target).empty())
          return rewriter.notifyMatchFailure(op, "converted with its add");
      }
    Location loc = op.getLoc();
    int64_t channels = channelsOf(op.getOutput());
    Type element = target.getElementType(rewriter.getContext());
    std::vector<float> data = readBatchnorm(scaleOf(op), Value(), channels, element);
    if (data.empty())
      return rewriter.notifyMatchFailure(op, "no batch-norm data");
    Value bn = sdpConstant(rewriter, loc, {channels, 2}, data, element, "dla_batchnorm");
    replaceWithSdp(rewriter, op, scaledFeature(op), {}, bn, {}, false, element);
    return success();
  }
  OffloadTarget target;
};

//===----------------------------------------------------------------------===//
// Fusion patterns
//===----------------------------------------------------------------------===//

/// An offline SDP reading a direct convolution's only result runs on the
/// fly, when the tables allow that conversion.
struct SdpOnTheFly : OpRewritePattern<SdpOp> {
  SdpOnTheFly(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}
  LogicalResult matchAndRewrite(SdpOp op, PatternRewriter &rewriter) const override {
    auto conv = op.getInput().getDefiningOp<ConvOp>();
    if (op.getMode() != SdpMode::Offline || !conv || !conv->hasOneUse())
      return failure();
    // The LUT in float mode is modelled on an fp16 input, not on CACC's
    // fp32 (dla.sdp's verifier: offline).
    if (op.getEwAttr() && isa<FloatType>(getElementTypeOrSelf(op.getType())))
      return failure();
    std::optional<nv::Precision> in = getPrecision(getElementTypeOrSelf(conv.getType()));
    std::optional<nv::Precision> out = getPrecision(getElementTypeOrSelf(op.getType()));
    if (!in || !out || !target.check(nv::ConversionQuery::sdpOnTheFly(
                                         conv.getMode(), *in, *out))
                            .empty())
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.setMode(SdpMode::OnTheFly); });
    return success();
  }
  OffloadTarget target;
};

/// The SDP's stages in its order: bias, batchnorm, eltwise, activation.
SmallVector<int> stagesOf(SdpOp op) {
  SmallVector<int> stages;
  if (op.getBias())
    stages.push_back(0);
  if (op.getBatchnorm())
    stages.push_back(1);
  if (op.getEltwise())
    stages.push_back(2);
  if (op.getRelu() || op.getPrelu())
    stages.push_back(3);
  return stages;
}

/// sdp(sdp(x, early stages), later stages) -> sdp(x, all stages).
struct MergeSdpStages : OpRewritePattern<SdpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SdpOp outer, PatternRewriter &rewriter) const override {
    auto inner = outer.getInput().getDefiningOp<SdpOp>();
    if (!inner || !inner->hasOneUse() || inner.getType() != outer.getType() ||
        outer.getMode() != SdpMode::Offline)
      return failure();
    // A stage-form SDP is one programmed hardware pass: its stages are not
    // the implicit order's.
    if (inner.isStageForm() || outer.isStageForm())
      return rewriter.notifyMatchFailure(outer, "an SDP programs its stages");
    SmallVector<int> early = stagesOf(inner), late = stagesOf(outer);
    if (early.empty() || late.empty() || early.back() >= late.front())
      return failure();
    // The earlier SDP's output converter applies between the stages.
    if (inner.getOutCvtAttr())
      return rewriter.notifyMatchFailure(outer, "the earlier SDP converts its output");
    // The merged op is outer with inner's stages added (it takes outer's
    // place, where all operands of both dominate). Every attribute of both
    // carries over; one both state differently cannot merge.
    for (NamedAttribute attr : inner->getAttrDictionary()) {
      if (attr.getName() == inner.getModeAttrName() ||
          attr.getName() == inner.getOperandSegmentSizesAttrName())
        continue;
      if (Attribute mine = outer->getAttrDictionary().get(attr.getName()); mine && mine != attr.getValue())
        return rewriter.notifyMatchFailure(outer, "the two SDPs state " + attr.getName().str() +
                                                      " differently");
    }
    auto merged = cast<SdpOp>(rewriter.clone(*outer));
    rewriter.modifyOpInPlace(merged, [&] {
      merged.setMode(inner.getMode());
      merged.getInputMutable().assign(inner.getInput());
      for (auto [from, to] : {std::pair(inner.getBias(), merged.getBiasMutable()),
                              std::pair(inner.getBatchnorm(), merged.getBatchnormMutable()),
                              std::pair(inner.getEltwise(), merged.getEltwiseMutable()),
                              std::pair(inner.getPrelu(), merged.getPreluMutable())})
        if (from)
          to.assign(from);
      for (NamedAttribute attr : inner->getAttrDictionary())
        if (!merged->getAttrDictionary().get(attr.getName()))
          merged->setAttr(attr.getName(), attr.getValue());
    });
    rewriter.replaceOp(outer, merged);
    rewriter.eraseOp(inner);
    return success();
  }
};

} // namespace

std::string tosa_to_dla::whyNotClamp(tosa::ClampOp op, const OffloadTarget &target) {
  for (Type type : {op.getInput().getType(), op.getOutput().getType()})
    if (std::string why = target.checkSourceType(type); !why.empty())
      return why;
  if (cast<RankedTensorType>(op.getType()).getRank() != 4)
    return "it is not applied to a rank-4 feature map";
  if (isa<IntegerAttr>(op.getMinValAttr())) {
    if (isFusedQuantizedRelu(op, target))
      return "it runs as the ReLU of the convolution it follows";
    return target.checkOfflineSdp();
  }
  // ReLU, or any other bounds as dla.clamp (the X stage's MAX / MIN).
  return target.checkOfflineSdp();
}

std::string tosa_to_dla::whyNotAdd(tosa::AddOp op, const OffloadTarget &target) {
  for (Type type : {op.getInput1().getType(), op.getInput2().getType(), op.getOutput().getType()})
    if (isa<RankedTensorType>(type) && !cast<RankedTensorType>(type).hasStaticShape())
      return target.checkSourceType(type);
  if (std::string why = target.checkSourceType(op.getType()); !why.empty())
    return why;
  Value out = op.getOutput();
  if (cast<RankedTensorType>(out.getType()).getRank() != 4)
    return "it does not add rank-4 feature maps";
  Value shift;
  if (tosa::MulOp mul = batchnormMul(op, shift)) {
    if (readBatchnorm(scaleOf(mul), shift, channelsOf(out), target.getElementType(op.getContext()))
            .empty())
      return "x * a + b cannot run as batch-norm's add-then-multiply: some scale a is zero, or "
             "(integer layers) b is not a multiple of a";
    return target.checkOfflineSdp();
  }
  Value a = op.getInput1(), b = op.getInput2();
  bool fa = isFeatureMap(a, out), fb = isFeatureMap(b, out);
  if (fa && fb)
    return target.checkOfflineSdp();
  if (fa || fb) {
    Value constant = fa ? b : a;
    if (!isPerChannelConstant(constant, channelsOf(out)))
      return "it adds neither two feature maps of one shape nor a per-channel constant";
    if (!readBias(constant, channelsOf(out), target.getElementType(op.getContext())))
      return "its per-channel constant does not fit the layer's integer precision";
    return target.checkOfflineSdp();
  }
  return "it adds neither two feature maps of one shape nor a per-channel constant";
}

std::string tosa_to_dla::whyNotMul(tosa::MulOp op, const OffloadTarget &target) {
  if (std::string why = target.checkSourceType(op.getType()); !why.empty())
    return why;
  Value out = op.getOutput();
  if (cast<RankedTensorType>(out.getType()).getRank() != 4)
    return "it does not multiply a rank-4 feature map";
  if (!isZeroShift(op))
    return "it has a non-zero or non-constant shift";
  if (!scaledFeature(op))
    return whyNotProduct(op, target);
  if (readBatchnorm(scaleOf(op), Value(), channelsOf(out), target.getElementType(op.getContext()))
          .empty())
    return "a zero scale cannot run as batch-norm's add-then-multiply";
  return target.checkOfflineSdp();
}

void tosa_to_dla::populateSdpPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                      const OffloadTarget &target) {
  patterns.add<ClampToSdp, AddToSdp, MulToSdp>(patterns.getContext(), target);
  rules.add<tosa::ClampOp>(whyNotClamp);
  rules.add<tosa::AddOp>(whyNotAdd);
  rules.add<tosa::MulOp>(whyNotMul);
}

void tosa_to_dla::populateSdpFusionPatterns(RewritePatternSet &patterns,
                                            const OffloadTarget &target) {
  patterns.add<SdpOnTheFly>(patterns.getContext(), target);
  patterns.add<MergeSdpStages>(patterns.getContext());
}
