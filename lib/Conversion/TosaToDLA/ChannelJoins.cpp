//===- ChannelJoins.cpp - tosa.concat along channels -> dla.channel_concat ===//
//
// A concatenation along channels of feature data runs without a host op:
// its parts are views of the joined surface, written in place by their
// producers (ViewOps.cpp; layout assignment copies in a part no layer
// writes). In the NCHW frame the importer keeps between layers (axis 1) or
// in TOSA's NHWC (axis 3, every part a transpose from NCHW).
//
// Every part but the last must end on a channel atom (the format's, 8 int8
// channels on nv_small, 16 fp16 / 32 int8 on nv_full). Otherwise (the
// segmentation network's 1 + 1 + 1 + 1 side outputs) the join is padded:
// each part starts on a whole atom, the gaps hold what the parts' writers
// put in their atoms' padding, and every reader, a convolution, gets zero
// weights at the gap channels (docs/ChannelSplits.md): exact in int8, and
// in fp16 while the padding is finite. A padded join with another reader
// stays on the host, with the reason as a remark.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaPrecision.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cstring>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// How a channel concatenation runs as a view: its NCHW parts, each
/// part's first channel in the joined tensor and the joined channels; the
/// convolutions that read a padded join.
struct JoinPlan {
  bool nhwc = false;
  SmallVector<Value> parts;
  SmallVector<int64_t> firsts;
  int64_t channels = 0;
  bool padded = false;
  SmallVector<ConvOp> readers;
};

bool onAccelerator(Value v) {
  return isa_and_nonnull<LayerOpInterface, ChannelViewOpInterface>(v.getDefiningOp());
}

/// The weight bytes of a convolution `conv` reads as a constant (f16
/// written as f32 under an arith.truncf, which is kept), or empty.
std::vector<char> weightBytes(ConvOp conv, Type &stored) {
  Value w = conv.getWeight();
  if (auto trunc = w.getDefiningOp<arith::TruncFOp>())
    w = trunc.getIn();
  stored = getElementTypeOrSelf(w.getType());
  return readConstantBytes(w);
}

/// Whether `user` is a direct convolution reading the join as its input
/// alone, with constant weights; else why not.
std::string whyNotPaddedReader(Operation *user, Value joined) {
  auto conv = dyn_cast<ConvOp>(user);
  Type stored;
  if (conv && conv.getMode() == nv::ConvMode::Direct && conv.getInput() == joined &&
      conv.getWeight() != joined && conv.getBias() != joined && !weightBytes(conv, stored).empty())
    return "";
  return "'" + user->getName().getStringRef().str() +
         "' reads it, not as the input of a direct convolution with constant weights";
}

/// The plan of `op`, or failure with `why` (empty when `op` is no channel
/// concatenation of feature data worth running on the accelerator: a
/// join of host values for host readers is data movement on the host).
FailureOr<JoinPlan> planJoin(tosa::ConcatOp op, const OffloadTarget &target, std::string &why) {
  why.clear();
  auto outType = dyn_cast<RankedTensorType>(op.getType());
  if (!outType || outType.getRank() != 4 || (op.getAxis() != 1 && op.getAxis() != 3))
    return failure();
  JoinPlan plan;
  plan.nhwc = op.getAxis() == 3;
  for (Value input : op.getInput1()) {
    Value part = input;
    if (plan.nhwc) {
      auto transpose = input.getDefiningOp<tosa::TransposeOp>();
      if (!transpose || transpose.getPerms() != ArrayRef<int32_t>(kToNhwc))
        return failure(); // an NHWC join of NHWC host values
      part = transpose.getInput1();
    }
    plan.parts.push_back(part);
  }
  const bool layerRead = llvm::any_of(op->getUsers(), [](Operation *user) {
    return isa<LayerOpInterface>(user);
  });
  if (!layerRead && !llvm::any_of(plan.parts, onAccelerator))
    return failure();
  // Not feature data of the target: the join is in another type there
  // (an f32 network's casts sit around its layers), data movement.
  if (!outType.hasStaticShape() ||
      outType.getElementType() != target.getElementType(op.getContext()))
    return failure();
  // The atom: the format library's (NvdlaPrecision.h), as the views'.
  const int64_t atom =
      nv::getChannelsPerAtom(target.precision, target.config.caps.memoryAtomBytes);
  for (auto [i, part] : llvm::enumerate(plan.parts)) {
    const int64_t c = cast<RankedTensorType>(part.getType()).getDimSize(1);
    plan.firsts.push_back(plan.channels);
    const bool last = i + 1 == plan.parts.size();
    if (!last && c % atom != 0) {
      plan.padded = true;
      plan.channels += (c + atom - 1) / atom * atom;
    } else {
      plan.channels += c;
    }
  }
  if (!plan.padded)
    return plan;
  // The readers of a padded join see the gaps: convolutions, whose
  // weights there become zero.
  std::string head = "a join along channels whose parts but the last do not all end on a "
                     "channel atom of " +
                     std::to_string(atom) +
                     " channels runs on the accelerator only padded, into convolutions (zero "
                     "weights at the padding): ";
  if (plan.nhwc) {
    why = head + "it joins NHWC tensors";
    return failure();
  }
  for (Operation *user : op->getUsers()) {
    if (std::string w = whyNotPaddedReader(user, op.getResult()); !w.empty()) {
      why = head + w;
      return failure();
    }
    plan.readers.push_back(cast<ConvOp>(user));
  }
  return plan;
}

