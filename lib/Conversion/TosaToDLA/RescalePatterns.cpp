//===- RescalePatterns.cpp - An int8 feature map rescaled offline ---------===//
//
// A tosa.rescale of an int8 feature map to int8 that no layer produces in
// its accumulator (the rescale after a pool, a requantization between two
// layers) as an offline SDP: its input read from memory as x, the input
// zero point subtracted in X1's ALU (the bias of the convolution case,
// -zx), the factor the X1 x X2 int16 multipliers (per tensor or per
// channel), ReLU at the output zero point in X2, the output zero point in
// the output converter: QuantizedSdp.h's program, the same as a
// convolution's. TOSA rounds half up with a 31-bit multiplier, the SDP
// half away from zero with ~28 bits: a value may differ by one.
//
// The per-channel affine map y = zy + f_c (x - zx) + b_c (output units),
// which dla-import-onnx writes for a BatchNormalization, Relu, Clip or
// HardSigmoid between a DequantizeLinear and a QuantizeLinear as
// rescale(add(rescale(x) to i32 at 2^S, b_c 2^S), 2^-S) [+ clamp], is the
// same offline SDP with b_c added by X2's ALU: one rounding where TOSA
// rounds twice (the first at 2^-S of an output step), so within one. A
// negative f_c (a BatchNormalization's negative scale; TOSA's multipliers
// are non-negative) is written as the rescale by |f_c| times a constant
// sign per channel before the add, and becomes X2's negative multiplier.
//
//===----------------------------------------------------------------------===//

#include "QuantizedSdp.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

constexpr const char *kNotAMap = "it is not a static rank-4 feature map in the target precision";

/// Empty when `type` is an input (and output) the offline SDP takes: a
/// static rank-4 feature map in the target's integer precision.
std::string whyNotOfflineMap(Type type, const OffloadTarget &target) {
  auto in = dyn_cast<RankedTensorType>(type);
  if (!in || in.getRank() != 4 || !in.hasStaticShape() || !isTargetInteger(in, target))
    return kNotAMap;
  if (std::string why = target.checkSourceType(in); !why.empty())
    return why;
  return target.checkOfflineSdp();
}

/// The program pieces of `op` as an offline SDP, or why it has none.
FailureOr<QuantConv> analyzeFeatureRescale(tosa::RescaleOp op, const OffloadTarget &target,
                                           std::string &why) {
  for (Type type : {op.getInput().getType(), op.getType()})
    if (std::string w = whyNotOfflineMap(type, target); !w.empty()) {
      why = w == kNotAMap ? "it rescales no accumulator, and is not a static rank-4 feature "
                            "map in the target precision rescaled to it"
                          : w;
      return failure();
    }
  FailureOr<Rescale> r = readRescale(op, why);
  if (failed(r))
    return failure();
  const int64_t channels = cast<RankedTensorType>(op.getType()).getDimSize(3);
  if (r->factors.size() != 1 && static_cast<int64_t>(r->factors.size()) != channels) {
    why = "its rescale has a multiplier count other than one or one per channel";
    return failure();
  }
  QuantConv q;
  q.factors = r->factors;
  if (q.factors.size() == 1)
    q.factors.assign(static_cast<size_t>(channels), q.factors.front());
  q.bias.assign(static_cast<size_t>(channels), -r->inputZp);
  q.inputZp = r->inputZp;
  q.outputZp = r->outputZp;
  return q;
}

/// Per channel of an NHWC map of `channels`: the i32 constant `v` (one
/// value, or one per channel), or nullopt.
std::optional<std::vector<double>> readChannelInts(Value v, int64_t channels) {
  DenseIntElementsAttr attr;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !matchPattern(v, m_Constant(&attr)) || !type.getElementType().isInteger(32))
    return std::nullopt;
  for (int64_t i = 0; i + 1 < type.getRank(); ++i)
    if (type.getDimSize(i) != 1)
      return std::nullopt;
  std::vector<double> out;
  for (const APInt &i : attr.getValues<APInt>())
    out.push_back(double(i.getSExtValue()));
  if (out.size() == 1)
    out.assign(static_cast<size_t>(channels), out.front());
  if (static_cast<int64_t>(out.size()) != channels)
    return std::nullopt;
  return out;
}

/// `v` as mul(rescale, signs) (signs an i32 constant of +-1 per channel,
/// shift 0): the rescale, its signs in `signs`; else v's rescale.
tosa::RescaleOp readSignedRescale(Value v, int64_t channels, std::vector<double> &signs) {
  signs.assign(static_cast<size_t>(channels), 1.0);
  auto mul = v.getDefiningOp<tosa::MulOp>();
  if (!mul)
    return v.getDefiningOp<tosa::RescaleOp>();
  DenseElementsAttr shift;
  if (!mul->hasOneUse() || !matchPattern(mul.getShift(), m_Constant(&shift)) ||
      !llvm::all_of(shift.getValues<APInt>(), [](const APInt &s) { return s.isZero(); }))
    return {};
  for (auto [r, c] : {std::pair(mul.getInput1(), mul.getInput2()),
                      std::pair(mul.getInput2(), mul.getInput1())}) {
    std::optional<std::vector<double>> s = readChannelInts(c, channels);
    if (auto rescale = r.getDefiningOp<tosa::RescaleOp>();
        rescale && s && llvm::all_of(*s, [](double x) { return x == 1.0 || x == -1.0; })) {
      signs = *s;
      return rescale;
    }
  }
  return {};
}

