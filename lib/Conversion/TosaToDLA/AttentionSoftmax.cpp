//===- AttentionSoftmax.cpp - an attention core's softmax and p v on NVDLA ===//
//
// The quantized attention core per head, DQ(s) -> Softmax -> Q -> p v, as
// docs/WholeNetworks.md designs it ("The softmax over 40 keys on
// nv_small"): NVDLA has no unit for a softmax over channels, and nv_small
// no lookup table, so the row's max, exp, sum and reciprocal are
// convolutions, a PDP pass and X-stage SDP chains. The importer marks p
// v's per-head products (qdq_attention.py, SOFTMAX_MARK: the scores', v's
// and o's scales) and leaves its float softmax as the host fallback;
// here, per head h with T keys and D dims (q_h, v_h [1, T, D], k_h
// [1, D, T]):
//   1. s^T [1, T, T / 8, 8] (queries as channels, keys as positions): k_h's
//      map by dla.as_weights(q_h's map), the scores' rescale on its SDP
//      (it replaces q k^T);
//   2. m: the PDP's max over the T / 8 x 8 keys;
//   3. d = m - s - 128: an offline SDP over a map of -1s (X1 times m per
//      channel, X2 adds s, the output converter's scale -1, offset -128);
//   4. e^T = exp(-s_s (d + 128)) at 1/127: the exp chain (emitTableProgram);
//   5. e (keys as channels, the queries as one row of T positions): the
//      identity map [1, T, 1, T] by dla.as_weights(e^T), so that e, S, r
//      and o are token maps [1, ., 1, T] like the heads' own;
//   6. S by a convolution of e by D kernels of ones and r = 127^2 / S as
//      the reciprocal chain over its accumulator (emitAccumulatorChain);
//   7. o = (e v) r s_v / (127^2 s_o): e by dla.as_weights(v_h^T), v_h^T the
//      identity map by dla.as_weights(v_h's map); its SDP multiplies by r
//      per element (X1) and the factor (X2), then o's zero point.
// The tables and chains are SoftmaxTables / TablePlans' (DLATablePlans),
// not re-derived. A marked product that does not match keeps the host
// program with a located remark (ConvertTosa.cpp) saying why.
//
//===----------------------------------------------------------------------===//

#include "AttentionSoftmax.h"
#include "QuantizedSdp.h"
#include "SoftmaxTables.h"
#include "TablePrograms.h"
#include "TosaReshape.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaScale.h"
#include "dla/Format/NvdlaWeightStream.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The PDP pools the keys as one T / 8 x 8 window (at most 8 x 8), and the
/// reciprocal's planner grows with the square of the sum's range (T 127
/// levels): more keys keep the softmax on the host.
constexpr int64_t kMaxSoftmaxKeys = 64;

/// What a marked p v matched: its head's operands and the plans.
struct AttentionCore {
  tosa::RescaleOp out;            // p v's rescale (replaced)
  Value q, k, v;                  // q_h, v_h [1, T, D]; k_h [1, D, T]
  int64_t keys = 0, dims = 0, outputZp = 0;
  QuantConv scores;               // q k^T's rescale as s^T's SDP ...
  SdpProgram scoresProgram;       // ... and its program
  TableProgram exp, reciprocal;
  nv::ScaleShift factor;          // s_v / (127^2 s_o)
};

double markScale(DictionaryAttr mark, StringRef name) {
  auto f = mark ? dyn_cast_or_null<FloatAttr>(mark.get(name)) : FloatAttr();
  return f ? f.getValueAsDouble() : 0.0;
}

bool isConstantOp(Operation *op) {
  return op && (isa<tosa::ConstOp, tosa::ConstShapeOp, arith::ConstantOp>(op));
}