/// KCRS weights of `conv` widened to the padded join's channels: input
/// channel j of part k at firsts[k] + j, zero elsewhere.
Value widenWeight(OpBuilder &b, ConvOp conv, const JoinPlan &plan) {
  Type stored;
  std::vector<char> bytes = weightBytes(conv, stored);
  auto wType = cast<RankedTensorType>(conv.getWeight().getType());
  ArrayRef<int64_t> kcrs = wType.getShape();
  const int64_t eb = byteWidth(stored), rs = kcrs[2] * kcrs[3];
  std::vector<char> wide(static_cast<size_t>(kcrs[0] * plan.channels * rs * eb), 0);
  for (int64_t k = 0; k < kcrs[0]; ++k) {
    int64_t c = 0;
    for (auto [part, first] : llvm::zip_equal(plan.parts, plan.firsts))
      for (int64_t j = 0; j < cast<RankedTensorType>(part.getType()).getDimSize(1); ++j, ++c)
        std::memcpy(&wide[((k * plan.channels + first + j) * rs) * eb],
                    &bytes[((k * kcrs[1] + c) * rs) * eb], static_cast<size_t>(rs * eb));
  }
  auto wideType = RankedTensorType::get({kcrs[0], plan.channels, kcrs[2], kcrs[3]}, stored);
  return makeConstant(b, conv.getLoc(), wideType, wide, wType.getElementType(),
                      "dla_conv_weight");
}

struct ChannelJoin : OpRewritePattern<tosa::ConcatOp> {
  ChannelJoin(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::ConcatOp op, PatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<JoinPlan> plan = planJoin(op, target, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why.empty() ? "no join of feature data" : why);
    auto outType = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    SmallVector<int64_t> shape = plan->nhwc ? toNchwShape(outType.getShape())
                                            : SmallVector<int64_t>(outType.getShape());
    shape[1] = plan->channels;
    auto joined = ChannelConcatOp::create(rewriter, loc, outType.clone(shape), plan->parts);
    if (!plan->padded) {
      rewriter.replaceOp(op, plan->nhwc ? toTosaResult(rewriter, loc, joined, outType)
                                        : Value(joined));
      return success();
    }
    joined.setOffsets(ArrayRef<int64_t>(plan->firsts));
    for (ConvOp conv : plan->readers) {
      Value wide = widenWeight(rewriter, conv, *plan);
      rewriter.modifyOpInPlace(conv, [&] {
        conv.getInputMutable().assign(joined);
        conv.getWeightMutable().assign(wide);
      });
    }
    rewriter.eraseOp(op);
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::optional<std::string> tosa_to_dla::whyNotChannelJoin(tosa::ConcatOp op,
                                                          const OffloadTarget &target) {
  std::string why;
  if (succeeded(planJoin(op, target, why)) || why.empty())
    return std::nullopt;
  return why;
}

void tosa_to_dla::populateChannelJoinPatterns(RewritePatternSet &patterns,
                                              const OffloadTarget &target) {
  patterns.add<ChannelJoin>(patterns.getContext(), target);
}
