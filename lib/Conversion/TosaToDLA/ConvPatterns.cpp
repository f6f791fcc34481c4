//===- ConvPatterns.cpp - tosa.conv2d / depthwise_conv2d -> dla.conv ------===//
//
// A convolution with a constant weight runs on the convolution pipeline in
// direct mode. TOSA weights are OHWI (conv2d) or HWCM (depthwise, M
// kernels per channel); dla.conv takes KCRS, transposed here at compile time.
//
// Depthwise convolutions run as dense convolutions over slices of atomic-C
// channels (the hardware configuration's channel-cube width) with
// block-diagonal weights: the convolution core reads atomic-C channels per
// cube anyway, so a per-channel convolution would use one channel of each
// cube, while a slice of atomic-C channels fills it; the zero weights
// compress away with sparse compression.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <cstring>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Reasons shared by conv2d and depthwise_conv2d.
template <typename OpTy>
std::string whyNotConvolution(OpTy op, const OffloadTarget &target) {
  FailureOr<int64_t> inputZp = op.getInputZeroPoint();
  FailureOr<int64_t> weightZp = op.getWeightZeroPoint();
  if (failed(inputZp) || failed(weightZp))
    return "its zero points are not constants";
  if (getElementTypeOrSelf(op.getInput().getType()).isInteger() &&
      getElementTypeOrSelf(op.getOutput().getType()).isInteger(32)) {
    if (op->hasOneUse() && isa<tosa::RescaleOp>(*op->getUsers().begin()))
      return "an integer convolution offloads with the tosa.rescale of its i32 accumulator "
             "(see that op's remark)";
    return "its i32 accumulator is not rescaled by a tosa.rescale of its own (the SDP "
           "delivers the target precision, not the accumulator)";
  }
  if (*inputZp != 0 || *weightZp != 0)
    return "it is quantized with a non-zero zero point (the convolution pipeline subtracts none)";
  for (Type type : {op.getInput().getType(), op.getOutput().getType()})
    if (std::string why = target.checkSourceType(type); !why.empty())
      return why;
  // fp16 layers beyond DATAIN_CHANNEL are cut by --dla-split-convolutions.
  if (std::string why = whyNotConvRegisters(op, target.precision == nv::Precision::Fp16);
      !why.empty())
    return why;
  if (!isReadableConstant(op.getWeight()))
    return "its weight is not a constant (the convolution pipeline reads packed weights)";
  if (!isReadableConstant(op.getBias()))
    return "its bias is not a constant";
  return target.check(nv::ConversionQuery::convolution(
      nv::ConvMode::Direct, nv::featureInput(target.precision), target.precision));
}

/// The bias of `op` for `kernels` output channels as bytes, or empty when
/// it is all zero (then dla.conv gets none). A one-element bias broadcasts.
std::vector<char> readBias(Value bias, int64_t kernels, int64_t elementBytes) {
  std::vector<char> bytes = readConstantBytes(bias);
  if (llvm::all_of(bytes, [](char c) { return c == 0; }))
    return {};
  if (static_cast<int64_t>(bytes.size()) == elementBytes && kernels > 1) {
    std::vector<char> wide;
    wide.reserve(static_cast<size_t>(kernels * elementBytes));
    for (int64_t k = 0; k < kernels; ++k)
      wide.insert(wide.end(), bytes.begin(), bytes.end());
    return wide;
  }
  return bytes;
}

/// One dla.conv on NCHW `input` with KCRS weight bytes, returning its NCHW
/// result in the target precision.
Value createConv(OpBuilder &b, Location loc, const OffloadTarget &target, Value input,
                 Type sourceElement, ArrayRef<int64_t> kcrs, ArrayRef<char> weight,
                 ArrayRef<char> bias, ArrayRef<int64_t> outNchw, ArrayRef<int64_t> stride,
                 ArrayRef<int64_t> pad, ArrayRef<int64_t> dilation) {
  Type element = target.getElementType(b.getContext());
  Value w = makeConstant(b, loc, RankedTensorType::get(kcrs, sourceElement), weight, element,
                         "dla_conv_weight");
  Value bv;
  if (!bias.empty())
    bv = makeConstant(b, loc, RankedTensorType::get({kcrs[0]}, sourceElement), bias, element,
                      "dla_conv_bias");
  auto conv = ConvOp::create(b, loc, RankedTensorType::get(outNchw, element),
                             nv::ConvMode::Direct, input, w, bv);
  conv.setStrides(stride);
  conv.setPadding(pad);
  conv.setDilations(dilation);
  return conv;
}

