//===- ConvBufferQuery.cpp - A dla.conv as the buffer and model see it ----===//
//
// One translation of a convolution into the format library's buffer query
// and performance-model layer, shared by the pass that splits what does not
// fit, the layout assignment that picks Winograd only where it fits and is
// faster, and the register plan.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {
/// The geometry both the buffer query and the model's layer hold (the
/// same field names), from a convolution with static shapes.
template <typename Layer>
void fillGeometry(ConvOp conv, ArrayRef<int64_t> in, ArrayRef<int64_t> w, Layer &l) {
  ArrayRef<int64_t> s = conv.getStrides(), d = conv.getDilations(), p = conv.getPadding();
  l.channels = in[1];
  l.height = in[2];
  l.width = in[3];
  l.kernels = w[0];
  l.kernelH = w[2];
  l.kernelW = w[3];
  l.strideH = s[0];
  l.strideW = s[1];
  l.dilationH = d[0];
  l.dilationW = d[1];
  l.padTop = p[0];
  l.padBottom = p[1];
  l.padLeft = p[2];
  l.padRight = p[3];
}
} // namespace

std::optional<nv::ConvBufferQuery> mlir::dla::getConvBufferQuery(ConvOp conv,
                                                                 nv::ConvMode mode) {
  auto input = cast<RankedTensorType>(conv.getInput().getType());
  auto weight = cast<RankedTensorType>(conv.getWeight().getType());
  if (!input.hasStaticShape() || !weight.hasStaticShape())
    return std::nullopt;
  std::optional<nv::Precision> precision = getPrecision(weight.getElementType());
  if (!precision)
    return std::nullopt;
  nv::ConvBufferQuery q;
  q.precision = *precision;
  fillGeometry(conv, input.getShape(), weight.getShape(), q);
  q.pixelChannels = mode == nv::ConvMode::ImageInput ? input.getDimSize(1) : 0;
  q.winograd = mode == nv::ConvMode::Winograd;
  if (auto encoding = dyn_cast_or_null<WeightAttr>(weight.getEncoding()))
    q.compressedWeights = encoding.getCompressed();
  // The allotment --dla-split-convolutions chose, for the mode it planned.
  if (mode == conv.getMode())
    q.weightBanks = conv.getWeightBanks().value_or(0);
  return q;
}

std::optional<nv::PerfLayer> mlir::dla::getConvPerfLayer(ConvOp conv) {
  auto input = cast<RankedTensorType>(conv.getInput().getType());
  auto weight = conv.getWeight().getType();
  if (!input.hasStaticShape() || !weight.hasStaticShape() || input.getRank() != 4)
    return std::nullopt;
  nv::PerfLayer l;
  l.name = "conv";
  fillGeometry(conv, input.getShape(), weight.getShape(), l);
  l.winograd = conv.getMode() == nv::ConvMode::Winograd;
  l.weightBanks = conv.getWeightBanks().value_or(0);
  return l;
}

nv::Precision mlir::dla::getConvWeightPrecision(ConvOp conv) {
  Type e = conv.getWeight().getType().getElementType();
  if (e.isInteger(8))
    return nv::Precision::Int8;
  if (e.isInteger(16))
    return nv::Precision::Int16;
  return nv::Precision::Fp16;
}
