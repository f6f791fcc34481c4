//===- LayerOpLayouts.cpp - The encodings NVDLA layer ops accept ----------===//
//
// LayoutConstrainedOpInterface for dla.conv, dla.sdp, dla.pool, dla.lrn: on
// an NVDLA target, feature data in and out (NCHW), weights in the format of
// the convolution mode for the target's configuration, pixel data for image
// convolutions (one variant per pixel format the image's shape and element
// type allow, unless the image is already encoded), and the SDP's bias,
// batch-norm, element-wise and PReLU formats (a 1xCx1x1 PReLU operand:
// feature data). On other targets they have no layout.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

Type elementTypeOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

/// `#dla.feature<p>` for a value of a precision's element type, else null
/// (the op verifier reports the element type).
Attribute featureFor(Value v, nv::HardwareKind config) {
  std::optional<nv::Precision> p = getPrecision(elementTypeOf(v));
  if (!p)
    return {};
  return FeatureAttr::get(v.getContext(), *p, std::nullopt, std::nullopt, std::nullopt, config);
}

Attribute biasFor(Value v, nv::HardwareKind config) {
  if (!v)
    return {};
  auto type = cast<RankedTensorType>(v.getType());
  std::optional<nv::Precision> p = getPrecision(type.getElementType());
  if (!p)
    return {};
  nv::AuxMode mode = type.getRank() == 0   ? nv::AuxMode::PerLayer
                     : type.getRank() == 1 ? nv::AuxMode::PerChannel
                                           : nv::AuxMode::PerElement;
  return BiasAttr::get(v.getContext(), mode, *p, std::nullopt, std::nullopt, std::nullopt,
                       std::nullopt, config);
}

/// Every operand slot, null unless set.
LayoutVariant emptyVariant(Operation *op) {
  LayoutVariant v;
  v.operands.assign(op->getNumOperands(), Attribute());
  v.results.assign(op->getNumResults(), Attribute());
  return v;
}

/// The pixel formats an image of `type` may be in: its own encoding, or
/// every format whose shape and element-type rules (the encoding's own
/// verifier, silenced) it meets.
SmallVector<PixelAttr> pixelFormatsFor(RankedTensorType type, nv::HardwareKind config) {
  if (auto pixel = dyn_cast_or_null<PixelAttr>(type.getEncoding()))
    return {pixel};
  SmallVector<PixelAttr> formats;
  for (nv::PixelFormat f : fmt::enumValues<nv::PixelFormat>()) {
    auto attr = PixelAttr::get(type.getContext(), f, std::nullopt, std::nullopt, std::nullopt,
                               std::nullopt, config);
    if (succeeded(attr.verifyEncoding(type.getShape(), type.getElementType(),
                                      [] { return InFlightDiagnostic(); })))
      formats.push_back(attr);
  }
  return formats;
}

StringRef nameOf(Operation *op, unsigned operandNumber,
                 std::initializer_list<std::pair<Value, StringRef>> named) {
  Value v = op->getOperand(operandNumber);
  for (auto [value, name] : named)
    if (value == v)
      return name;
  return "operand";
}

} // namespace

