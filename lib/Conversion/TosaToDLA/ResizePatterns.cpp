//===- ResizePatterns.cpp - tosa.resize -> dla.upsample -------------------===//
//
// A nearest-neighbour resize by integer factors whose coordinates make it a
// pure repeat (output pixel o reads input floor(o / s)) is dla.upsample:
// SDP pass-through passes (docs/Resize.md). A bilinear one with half-pixel
// centres is dla.upsample with a replicated border followed by a depthwise
// convolution without padding (docs/Resize.md "Bilinear"), emitted as a
// tosa.depthwise_conv2d so that the depthwise patterns (float, or
// quantized with the resize's rescale) convert it; a kernel too large for
// the convolution's fields is a box then [1, 1], in int8 with the box's
// mean rounded between them (within one step of the exact result, stated
// in a remark). Every other resize
// stays on the host, and whyNotResize, shared by the pattern and the host
// remark, says what it is and which NVDLA program it would take.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "QuantizedSdp.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Tosa/Utils/QuantUtils.h"

#include <algorithm>
#include <array>

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

/// The taps of the per-axis kernel of a half-pixel bilinear upsampling by
/// `f` (docs/Resize.md "Bilinear"), summing to 2 f: [1, 2, ..., 2, 1] (f + 1
/// taps) for an even f, f twos for an odd one.
SmallVector<int64_t> bilinearTaps(int64_t f) {
  if (f % 2)
    return SmallVector<int64_t>(f, 2);
  SmallVector<int64_t> taps(f + 1, 2);
  taps.front() = taps.back() = 1;
  return taps;
}

/// The border of the nearest upsampling in front of the kernel: floor(f / 2)
/// (taps / 2 either side).
int64_t bilinearBorder(int64_t f) { return f / 2; }

/// Per-axis taps [y, x] of each depthwise convolution after the upsampling:
/// one stage of bilinearTaps, or two when an even factor's f + 1 taps
/// exceed the kernel fields: a box of f ones, then [1, 1] (their
/// convolution is [1, 2, ..., 2, 1]).
SmallVector<std::array<SmallVector<int64_t>, 2>> bilinearStages(const int64_t factors[2]) {
  std::array<SmallVector<int64_t>, 2> first, second;
  bool split = false;
  for (int a = 0; a < 2; ++a) {
    SmallVector<int64_t> taps = bilinearTaps(factors[a]);
    int64_t kernel[2] = {1, 1};
    kernel[a] = static_cast<int64_t>(taps.size());
    if (factors[a] % 2 == 0 &&
        !whyNotConvWindow(kernel, {1, 1}, {0, 0, 0, 0}, {1, 1}).empty()) {
      first[a] = SmallVector<int64_t>(factors[a], 1);
      second[a] = {1, 1};
      split = true;
    } else {
      first[a] = taps;
      second[a] = {1};
    }
  }
  if (!split)
    return {first};
  return {first, second};
}

/// Prime factors of `f`, largest first (1 for f = 1).
SmallVector<int64_t> primeFactors(int64_t f) {
  SmallVector<int64_t> out;
  for (int64_t p = 2; p * p <= f; ++p)
    for (; f % p == 0; f /= p)
      out.push_back(p);
  if (f > 1 || out.empty())
    out.push_back(f);
  std::sort(out.rbegin(), out.rend());
  return out;
}

