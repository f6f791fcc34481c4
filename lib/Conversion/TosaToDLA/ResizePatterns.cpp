//===- ResizePatterns.cpp - tosa.resize -> dla.upsample -------------------===//
//
// A nearest-neighbour resize by integer factors whose coordinates make it a
// pure repeat (output pixel o reads input floor(o / s)) is dla.upsample:
// SDP pass-through passes (docs/Resize.md). Every other resize stays on the
// host, and whyNotResize, shared by the pattern and the host remark, says
// what it is and which NVDLA program it would take.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {

/// TOSA's coordinates on one axis (scale n / d, offset), for an integer
/// factor s: what output pixel o reads.
enum class Axis { Other, Asymmetric, HalfPixel };

Axis axisOf(bool bilinear, int64_t n, int64_t d, int64_t off, int64_t s) {
  if (n != s * d)
    return Axis::Other; // corner-aligned (or another stretch): not o / s
  // Half-pixel centres: (o + 1/2) / s - 1/2 (for nearest, round(...) =
  // floor(o / s): no ties with an integer s).
  if (2 * off == d - n)
    return Axis::HalfPixel;
  // Asymmetric o / s (for nearest the offset -n / 2 turns TOSA's rounding
  // into a floor).
  return off == (bilinear ? 0 : -(n / 2)) ? Axis::Asymmetric : Axis::Other;
}

/// The integer factors [fy, fx] of `op` and its reason to stay on the host
/// (empty: a nearest repeat dla.upsample computes).
std::string classify(tosa::ResizeOp op, const OffloadTarget &target, int64_t factors[2]) {
  const bool bilinear = op.getMode() == tosa::ResizeMode::BILINEAR;
  std::string what = bilinear ? "a bilinear resize" : "a nearest-neighbour resize";
  auto in = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto out = dyn_cast<RankedTensorType>(op.getOutput().getType());
  SmallVector<int64_t> scale, offset;
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() ||
      !tosa::getConstShapeValues(op.getScale().getDefiningOp(), scale) ||
      !tosa::getConstShapeValues(op.getOffset().getDefiningOp(), offset) || scale.size() != 4 ||
      offset.size() != 2)
    return what + " of run-time or dynamic sizes: no NVDLA layer computes it";
  // NHWC; TOSA reads source coordinate (o * d + offset) / n per axis,
  // scale [y_n, y_d, x_n, x_d].
  const int64_t ih = in.getDimSize(1), iw = in.getDimSize(2);
  const int64_t oh = out.getDimSize(1), ow = out.getDimSize(2);
  if (ih == 0 || iw == 0 || oh % ih || ow % iw || oh < ih || ow < iw)
    return what + " from " + std::to_string(ih) + "x" + std::to_string(iw) + " to " +
           std::to_string(oh) + "x" + std::to_string(ow) +
           ": not an integer upsampling, which no NVDLA layer computes (NVDLA upsamples by "
           "integer factors)";
  factors[0] = oh / ih;
  factors[1] = ow / iw;
  what += " by [" + std::to_string(factors[0]) + ", " + std::to_string(factors[1]) + "]";
  const Axis y = axisOf(bilinear, scale[0], scale[1], offset[0], factors[0]);
  const Axis x = axisOf(bilinear, scale[2], scale[3], offset[1], factors[1]);
  if (y == Axis::Other || x == Axis::Other)
    return what + " with corner-aligned or shifted coordinates (scale [" +
           std::to_string(scale[0]) + "/" + std::to_string(scale[1]) + ", " +
           std::to_string(scale[2]) + "/" + std::to_string(scale[3]) + "]): its weights differ "
           "per output position, no deconvolution kernel computes it";
  if (bilinear)
    // NVIDIA's way: a deconvolution (the factor's weight sets as
    // convolutions, Rubik's contract mode interleaving their outputs).
    return what + " would run as a deconvolution of triangle kernels, exact inside; its " +
           (y == Axis::HalfPixel && x == Axis::HalfPixel ? "border rows and columns"
                                                         : "last rows and columns") +
           " read the edge value where NVDLA pads with a constant, so the input needs its "
           "edges replicated first; " +
           (target.config.caps.rubik
                ? std::string("the deconvolution and Rubik programs are not written yet")
                : std::string(target.config.name) +
                      " has no Rubik (RUBIK_DISABLE) to interleave the sets' outputs");
  // A nearest repeat copies values: the data must be the target's.
  for (Type type : {op.getInput().getType(), op.getOutput().getType()})
    if (std::string why = target.checkSourceType(type); !why.empty())
      return why;
  return target.checkOfflineSdp();
}

struct ResizeToUpsample : OpRewritePattern<tosa::ResizeOp> {
  ResizeToUpsample(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}
  LogicalResult matchAndRewrite(tosa::ResizeOp op, PatternRewriter &rewriter) const override {
    int64_t factors[2];
    if (std::string why = classify(op, target, factors); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    Type element = target.getElementType(rewriter.getContext());
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    Value input = toLayerInput(rewriter, loc, op.getInput(), element);
    Value up = UpsampleOp::create(
        rewriter, loc, RankedTensorType::get(toNchwShape(outType.getShape()), element), input,
        rewriter.getDenseI64ArrayAttr(factors), PipelinePrecisionAttr());
    rewriter.replaceOp(op, toTosaResult(rewriter, loc, up, outType));
    return success();
  }
  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotResize(tosa::ResizeOp op, const OffloadTarget &target) {
  int64_t factors[2];
  return classify(op, target, factors);
}

void tosa_to_dla::populateResizePatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                         const OffloadTarget &target) {
  patterns.add<ResizeToUpsample>(patterns.getContext(), target);
  rules.add<tosa::ResizeOp>(whyNotResize);
}