SmallVector<LayoutVariant> ConvOp::getLayoutVariants(const fmt::Target &target) {
  if (target.accelerator != fmt::Accelerator::Nvdla)
    return {};
  std::optional<nv::Precision> weightPrecision = getPrecision(elementTypeOf(getWeight()));
  Attribute output = featureFor(getOutput(), target.config);
  if (!weightPrecision || !output)
    return {};
  MLIRContext *ctx = getContext();
  auto weight = [&](nv::WeightFormat format, std::optional<int64_t> channels, int64_t stride) {
    return WeightAttr::get(ctx, format, *weightPrecision, /*compressed=*/false, channels,
                           nv::PostExtension::None, stride, stride, target.config,
                           fmt::kDefaultWeightRounding, APFloat(0.0));
  };
  LayoutVariant base = emptyVariant(*this);
  base.results[0] = output;
  if (Value bias = getBias())
    base.operands[getBiasMutable()[0].getOperandNumber()] = biasFor(bias, target.config);
  const unsigned in = getInputMutable().getOperandNumber();
  const unsigned w = getWeightMutable().getOperandNumber();
  SmallVector<LayoutVariant> variants;
  switch (getMode()) {
  case nv::ConvMode::Direct:
  case nv::ConvMode::Winograd: {
    base.operands[in] = featureFor(getInput(), target.config);
    bool winograd = getMode() == nv::ConvMode::Winograd;
    base.operands[w] = weight(winograd ? nv::WeightFormat::Winograd : nv::WeightFormat::Direct,
                              std::nullopt, winograd ? getStrides()[0] : 1);
    variants.push_back(base);
    break;
  }
  case nv::ConvMode::ImageInput:
    for (PixelAttr pixel : pixelFormatsFor(getInput().getType(), target.config)) {
      LayoutVariant v = base;
      v.operands[in] = pixel;
      v.operands[w] = weight(nv::WeightFormat::Image,
                             nv::getPixelFormatInfo(pixel.getFormat()).numChannels, 1);
      variants.push_back(v);
    }
    break;
  }
  return variants;
}

StringRef ConvOp::getLayoutOperandName(unsigned operandNumber) {
  return nameOf(*this, operandNumber,
                {{getInput(), "input"}, {getWeight(), "weight"}, {getBias(), "bias"}});
}

SmallVector<LayoutVariant> SdpOp::getLayoutVariants(const fmt::Target &target) {
  if (target.accelerator != fmt::Accelerator::Nvdla)
    return {};
  MLIRContext *ctx = getContext();
  LayoutVariant v = emptyVariant(*this);
  v.operands[getInputMutable().getOperandNumber()] = featureFor(getInput(), target.config);
  v.results[0] = featureFor(getOutput(), target.config);
  if (Value bias = getBias())
    v.operands[getBiasMutable()[0].getOperandNumber()] = biasFor(bias, target.config);
  if (Value bn = getBatchnorm())
    if (std::optional<nv::Precision> p = getPrecision(elementTypeOf(bn)))
      v.operands[getBatchnormMutable()[0].getOperandNumber()] =
          BatchNormAttr::get(ctx, nv::AuxMode::PerChannel, *p, std::nullopt, target.config);
  if (Value e = getEltwise())
    if (std::optional<nv::Precision> p = getPrecision(elementTypeOf(e)))
      v.operands[getEltwiseMutable()[0].getOperandNumber()] = EltwiseAttr::get(ctx, *p, std::nullopt, std::nullopt, std::nullopt,
                                    std::nullopt, std::nullopt, target.config);
  // A 1xCx1x1 prelu is another layer's result, read in place as feature
  // data (the verifier checks the cube is the per-channel run).
  if (Value pr = getPrelu())
    if (std::optional<nv::Precision> p = getPrecision(elementTypeOf(pr)))
      v.operands[getPreluMutable()[0].getOperandNumber()] =
          cast<RankedTensorType>(pr.getType()).getRank() == 4
              ? featureFor(pr, target.config)
              : Attribute(PReLUAttr::get(ctx, *p, std::nullopt, target.config));
  return {v};
}

StringRef SdpOp::getLayoutOperandName(unsigned operandNumber) {
  return nameOf(*this, operandNumber,
                {{getInput(), "input"},
                 {getBias(), "bias"},
                 {getBatchnorm(), "batchnorm"},
                 {getEltwise(), "eltwise"},
                 {getPrelu(), "prelu"}});
}

SmallVector<LayoutVariant> mlir::dla::getFeatureLayoutVariants(Operation *op,
                                                               const fmt::Target &target) {
  if (target.accelerator != fmt::Accelerator::Nvdla)
    return {};
  LayoutVariant v = emptyVariant(op);
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    v.operands[i] = featureFor(operand, target.config);
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    v.results[i] = featureFor(result, target.config);
  return {v};
}