/// dla.upsample of NCHW `input` by `factors` with `border` (or none), as
/// one layer or, where its fy fx phases take more passes than a chain of
/// its prime factors does, as that chain: nearest upsamplings compose
/// exactly (floor(floor(o / a) / b) = floor(o / ab)), and a border of the
/// last stage reads the same clamped edge. An upsampling by 32 x 32 is
/// then 5 x 4 passes per channel group, not 1,024 (each a firmware
/// operation and a read of the whole input).
Value createUpsample(PatternRewriter &rewriter, Location loc, Value input, Type element,
                     const int64_t factors[2], const int64_t border[2], bool bordered) {
  auto inType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> stagesY = primeFactors(factors[0]), stagesX = primeFactors(factors[1]);
  int64_t chained = 0;
  const size_t n = std::max(stagesY.size(), stagesX.size());
  stagesY.resize(n, 1);
  stagesX.resize(n, 1);
  for (size_t i = 0; i < n; ++i)
    chained += stagesY[i] * stagesX[i];
  // A chain writes its intermediate maps too: only where it saves passes
  // by more than half (by 8 x 8 and more).
  if (2 * chained >= factors[0] * factors[1]) {
    stagesY.assign(1, factors[0]);
    stagesX.assign(1, factors[1]);
  }
  SmallVector<int64_t> shape(inType.getShape());
  Value v = input;
  for (size_t i = 0; i < stagesY.size(); ++i) {
    const bool last = i + 1 == stagesY.size();
    shape[2] *= stagesY[i];
    shape[3] *= stagesX[i];
    if (last && bordered) {
      shape[2] += 2 * border[0];
      shape[3] += 2 * border[1];
    }
    const int64_t stage[2] = {stagesY[i], stagesX[i]};
    v = UpsampleOp::create(rewriter, loc, RankedTensorType::get(shape, element), v,
                           rewriter.getDenseI64ArrayAttr(ArrayRef<int64_t>(stage, 2)),
                           last && bordered
                               ? rewriter.getDenseI64ArrayAttr(ArrayRef<int64_t>(border, 2))
                               : DenseI64ArrayAttr(),
                           PipelinePrecisionAttr());
  }
  return v;
}

/// The sum of a stage's weights (the outer product of its per-axis taps).
int64_t stageUnit(const std::array<SmallVector<int64_t>, 2> &stage) {
  int64_t sums[2] = {0, 0};
  for (int a = 0; a < 2; ++a)
    for (int64_t t : stage[a])
      sums[a] += t;
  return sums[0] * sums[1];
}

/// A tosa.rescale of `input` into `type` by `factors` (one, or one per
/// channel), zero points `inZp` / `outZp`, rounding once as the SDP does.
Value buildRescale(PatternRewriter &rewriter, Location loc, Value input, RankedTensorType type,
                   ArrayRef<double> factors, int64_t inZp, int64_t outZp) {
  SmallVector<int32_t> mult;
  SmallVector<int8_t> shift;
  for (double f : factors) {
    int32_t m = 0, sh = 0;
    tosa::computeMultiplierAndShift(f, m, sh, 32);
    mult.push_back(m);
    shift.push_back(static_cast<int8_t>(sh));
  }
  const int64_t n = static_cast<int64_t>(factors.size());
  auto multType = RankedTensorType::get({n}, rewriter.getI32Type());
  auto shiftType = RankedTensorType::get({n}, rewriter.getI8Type());
  Value m = tosa::ConstOp::create(rewriter, loc, multType,
                                  DenseElementsAttr::get(multType, ArrayRef<int32_t>(mult)));
  Value sh = tosa::ConstOp::create(rewriter, loc, shiftType,
                                   DenseElementsAttr::get(shiftType, ArrayRef<int8_t>(shift)));
  Value iz = *tosa::createZeroPointTensor(rewriter, loc, getElementTypeOrSelf(input.getType()), inZp);
  Value oz = *tosa::createZeroPointTensor(rewriter, loc, type.getElementType(), outZp);
  return tosa::RescaleOp::create(rewriter, loc, type, input, m, sh, iz, oz, /*scale32=*/true,
                                 tosa::RoundingMode::SINGLE_ROUND, /*per_channel=*/n > 1,
                                 /*input_unsigned=*/false, /*output_unsigned=*/false);
}