struct ConvToDLA : OpRewritePattern<tosa::Conv2DOp> {
  ConvToDLA(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::Conv2DOp op, PatternRewriter &rewriter) const override {
    if (std::string why = whyNotConv(op, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    auto weightType = cast<RankedTensorType>(op.getWeight().getType());
    Type sourceElement = weightType.getElementType();
    ArrayRef<int64_t> ohwi = weightType.getShape();
    SmallVector<int64_t> kcrs = {ohwi[0], ohwi[3], ohwi[1], ohwi[2]};
    std::vector<char> weight = transposeBytes(readConstantBytes(op.getWeight()), ohwi,
                                              byteWidth(sourceElement), {0, 3, 1, 2});
    std::vector<char> bias = readBias(op.getBias(), ohwi[0], byteWidth(op.getBias().getType()));
    if (!bias.empty() && getElementTypeOrSelf(op.getBias().getType()) != sourceElement)
      return rewriter.notifyMatchFailure(op, "bias and weight element types differ");

    Value input = toLayerInput(rewriter, loc, op.getInput(),
                               target.getElementType(rewriter.getContext()));
    Value conv = createConv(rewriter, loc, target, input, sourceElement, kcrs, weight, bias,
                            toNchwShape(outType.getShape()), op.getStride(), op.getPad(),
                            op.getDilation());
    rewriter.replaceOp(op, toTosaResult(rewriter, loc, conv, outType));
    return success();
  }

  OffloadTarget target;
};

struct DepthwiseToDLA : OpRewritePattern<tosa::DepthwiseConv2DOp> {
  DepthwiseToDLA(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (std::string why = whyNotDepthwise(op, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    auto weightType = cast<RankedTensorType>(op.getWeight().getType());
    Type sourceElement = weightType.getElementType();
    if (getElementTypeOrSelf(op.getBias().getType()) != sourceElement)
      return rewriter.notifyMatchFailure(op, "bias and weight element types differ");
    const int64_t eb = byteWidth(sourceElement);
    const int64_t channels = weightType.getDimSize(2), mult = weightType.getDimSize(3);
    std::vector<char> hwcm = readConstantBytes(op.getWeight());
    std::vector<char> bias = readBias(op.getBias(), channels * mult, eb);

    if (channels == 0)
      return rewriter.notifyMatchFailure(op, "no channels");
    Type element = target.getElementType(rewriter.getContext());
    Value input = toLayerInput(rewriter, loc, op.getInput(), element);
    SmallVector<int64_t> outNchw = toNchwShape(outType.getShape());
    Value result = emitDepthwiseSlices(
        rewriter, loc, input, hwcm, weightType.getShape(), eb, target.config.atomicC,
        RankedTensorType::get(outNchw, element),
        [&](Value part, int64_t c0, int64_t n, ArrayRef<int64_t> kcrs, ArrayRef<char> weight) {
          std::vector<char> partBias;
          if (!bias.empty())
            partBias.assign(bias.begin() + c0 * mult * eb, bias.begin() + (c0 + n) * mult * eb);
          SmallVector<int64_t> partOut = {outNchw[0], n * mult, outNchw[2], outNchw[3]};
          return createConv(rewriter, loc, target, part, sourceElement, kcrs, weight, partBias,
                            partOut, op.getStride(), op.getPad(), op.getDilation());
        });
    rewriter.replaceOp(op, toTosaResult(rewriter, loc, result, outType));
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotConv(tosa::Conv2DOp op, const OffloadTarget &target) {
  return whyNotConvolution(op, target);
}

std::string tosa_to_dla::whyNotDepthwise(tosa::DepthwiseConv2DOp op,
                                         const OffloadTarget &target) {
  return whyNotConvolution(op, target);
}

int64_t tosa_to_dla::macsPerOutput(Operation *op, int64_t perOutput) {
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return out && out.hasStaticShape() ? out.getNumElements() * perOutput : 0;
}

namespace {
/// Products per output of an OHWI (conv2d, transpose_conv2d) or HWCM
/// (depthwise) weight.
template <typename OpTy>
int64_t convMacs(OpTy op) {
  auto weight = cast<RankedTensorType>(op.getWeight().getType());
  if (!weight.hasStaticShape())
    return 0;
  ArrayRef<int64_t> k = weight.getShape();
  return macsPerOutput(op, std::is_same_v<OpTy, tosa::DepthwiseConv2DOp>
                               ? k[0] * k[1]
                               : k[1] * k[2] * k[3]);
}

std::string whyNotTransposeConv(tosa::TransposeConv2DOp, const OffloadTarget &) {
  return "dla.conv has no deconvolution mode";
}
} // namespace

void tosa_to_dla::populateConvPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                       const OffloadTarget &target) {
  patterns.add<ConvToDLA, DepthwiseToDLA>(patterns.getContext(), target);
  rules.add<tosa::Conv2DOp>(whyNotConv, convMacs<tosa::Conv2DOp>);
  rules.add<tosa::DepthwiseConv2DOp>(whyNotDepthwise, convMacs<tosa::DepthwiseConv2DOp>);
  // No pattern (yet): --dla-compile decomposes it into a conv2d first.
  rules.add<tosa::TransposeConv2DOp>(whyNotTransposeConv, convMacs<tosa::TransposeConv2DOp>);
}
