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

std::optional<nv::ConvBufferQuery> mlir::dla::getConvBufferQuery(ConvOp conv,
                                                                 nv::ConvMode mode) {
  auto input = cast<RankedTensorType>(conv.getInput().getType());
  auto weight = cast<RankedTensorType>(conv.getWeight().getType());
  if (!input.hasStaticShape() || !weight.hasStaticShape())
    return std::nullopt;
  std::optional<nv::Precision> precision = getPrecision(weight.getElementType());
  if (!precision)
    return std::nullopt;
  ArrayRef<int64_t> in = input.getShape(), w = weight.getShape();
  ArrayRef<int64_t> pad = conv.getPadding(), stride = conv.getStrides();
  nv::ConvBufferQuery q;
  q.precision = *precision;
  q.channels = in[1];
  q.height = in[2];
  q.width = in[3];
  q.kernels = w[0];
  q.kernelH = w[2];
  q.kernelW = w[3];
  q.strideH = stride[0];
  q.strideW = stride[1];
  q.dilationH = conv.getDilations()[0];
  q.dilationW = conv.getDilations()[1];
  q.padTop = pad[0];
  q.padBottom = pad[1];
  q.padLeft = pad[2];
  q.padRight = pad[3];
  q.pixelChannels = mode == nv::ConvMode::ImageInput ? in[1] : 0;
  q.winograd = mode == nv::ConvMode::Winograd;
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
  ArrayRef<int64_t> s = conv.getStrides(), d = conv.getDilations(), p = conv.getPadding();
  nv::PerfLayer l;
  l.name = "conv";
  l.channels = input.getDimSize(1);
  l.height = input.getDimSize(2);
  l.width = input.getDimSize(3);
  l.kernels = weight.getDimSize(0);
  l.kernelH = weight.getDimSize(2);
  l.kernelW = weight.getDimSize(3);
  l.strideH = s[0];
  l.strideW = s[1];
  l.dilationH = d[0];
  l.dilationW = d[1];
  l.padTop = p[0];
  l.padBottom = p[1];
  l.padLeft = p[2];
  l.padRight = p[3];
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