/// Why a bilinear resize by integer `factors` stays on the host (empty when
/// the upsampling and depthwise convolution compute it).
std::string whyNotBilinear(tosa::ResizeOp op, const OffloadTarget &target,
                           const std::string &what, bool halfPixel, const int64_t factors[2]) {
  if (!halfPixel)
    // Asymmetric: (2f - 1)-tap triangles whose last f - 1 outputs read
    // past the edge; not written.
    return what + " with asymmetric coordinates: its kernel is a triangle whose last rows and "
                  "columns read past the edge, not written (half-pixel centres run as an "
                  "upsampling with a replicated border and a depthwise convolution)";
  const int64_t kernel[2] = {static_cast<int64_t>(bilinearTaps(factors[0]).size()),
                             static_cast<int64_t>(bilinearTaps(factors[1]).size())};
  std::string program = what + " would run as a nearest upsampling with a replicated border "
                               "and a depthwise " +
                        std::to_string(kernel[0]) + "x" + std::to_string(kernel[1]) +
                        " convolution, but ";
  Type in = getElementTypeOrSelf(op.getInput().getType());
  auto stages = bilinearStages(factors);
  for (const auto &stage : stages) {
    const int64_t k[2] = {static_cast<int64_t>(stage[0].size()),
                          static_cast<int64_t>(stage[1].size())};
    if (std::string why = whyNotConvWindow(k, {1, 1}, {0, 0, 0, 0}, {1, 1}); !why.empty())
      return program + why;
  }
  Type out = getElementTypeOrSelf(op.getOutput().getType());
  if (isa<FloatType>(in)) {
    for (Type type : {op.getInput().getType(), op.getOutput().getType()})
      if (std::string why = target.checkSourceType(type); !why.empty())
        return why;
  } else {
    // TOSA's integer bilinear: i8 in, i32 out (the interpolation times
    // the scales' numerators, 4 fy fx), brought back to i8 by a rescale.
    if (std::string why = target.checkSourceType(op.getInput().getType()); !why.empty())
      return why;
    if (!out.isInteger(32) || op.getOutput().use_empty() ||
        !llvm::all_of(op.getOutput().getUsers(), llvm::IsaPred<tosa::RescaleOp>))
      return program + "its integer result is not an i32 read by rescales alone";
    // Two stages: the readers' factors are scaled by the box's sum.
    std::string why;
    if (stages.size() > 1)
      for (Operation *user : op.getOutput().getUsers())
        if (failed(readRescale(cast<tosa::RescaleOp>(user), why)))
          return program + why;
  }
  return target.checkOfflineSdp();
}