/// The int8 scores [1, H, T, T] the softmax program producing `p` reads:
/// the one non-constant value of that type it depends on, through a
/// program holding the softmax's max, exp and sum. Null otherwise.
Value softmaxScores(Value p) {
  auto type = cast<RankedTensorType>(p.getType());
  SetVector<Operation *> seen;
  SmallVector<Value> work = {p};
  Value scores;
  bool max = false, exp = false, sum = false;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    Operation *def = x.getDefiningOp();
    if (!def)
      return Value();
    if (x != p && x.getType() == type) {
      if (scores && scores != x)
        return Value();
      scores = x;
      continue;
    }
    if (isConstantOp(def) || !seen.insert(def))
      continue;
    if (seen.size() > 256)
      return Value();
    max |= isa<tosa::ReduceMaxOp>(def);
    exp |= isa<tosa::ExpOp>(def);
    sum |= isa<tosa::ReduceSumOp>(def);
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  return max && exp && sum ? scores : Value();
}

/// The head index of `slice` along axis 1, or -1.
int64_t headOf(tosa::SliceOp slice) {
  SmallVector<int64_t> start;
  if (!tosa::getConstShapeValues(slice.getStart().getDefiningOp(), start) || start.size() != 4 ||
      start[0] != 0 || start[2] != 0 || start[3] != 0)
    return -1;
  return start[1];
}

std::string why(const Twine &t) { return t.str(); }