/// rescale(add(rescale(x) [* signs], b), 2^-S), or without the add (no
/// bias) when there are signs: the offline SDP's pieces.
FailureOr<QuantConv> analyzeAffine(tosa::RescaleOp op, const OffloadTarget &target,
                                   std::string &why, Value *x = nullptr) {
  if (std::string w = whyNotOfflineMap(op.getType(), target); !w.empty()) {
    why = w;
    return failure();
  }
  const int64_t channels = cast<RankedTensorType>(op.getType()).getDimSize(3);
  std::vector<double> signs;
  tosa::RescaleOp inner;
  std::optional<std::vector<double>> b;
  if (auto mul = op.getInput().getDefiningOp<tosa::MulOp>()) {
    inner = readSignedRescale(mul, channels, signs);
    b = std::vector<double>(static_cast<size_t>(channels), 0.0);
  } else {
    auto add = op.getInput().getDefiningOp<tosa::AddOp>();
    if (!add || !add->hasOneUse() || !getElementTypeOrSelf(add.getType()).isInteger(32)) {
      why = "its input is not an i32 add read by it alone";
      return failure();
    }
    inner = readSignedRescale(add.getInput1(), channels, signs);
    Value bias = add.getInput2();
    if (!inner) {
      inner = readSignedRescale(add.getInput2(), channels, signs);
      bias = add.getInput1();
    }
    b = readChannelInts(bias, channels);
  }
  if (!inner || !inner->hasOneUse() || inner.getInput().getType() != op.getType()) {
    why = "it does not add a constant to a rescaled feature map of its own shape and type";
    return failure();
  }
  if (!b) {
    why = "what it adds is not an i32 constant per channel";
    return failure();
  }
  FailureOr<Rescale> outer = readRescale(op, why), first = readRescale(inner, why);
  if (failed(outer) || failed(first))
    return failure();
  if (outer->factors.size() != 1 || outer->inputZp != 0 || first->outputZp != 0 ||
      (first->factors.size() != 1 && static_cast<int64_t>(first->factors.size()) != channels)) {
    why = "its rescales are not per channel then per tensor with zero points outside the sum";
    return failure();
  }
  QuantConv q;
  for (int64_t c = 0; c < channels; ++c) {
    q.factors.push_back(signs[c] * first->factors[first->factors.size() == 1 ? 0 : c] *
                        outer->factors[0]);
    q.outBias.push_back((*b)[c] * outer->factors[0]);
  }
  q.bias.assign(static_cast<size_t>(channels), -first->inputZp);
  q.inputZp = first->inputZp;
  if (x)
    *x = inner.getInput();
  q.outputZp = outer->outputZp;
  return q;
}

/// `op` (an int8 map's rescale, or the affine map's last rescale) as an
/// offline SDP over `x`, with the ReLU clamp at its zero point.
void replaceByOfflineSdp(tosa::RescaleOp op, Value x, const QuantConv &q, const SdpProgram &p,
                         const OffloadTarget &target, PatternRewriter &rewriter) {
  tosa::ClampOp clamp = reluAtZeroPoint(op, q.outputZp);
  Location loc = op.getLoc();
  Value nchw = toLayerInput(rewriter, loc, x, target.getElementType(rewriter.getContext()));
  SdpOp sdp = emitRescaleSdp(rewriter, loc, SdpMode::Offline, nchw, q, p, 0,
                             static_cast<int64_t>(q.bias.size()), bool(clamp));
  Operation *root = clamp ? clamp.getOperation() : op.getOperation();
  rewriter.replaceOp(root, toTosaResult(rewriter, loc, sdp,
                                        cast<RankedTensorType>(root->getResult(0).getType())));
  if (clamp)
    rewriter.eraseOp(op);
}

/// An int8 map's rescale, or the affine map, as one offline SDP.
struct RescaleToOfflineSdp : OpRewritePattern<tosa::RescaleOp> {
  RescaleToOfflineSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::RescaleOp op, PatternRewriter &rewriter) const override {
    std::string why;
    Value x = op.getInput();
    FailureOr<QuantConv> q = isa_and_nonnull<tosa::AddOp, tosa::MulOp>(x.getDefiningOp())
                                 ? analyzeAffine(op, target, why, &x)
                                 : analyzeFeatureRescale(op, target, why);
    if (failed(q))
      return rewriter.notifyMatchFailure(op, why);
    FailureOr<SdpProgram> p = planProgram(*q, why);
    if (failed(p))
      return rewriter.notifyMatchFailure(op, why);
    replaceByOfflineSdp(op, x, *q, *p, target, rewriter);
    return success();
  }

  OffloadTarget target;
};

} // namespace

/// The reason of `analyze`'s answer or of its program.
template <typename Analyze>
static std::string whyNotOffline(Analyze analyze) {
  std::string why;
  FailureOr<QuantConv> q = analyze(why);
  if (succeeded(q))
    (void)planProgram(*q, why);
  return why;
}

std::string tosa_to_dla::whyNotFeatureRescale(tosa::RescaleOp op, const OffloadTarget &target) {
  return whyNotOffline([&](std::string &why) { return analyzeFeatureRescale(op, target, why); });
}

std::string tosa_to_dla::whyNotAffineRescale(tosa::RescaleOp op, const OffloadTarget &target) {
  return whyNotOffline([&](std::string &why) { return analyzeAffine(op, target, why); });
}

void tosa_to_dla::populateRescalePatterns(RewritePatternSet &patterns,
                                          const OffloadTarget &target) {
  patterns.add<RescaleToOfflineSdp>(patterns.getContext(), target);
}