/// The integer factors [fy, fx] of `op` and its reason to stay on the host
/// (empty: a nearest repeat dla.upsample computes, or a bilinear one
/// dla.upsample and a depthwise convolution).
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
    return whyNotBilinear(op, target, what, y == Axis::HalfPixel && x == Axis::HalfPixel,
                          factors);
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
    if (op.getMode() == tosa::ResizeMode::BILINEAR) {
      rewriter.replaceOp(op, emitBilinear(op, factors, rewriter));
      return success();
    }
    Location loc = op.getLoc();
    Type element = target.getElementType(rewriter.getContext());
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    Value input = toLayerInput(rewriter, loc, op.getInput(), element);
    const int64_t none[2] = {0, 0};
    Value up = createUpsample(rewriter, loc, input, element, factors, none, /*bordered=*/false);
    rewriter.replaceOp(op, toTosaResult(rewriter, loc, up, outType));
    return success();
  }

  /// dla.upsample with the border, back in NHWC, and the depthwise
  /// convolution (outer product of the per-axis taps: float weights
  /// divided by 4 fy fx, exact dyadic fractions for factors of powers of
  /// two; integer ones for i8, whose sum is TOSA's i32 result exactly), or
  /// two of them (bilinearStages).
  Value emitBilinear(tosa::ResizeOp op, const int64_t factors[2],
                     PatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Type element = target.getElementType(rewriter.getContext());
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    Type source = inType.getElementType();
    const bool integer = !isa<FloatType>(source);
    SmallVector<int64_t> taps[2] = {bilinearTaps(factors[0]), bilinearTaps(factors[1])};
    const int64_t border[2] = {bilinearBorder(factors[0]), bilinearBorder(factors[1])};
    const int64_t n = inType.getDimSize(0), c = inType.getDimSize(3);
    SmallVector<int64_t> upNhwc = {n, inType.getDimSize(1) * factors[0] + 2 * border[0],
                                   inType.getDimSize(2) * factors[1] + 2 * border[1], c};
    Value up = createUpsample(rewriter, loc, toLayerInput(rewriter, loc, op.getInput(), element),
                              element, factors, border, /*bordered=*/true);
    Value result = toTosaResult(rewriter, loc, up, RankedTensorType::get(upNhwc, source));
    // Float weights: the outer product over its sum (a float stage rounds
    // once); i8: the integer taps (one stage), their sum 4 fy fx TOSA's unit.
    auto stages = bilinearStages(factors);
    SmallVector<int64_t> shape = upNhwc;
    for (size_t s = 0; s < stages.size(); ++s) {
      ArrayRef<int64_t> ty = stages[s][0], tx = stages[s][1];
      const int64_t kh = ty.size(), kw = tx.size();
      shape[1] -= kh - 1;
      shape[2] -= kw - 1;
      const bool last = s + 1 == stages.size();
      // An integer box's sum (up to f^2 x 128) leaves the stage as i32.
      auto stageType = last      ? outType
                       : integer ? RankedTensorType::get(shape, rewriter.getI32Type())
                                 : RankedTensorType::get(shape, source);
      // HWCM weights, M = 1: the same kernel for every channel.
      auto weightType = RankedTensorType::get({kh, kw, c, 1}, source);
      auto biasType = RankedTensorType::get({1}, stageType.getElementType());
      DenseElementsAttr weights, bias;
      if (integer) {
        SmallVector<int8_t> w;
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j)
            w.append(c, static_cast<int8_t>(ty[i] * tx[j]));
        weights = DenseElementsAttr::get(weightType, ArrayRef<int8_t>(w));
        bias = DenseElementsAttr::get(biasType, rewriter.getZeroAttr(biasType.getElementType()));
      } else {
        const double unit = static_cast<double>(stageUnit(stages[s]));
        SmallVector<Attribute> w;
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j)
            w.append(c, rewriter.getFloatAttr(source, ty[i] * tx[j] / unit));
        weights = DenseElementsAttr::get(weightType, w);
        bias = DenseElementsAttr::get(biasType,
                                      rewriter.getFloatAttr(stageType.getElementType(), 0));
      }
      Value weight = tosa::ConstOp::create(rewriter, loc, weightType, weights);
      Value biasValue = tosa::ConstOp::create(rewriter, loc, biasType, bias);
      Value inZp = *tosa::createZeroPointTensor(rewriter, loc, source, 0);
      Value wZp = *tosa::createZeroPointTensor(rewriter, loc, source, 0);
      Type accType = integer ? Type(rewriter.getI32Type()) : Type(rewriter.getF32Type());
      result = tosa::DepthwiseConv2DOp::create(rewriter, loc, stageType, result, weight, biasValue,
                                               inZp, wZp, ArrayRef<int64_t>{0, 0, 0, 0},
                                               ArrayRef<int64_t>{1, 1}, ArrayRef<int64_t>{1, 1},
                                               accType);
      if (integer && !last)
        // The box's mean, rounded to int8 at the input's scale (a convex
        // combination: no saturation): half a step of the input at most.
        result = buildRescale(rewriter, loc, result, RankedTensorType::get(shape, source),
                              {1.0 / static_cast<double>(stageUnit(stages[s]))}, 0, 0);
    }
    if (integer && stages.size() > 1)
      scaleReaders(op, result, static_cast<double>(stageUnit(stages.front())), rewriter);
    return result;
  }

  /// The last stage's sum is TOSA's interpolation over the first stage's
  /// unit (its mean was taken): each reading rescale multiplies by it.
  /// The readers then differ from TOSA's exact integer bilinear by the
  /// mean's rounding (at most half an input step, averaged by the last
  /// stage), scaled by their factor, before their own rounding.
  void scaleReaders(tosa::ResizeOp op, Value result, double unit,
                    PatternRewriter &rewriter) const {
    for (Operation *user : llvm::make_early_inc_range(op.getOutput().getUsers())) {
      auto rescale = cast<tosa::RescaleOp>(user);
      std::string why;
      Rescale r = *readRescale(rescale, why); // checked by whyNotBilinear
      for (double &f : r.factors)
        f *= unit;
      rewriter.setInsertionPoint(rescale);
      Value scaled = buildRescale(rewriter, rescale.getLoc(), result,
                                  cast<RankedTensorType>(rescale.getType()), r.factors,
                                  r.inputZp, r.outputZp);
      rewriter.replaceOp(rescale, scaled);
    }
    mlir::emitRemark(op.getLoc())
        << "a bilinear resize by a box then [1, 1], its box's mean rounded to int8 between "
           "them (its sum does not fit an int8 intermediate): within one step of the exact "
           "integer result where the output's scale is the input's";
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