/// Why the marked product `pv` is not an attention core this pattern
/// emits; empty (and `core` filled) when it is.
std::string matchCore(tosa::MatMulOp pv, const OffloadTarget &target, AttentionCore &core) {
  auto mark = pv->getAttrOfType<DictionaryAttr>(kAttentionSoftmaxMark);
  const double sScale = markScale(mark, "scores_scale"), vScale = markScale(mark, "v_scale"),
               oScale = markScale(mark, "o_scale");
  if (!(sScale > 0) || !(vScale > 0) || !(oScale > 0))
    return "its mark does not hold positive scores_scale, v_scale and o_scale";
  if (target.precision != nv::Precision::Int8)
    return "the softmax's program is int8 (the target's precision is " +
           std::string(::dlaformat::enumName(target.precision)) + ")";
  if (!pv->hasOneUse() || !isa<tosa::RescaleOp>(*pv->getUsers().begin()))
    return "p v's accumulator is not rescaled by a tosa.rescale of its own";
  core.out = cast<tosa::RescaleOp>(*pv->getUsers().begin());
  std::string reason;
  FailureOr<Rescale> out = readRescale(core.out, reason);
  if (failed(out))
    return reason;
  // (A clamp after it would be the SDP's ReLU: not a form the importer
  // writes after p v.)
  if (llvm::any_of(core.out->getUsers(), [](Operation *u) { return isa<tosa::ClampOp>(u); }))
    return "o is clamped after its rescale";
  core.outputZp = out->outputZp;
  auto pType = dyn_cast<RankedTensorType>(pv.getA().getType());
  auto vType = dyn_cast<RankedTensorType>(pv.getB().getType());
  if (!pType || !vType || !pType.hasStaticShape() || !vType.hasStaticShape() ||
      pType.getDimSize(0) != 1 || vType.getDimSize(0) != 1)
    return "p v is not one head's [1, T, T] by [1, T, D] of static shape";
  core.keys = pType.getDimSize(1);
  core.dims = vType.getDimSize(2);
  const int64_t t = core.keys, d = core.dims;
  if (pType.getDimSize(2) != t || vType.getDimSize(1) != t)
    return "p is not square over the keys";
  if (t % 8 != 0 || t > kMaxSoftmaxKeys)
    return why("it has " + Twine(t) + " keys: the PDP takes a row's max over keys as T / 8 x 8 "
               "positions, so they must be a multiple of 8 and at most " +
               Twine(kMaxSoftmaxKeys));
  if (d % 8 != 0)
    return why("its heads have " + Twine(d) + " dims: they are v^T's positions (D / 8 x 8), so "
               "a multiple of 8");
  // p_h: a reshape of head h's slice of the softmax's int8 result.
  auto reshape = pv.getA().getDefiningOp<tosa::ReshapeOp>();
  auto slice = reshape ? reshape.getInput1().getDefiningOp<tosa::SliceOp>() : tosa::SliceOp();
  const int64_t h = slice ? headOf(slice) : -1;
  if (h < 0)
    return "p is not a head's slice of the softmax's result";
  Value scores = softmaxScores(slice.getInput1());
  auto join = scores ? scores.getDefiningOp<tosa::ReshapeOp>() : tosa::ReshapeOp();
  auto concat = join ? join.getInput1().getDefiningOp<tosa::ConcatOp>() : tosa::ConcatOp();
  if (!concat || concat.getAxis() != 0 || h >= int64_t(concat.getNumOperands()))
    return "p is not the softmax of the heads' scores joined on the batch";
  auto sRescale = concat.getOperand(h).getDefiningOp<tosa::RescaleOp>();
  auto qk = sRescale ? sRescale.getInput().getDefiningOp<tosa::MatMulOp>() : tosa::MatMulOp();
  if (!qk || isReadableConstant(qk.getB()))
    return "head " + std::to_string(h) + "'s scores are not a product q k^T of two activations";
  if (std::string no = whyNotActivationProduct(qk, target); !no.empty())
    return "its q k^T: " + no;
  // Unreachable below, where noted: whyNotActivationProduct(qk) read this
  // rescale, planned its program over the T columns and asked the
  // convolution's conversion (the remarks that are reached:
  // convert-tosa-attention-core-remarks.mlir).
  FailureOr<Rescale> sr = readRescale(sRescale, reason);
  if (failed(sr))
    return reason; // unreachable: read by whyNotActivationProduct
  if (sr->factors.size() != 1)
    return "the scores' rescale is not per tensor";
  // s^T's SDP: the same rescale over its T query channels.
  QuantConv &qs = core.scores;
  qs.shape = {t, d, 1, 1};
  qs.bias.assign(size_t(t), 0);
  qs.factors.assign(size_t(t), sr->factors.front());
  qs.outputZp = sr->outputZp;
  FailureOr<SdpProgram> program = planProgram(qs, reason);
  if (failed(program)) // unreachable: q k^T's own program, per tensor
    return "the scores' rescale: " + reason;
  core.scoresProgram = *program;
  core.q = qk.getA();
  core.k = qk.getB();
  core.v = pv.getB();
  auto qType = cast<RankedTensorType>(core.q.getType());
  if (qType.getDimSize(0) != 1 || qType.getDimSize(1) != t || qType.getDimSize(2) != d)
    return "q k^T's dims differ from v's";
  // Unreachable: whyNotActivationProduct read k, of q's map's shape, as
  // weights, so the target is nv_small (its atoms of 8 channels, atomic-C
  // = atomic-K = 8, the only ones that take a map as weights), where every
  // map [1, C, H, 8] with C a multiple of 8 is one, as T and D are.
  for (auto [name, shape] :
       {std::pair<const char *, std::vector<int64_t>>{"q", {1, d, t / 8, 8}},
        {"e^T", {1, t, t / 8, 8}},
        {"v", {1, d, t / 8, 8}},
        {"v^T", {1, t, d / 8, 8}}})
    if (auto stream = nv::getWeightStreamFeature(target.config.kind, target.precision, shape);
        !stream)
      return std::string(name) + " cannot be read as weights: " + stream.message();
  // Not reached: the exp takes at most 16 segments on 2000 scales from
  // 1e-3 to 1 (1 or 2 outside), the reciprocal over 8 to 64 keys (every
  // count taken) at most 22 (softmax-chain-segments.mlir); the checks stay
  // for the planner's answer.
  LevelTable e = softmaxExpTable(sScale);
  FailureOr<TableProgram> ep = planChain(e.table, e.base, e.tolerance, kSoftmaxMaxSegments);
  if (failed(ep))
    return "the exp at the scores' scale has no chain of " + std::to_string(kSoftmaxMaxSegments) +
           " segments";
  LevelTable r = softmaxReciprocalTable(t);
  FailureOr<TableProgram> rp = planChain(r.table, r.base, r.tolerance, kSoftmaxMaxSegments);
  if (failed(rp))
    return "the reciprocal over " + std::to_string(t) + " keys has no chain of " +
           std::to_string(kSoftmaxMaxSegments) + " segments";
  core.exp = *ep;
  core.reciprocal = *rp;
  const double f = vScale / (double(kSoftmaxTop * kSoftmaxTop) * oScale);
  auto factor = nv::scaleFromFactor(f, nv::ScaleRounding::Nearest);
  if (!factor)
    return "o's factor s_v / (127^2 s_o) has no int16 multiplier: " + factor.message();
  core.factor = *factor;
  // Always empty: whyNotActivationProduct(qk) asked the same.
  return target.check(nv::ConversionQuery::convolution(
      nv::ConvMode::Direct, nv::featureInput(target.precision), target.precision));
}

