//===- ActivationProducts.cpp - a matmul of two activations -> as_weights -===//
//
// Attention's q k^T and p v multiply two run-time tensors (issue 45,
// docs/WholeNetworks.md "From ONNX"); NVDLA multiplies a feature map by
// weights only, but a layer's result can be read as the weights of a 1x1
// convolution (dla.as_weights: a map [1, K, P / 8, 8] is, byte for byte on
// nv_small, the direct weight stream of P kernels of K channels). So the
// integer rescale(tosa.matmul(A [n, M, K], B [n, K, P])) becomes, per batch
// slice i, a dla.conv of A_i as the map [1, K, 1, M] (its M rows are
// pixels, as the importer's token maps) by dla.as_weights(B_i as the map
// [1, K, P / 8, 8]), its SDP the rescale; the result [1, P, 1, M] is the
// product's slice [M, P] transposed, the pixels of the next token map.
//
// Only zero points 0 on both operands: NVDLA reads weights raw (no weight
// offset), and a's offset would need the run-time kernels' sums in the
// bias. Whether B can be a weight stream (K a multiple of the channel
// atom, P of 8, the precision) is the format library's answer
// (getWeightStreamFeature), not repeated here.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "QuantizedSdp.h"
#include "TosaReshape.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaWeightStream.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The SDP's part of rescale(A [n, M, K] x B [n, K, P]): the rescale over
/// the P output channels of the 1x1 convolution, no bias.
QuantConv productRescale(const Rescale &rescale, int64_t k, int64_t p) {
  QuantConv q;
  q.shape = {p, k, 1, 1};
  q.bias.assign(static_cast<size_t>(p), 0);
  q.factors = rescale.factors;
  if (q.factors.size() == 1)
    q.factors.assign(static_cast<size_t>(p), q.factors.front());
  q.outputZp = rescale.outputZp;
  return q;
}

/// Batch slice i of rank-3 `v` as [1, d1, d2].
Value batchSlice(PatternRewriter &rewriter, Location loc, Value v, int64_t i) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getDimSize(0) == 1)
    return v;
  SmallVector<int64_t> size = {1, type.getDimSize(1), type.getDimSize(2)};
  return tosa::SliceOp::create(rewriter, loc, type.clone(size), v,
                               tosa::getTosaConstShape(rewriter, loc, {i, 0, 0}),
                               tosa::getTosaConstShape(rewriter, loc, size));
}

struct QuantizedActivationProduct : OpRewritePattern<tosa::RescaleOp> {
  QuantizedActivationProduct(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context, /*benefit=*/2), target(target) {}

