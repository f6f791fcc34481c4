//===- LayerKinds.cpp - LayerOpInterface of conv, sdp, pool, lrn ----------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

nv::LayerKind ConvOp::getLayerKind() { return nv::LayerKind::Convolution; }

int64_t ConvOp::getMacs() {
  // N OH OW K results, each a sum over C R S of the KCRS weight.
  RankedTensorType out = getOutput().getType(), weight = getWeight().getType();
  if (!out.hasStaticShape() || !weight.hasStaticShape())
    return 0;
  ArrayRef<int64_t> k = weight.getShape();
  return out.getNumElements() * k[1] * k[2] * k[3];
}

LayerOperandRole ConvOp::getOperandRole(unsigned operandNumber) {
  if (operandNumber == getWeightMutable().getOperandNumber())
    return LayerOperandRole::Weight;
  if (getBias() && operandNumber == getBiasMutable()[0].getOperandNumber())
    return LayerOperandRole::ConvBias;
  return getMode() == nv::ConvMode::ImageInput ? LayerOperandRole::Image
                                               : LayerOperandRole::Feature;
}

nv::LayerKind SdpOp::getLayerKind() {
  return getMode() == SdpMode::OnTheFly ? nv::LayerKind::SdpOnTheFly : nv::LayerKind::SdpOffline;
}

int64_t SdpOp::getMacs() { return 0; }

LayerOperandRole SdpOp::getOperandRole(unsigned operandNumber) {
  return operandNumber == getInputMutable().getOperandNumber() ? LayerOperandRole::Feature
                                                               : LayerOperandRole::SdpOperand;
}

nv::LayerKind PoolOp::getLayerKind() { return nv::LayerKind::Pooling; }

int64_t PoolOp::getMacs() { return 0; }

LayerOperandRole PoolOp::getOperandRole(unsigned) { return LayerOperandRole::Feature; }

nv::LayerKind LrnOp::getLayerKind() { return nv::LayerKind::Lrn; }

int64_t LrnOp::getMacs() { return 0; }

LayerOperandRole LrnOp::getOperandRole(unsigned) { return LayerOperandRole::Feature; }