Value asWeights(OpBuilder &b, Location loc, Value map) {
  auto shape = cast<RankedTensorType>(map.getType()).getShape();
  auto type = RankedTensorType::get(nv::getWeightStreamShape({shape.begin(), shape.end()}),
                                    b.getI8Type());
  return AsWeightsOp::create(b, loc, type, map);
}

/// The constant int8 map [1, C, H, W] with `value(c, h W + w)`.
Value constantMap(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  function_ref<int8_t(int64_t, int64_t)> value) {
  const int64_t positions = shape[2] * shape[3];
  SmallVector<int8_t> data;
  for (int64_t c = 0; c < shape[0] * shape[1]; ++c)
    for (int64_t p = 0; p < positions; ++p)
      data.push_back(value(c, p));
  auto type = RankedTensorType::get(shape, b.getI8Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, ArrayRef(data)));
}

/// [1, T, D] tokens as the map [1, D, T / 8, 8].
Value tokenMap(PatternRewriter &b, Location loc, Value tokens, int64_t t, int64_t d) {
  Value nchw = toLayerInput(b, loc, reshapeTo(b, loc, tokens, {1, 1, t, d}), b.getI8Type());
  return reshapeTo(b, loc, nchw, {1, d, t / 8, 8});
}

struct AttentionSoftmaxPattern : OpRewritePattern<tosa::MatMulOp> {
  AttentionSoftmaxPattern(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::MatMulOp pv, PatternRewriter &rewriter) const override {
    if (!pv->hasAttr(kAttentionSoftmaxMark))
      return failure();
    AttentionCore c;
    if (std::string no = matchCore(pv, target, c); !no.empty())
      return rewriter.notifyMatchFailure(pv, no);
    MLIRContext *ctx = rewriter.getContext();
    Location loc = pv.getLoc();
    Type i8 = rewriter.getI8Type();
    const int64_t t = c.keys, d = c.dims, rows = t / 8;
    auto map = [&](int64_t channels, int64_t h) {
      return RankedTensorType::get({1, channels, h, 8}, i8);
    };
    auto row = [&](int64_t channels) { return RankedTensorType::get({1, channels, 1, t}, i8); };
    rewriter.setInsertionPoint(c.out);
    // 1. s^T: k_h's map by q_h's as weights, the scores' rescale.
    Value kMap = reshapeTo(rewriter, loc, c.k, {1, d, rows, 8});
    Value wq = asWeights(rewriter, loc, tokenMap(rewriter, loc, c.q, t, d));
    auto sConv = ConvOp::create(rewriter, loc, map(t, rows), nv::ConvMode::Direct, kMap, wq);
    Value sT = emitRescaleSdp(rewriter, loc, SdpMode::OnTheFly, sConv, c.scores, c.scoresProgram,
                              0, t, false);
    // 2. The row max; 3. d = m - s - 128.
    Value m = PoolOp::create(rewriter, loc, RankedTensorType::get({1, t, 1, 1}, i8), PoolKind::Max,
                             sT, ArrayRef<int64_t>{rows, 8});
    Value neg = constantMap(rewriter, loc, {1, t, rows, 8}, [](int64_t, int64_t) { return -1; });
    auto dPass = SdpOp::create(rewriter, loc, map(t, rows), SdpMode::Offline, neg);
    dPass.getEltwiseMutable().assign(sT);
    dPass.getPreluMutable().assign(m);
    dPass.setBsAttr(SdpXAttr::get(ctx, std::nullopt, SdpOperand(), 0,
                                  SdpOperand::ofMemory(nv::SdpMemOperand::Prelu), 0, false,
                                  false));
    dPass.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Sum,
                                  SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise), 0,
                                  SdpOperand(), 0, false, false));
    dPass.setOutCvtAttr(CvtAttr::get(ctx, -128, -1, 0));
    // 4. e^T; 5. e with keys as channels.
    Value eT = emitTableProgram(rewriter, loc, dPass, c.exp);
    // The identity's positions are the queries as one row of T: e, the sum,
    // r and o then come out as the token map [1, D, 1, T] the next layer
    // reads, with no reshape of o on the host.
    Value eye = constantMap(rewriter, loc, {1, t, 1, t},
                            [](int64_t ch, int64_t p) { return int8_t(ch == p); });
    Value e = ConvOp::create(rewriter, loc, row(t), nv::ConvMode::Direct, eye,
                             asWeights(rewriter, loc, eT));
    // 6. S broadcast to o's D channels, r = 127^2 / S on the fly.
    auto onesType = RankedTensorType::get({d, t, 1, 1}, i8);
    Value ones = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(onesType, rewriter.getI8IntegerAttr(1)));
    auto sum = ConvOp::create(rewriter, loc, row(d), nv::ConvMode::Direct, e, ones);
    Value r = emitAccumulatorChain(rewriter, sum, c.reciprocal);
    // 7. v_h^T (tokens as channels) as a layer's result, then o.
    Value eyeD = constantMap(rewriter, loc, {1, d, d / 8, 8},
                             [](int64_t ch, int64_t p) { return int8_t(ch == p); });
    Value vT = ConvOp::create(rewriter, loc, map(t, d / 8), nv::ConvMode::Direct, eyeD,
                              asWeights(rewriter, loc, tokenMap(rewriter, loc, c.v, t, d)));
    auto ev = ConvOp::create(rewriter, loc, row(d), nv::ConvMode::Direct, e,
                             asWeights(rewriter, loc, vT));
    auto o = SdpOp::create(rewriter, loc, row(d), SdpMode::OnTheFly, ev);
    o.getEltwiseMutable().assign(r);
    o.setBsAttr(SdpXAttr::get(ctx, std::nullopt, SdpOperand(), 0,
                              SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise), 0, false, false));
    o.setBnAttr(SdpXAttr::get(ctx, std::nullopt, SdpOperand(), 0,
                              SdpOperand::ofRegister(c.factor.scale), c.factor.shift, false,
                              false));
    if (c.outputZp != 0)
      o.setOutCvtAttr(CvtAttr::get(ctx, -c.outputZp, 1, 0));
    // o, the map [1, D, 1, T] -> tokens [1, T, D].
    Value nhwc = toTosaResult(rewriter, loc, o, RankedTensorType::get({1, 1, t, d}, i8));
    rewriter.replaceOp(c.out, reshapeTo(rewriter, loc, nhwc, {1, t, d}));
    rewriter.eraseOp(pv);
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotAttentionSoftmax(tosa::MatMulOp op, const OffloadTarget &target) {
  AttentionCore core;
  return matchCore(op, target, core);
}

void tosa_to_dla::populateAttentionSoftmaxPatterns(RewritePatternSet &patterns,
                                                   const OffloadTarget &target) {
  patterns.add<AttentionSoftmaxPattern>(patterns.getContext(), target);
}
