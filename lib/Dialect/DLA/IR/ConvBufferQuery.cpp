//===- ConvBufferQuery.cpp - A dla.conv as the convolution buffer sees it -===//
//
// One translation of a convolution into the format library's buffer query,
// shared by the pass that splits what does not fit and the layout
// assignment that picks Winograd only where it fits.
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
  return q;
}