  LogicalResult matchAndRewrite(tosa::RescaleOp op, PatternRewriter &rewriter) const override {
    auto mm = op.getInput().getDefiningOp<tosa::MatMulOp>();
    if (!mm || isReadableConstant(mm.getB()))
      return failure();
    if (std::string why = whyNotActivationProduct(mm, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    // whyNotActivationProduct read the rescale and planned its program;
    // read and planned again here, the answers are the same.
    std::string why;
    FailureOr<Rescale> rescale = readRescale(op, why);
    if (failed(rescale))
      return rewriter.notifyMatchFailure(op, why);
    auto a = cast<RankedTensorType>(mm.getA().getType());
    auto b = cast<RankedTensorType>(mm.getB().getType());
    const int64_t n = a.getDimSize(0), m = a.getDimSize(1), k = a.getDimSize(2);
    const int64_t p = b.getDimSize(2);
    QuantConv q = productRescale(*rescale, k, p);
    FailureOr<SdpProgram> program = planProgram(q, why);
    if (failed(program))
      return rewriter.notifyMatchFailure(op, why);
    tosa::ClampOp clamp = reluAtZeroPoint(op, q.outputZp);
    Location loc = mm.getLoc();
    Type i8 = rewriter.getI8Type();
    SmallVector<Value> slices;
    for (int64_t i = 0; i < n; ++i) {
      // A_i [1, M, K] is NHWC [1, 1, M, K]; B_i [1, K, P] is NCHW
      // [1, K, P / 8, 8] as it stands (a reshape: when B is the channels x
      // width view of a one-row map of 8 pixels, none is left).
      Value ai = reshapeTo(rewriter, loc, batchSlice(rewriter, loc, mm.getA(), i), {1, 1, m, k});
      Value source = reshapeTo(rewriter, loc, batchSlice(rewriter, loc, mm.getB(), i),
                               {1, k, p / 8, 8});
      auto wType = RankedTensorType::get(nv::getWeightStreamShape({1, k, p / 8, 8}), i8);
      Value w = AsWeightsOp::create(rewriter, loc, wType, source);
      Value input = toLayerInput(rewriter, loc, ai, i8);
      auto conv = ConvOp::create(rewriter, loc, RankedTensorType::get({1, p, 1, m}, i8),
                                 nv::ConvMode::Direct, input, w);
      Value sdp = emitRescaleSdp(rewriter, loc, SdpMode::OnTheFly, conv, q, *program, 0, p,
                                 bool(clamp));
      // [1, P, 1, M] -> NHWC [1, 1, M, P] -> [1, M, P].
      Value nhwc = toTosaResult(rewriter, loc, sdp, RankedTensorType::get({1, 1, m, p}, i8));
      slices.push_back(reshapeTo(rewriter, loc, nhwc, {1, m, p}));
    }
    Operation *root = clamp ? clamp.getOperation() : op.getOperation();
    auto outType = cast<RankedTensorType>(root->getResult(0).getType());
    Value result = slices.size() == 1
                       ? slices.front()
                       : tosa::ConcatOp::create(rewriter, loc, outType.clone(i8), slices, 0)
                             .getResult();
    rewriter.replaceOp(root, result);
    if (clamp)
      rewriter.eraseOp(op);
    rewriter.eraseOp(mm);
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotActivationProduct(tosa::MatMulOp op, const OffloadTarget &target) {
  auto a = dyn_cast<RankedTensorType>(op.getA().getType());
  auto b = dyn_cast<RankedTensorType>(op.getB().getType());
  if (!a || !b || !a.hasStaticShape() || !b.hasStaticShape())
    return "its shape is not static (fix the input shapes when importing)";
  if (!getElementTypeOrSelf(op.getType()).isInteger(32) || !isTargetInteger(a, target) ||
      !isTargetInteger(b, target))
    return "it multiplies two run-time tensors that are not int8 (a quantized product of two "
           "activations runs as a convolution by the right operand read as weights, "
           "dla.as_weights)";
  if (!op->hasOneUse() || !isa<tosa::RescaleOp>(*op->getUsers().begin()))
    return "its i32 accumulator is not rescaled by a tosa.rescale of its own (the SDP "
           "delivers the target precision, not the accumulator)";
  std::string why;
  FailureOr<Rescale> rescale = readRescale(cast<tosa::RescaleOp>(*op->getUsers().begin()), why);
  if (failed(rescale))
    return why;
  if (rescale->inputZp != 0)
    return "the accumulator's rescale has an input zero point";
  const size_t columns = static_cast<size_t>(b.getDimSize(2));
  if (rescale->factors.size() != 1 && rescale->factors.size() != columns)
    return "its rescale has a multiplier count other than one or one per column";
  FailureOr<int64_t> aZp = op.getAZeroPoint(), bZp = op.getBZeroPoint();
  if (failed(aZp) || failed(bZp))
    return "its zero points are not constants";
  if (*bZp != 0)
    return "its right operand's zero point is " + std::to_string(*bZp) +
           ": NVDLA reads a run-time weight (dla.as_weights) without an offset, so it must be "
           "quantized at zero point 0";
  if (*aZp != 0)
    return "its left operand's zero point is " + std::to_string(*aZp) +
           ": with run-time weights the offset's share (zero point times each kernel's sum) is "
           "not known when compiling, so it must be quantized at zero point 0";
  const int64_t k = b.getDimSize(1), p = b.getDimSize(2);
  if (p % 8 != 0)
    return "its right operand has " + std::to_string(p) +
           " columns: read as weights it is a map of its columns as rows of 8 positions "
           "(dla.as_weights), so they must be a multiple of 8";
  nv::Precision precision = target.precision;
  auto stream = nv::getWeightStreamFeature(target.config.kind, precision, {1, k, p / 8, 8});
  if (!stream)
    return "its right operand [" + std::to_string(k) + ", " + std::to_string(p) +
           "] cannot be read as weights: " + stream.message();
  // The SDP's program here, not in the pattern alone: an empty answer lets
  // QuantizedMatMulToConv (MatMulPatterns.cpp) take the product as a
  // constant one.
  if (failed(planProgram(productRescale(*rescale, k, p), why)))
    return why;
  return target.check(nv::ConversionQuery::convolution(
      nv::ConvMode::Direct, nv::featureInput(target.precision), target.precision));
}

void tosa_to_dla::populateActivationProductPatterns(RewritePatternSet &patterns,
                                                    const OffloadTarget &target) {
  patterns.add<QuantizedActivationProduct>(patterns.getContext(), target);
}
