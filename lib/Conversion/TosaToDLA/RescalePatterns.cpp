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
//===----------------------------------------------------------------------===//

#include "QuantizedSdp.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The program pieces of `op` as an offline SDP, or why it has none.
FailureOr<QuantConv> analyzeFeatureRescale(tosa::RescaleOp op, const OffloadTarget &target,
                                           std::string &why) {
  auto in = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!in || in.getRank() != 4 || !in.hasStaticShape() || !isTargetInteger(in, target) ||
      !isTargetInteger(op.getType(), target)) {
    why = "it rescales no accumulator, and is not a static rank-4 feature map in the target "
          "precision rescaled to it";
    return failure();
  }
  for (Type type : {op.getInput().getType(), op.getType()})
    if (std::string w = target.checkSourceType(type); !w.empty()) {
      why = w;
      return failure();
    }
  FailureOr<Rescale> r = readRescale(op, why);
  if (failed(r))
    return failure();
  const int64_t channels = in.getDimSize(3);
  if (r->factors.size() != 1 && static_cast<int64_t>(r->factors.size()) != channels) {
    why = "its rescale has a multiplier count other than one or one per channel";
    return failure();
  }
  if (std::string w = target.check(nv::ConversionQuery::sdpOffline(
          nv::featureInput(target.precision), target.precision));
      !w.empty()) {
    why = w;
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

struct FeatureRescaleToSdp : OpRewritePattern<tosa::RescaleOp> {
  FeatureRescaleToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::RescaleOp op, PatternRewriter &rewriter) const override {
    std::string why = whyNotFeatureRescale(op, target);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    QuantConv q = *analyzeFeatureRescale(op, target, why);
    SdpProgram p = *planProgram(q, why);
    tosa::ClampOp clamp = reluAtZeroPoint(op, q.outputZp);
    Location loc = op.getLoc();
    Value x = toLayerInput(rewriter, loc, op.getInput(), target.getElementType(getContext()));
    SdpOp sdp = emitRescaleSdp(rewriter, loc, SdpMode::Offline, x, q, p, 0,
                               static_cast<int64_t>(q.bias.size()), bool(clamp));
    Operation *root = clamp ? clamp.getOperation() : op.getOperation();
    rewriter.replaceOp(root, toTosaResult(rewriter, loc, sdp,
                                          cast<RankedTensorType>(root->getResult(0).getType())));
    if (clamp)
      rewriter.eraseOp(op);
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotFeatureRescale(tosa::RescaleOp op, const OffloadTarget &target) {
  std::string why;
  FailureOr<QuantConv> q = analyzeFeatureRescale(op, target, why);
  if (succeeded(q))
    (void)planProgram(*q, why);
  return why;
}

void tosa_to_dla::populateRescalePatterns(RewritePatternSet &patterns,
                                          const OffloadTarget &target) {
  patterns.add<FeatureRescaleToSdp>(patterns.getContext(), target);
}
