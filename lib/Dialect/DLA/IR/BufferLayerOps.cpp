//===- BufferLayerOps.cpp - Verifiers of the storage-view layer ops -------===//
//
// dla.buffer.conv / sdp / pool / lrn: each operand's memrefs must be exactly
// the storage the format library describes for its logical type
// (getStorageMemRefTypes), and the logical types must pass the tensor-form
// op's verifier (LayerOpUtils.h).
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

using namespace mlir;
using namespace mlir::dla;

namespace {

/// Checks that `views` are the storage memrefs of the logical type `type`
/// of operand `name`, or that both are absent (null type, no views).
LogicalResult verifyStorageOperand(Operation *op, StringRef name, ValueRange views,
                                   TypeAttr type) {
  if (!type) {
    if (!views.empty())
      return op->emitOpError() << "'" << name << "' has views but no logical type";
    return success();
  }
  auto tensor = cast<RankedTensorType>(type.getValue());
  if (views.empty())
    return op->emitOpError() << "'" << name << "' has a logical type but no views";
  FailureOr<SmallVector<MemRefType>> expected = getStorageMemRefTypes(tensor, [&] {
    return op->emitOpError() << "'" << name << "': ";
  });
  if (failed(expected))
    return failure();
  if (expected->size() != views.size())
    return op->emitOpError() << "'" << name << "' of type " << tensor << " is stored in "
                             << expected->size() << " memref(s), got " << views.size();
  for (auto [i, view, want] : llvm::enumerate(views, *expected))
    if (view.getType() != want)
      return op->emitOpError() << "'" << name << "' memref #" << i << " must be " << want
                               << " (the storage of " << tensor << "), got " << view.getType();
  return success();
}

RankedTensorType typeOf(std::optional<Type> type) {
  return type ? cast<RankedTensorType>(*type) : RankedTensorType();
}

} // namespace

LogicalResult BufferConvOp::verify() {
  if (failed(verifyStorageOperand(*this, "input", getInput(), getInputTypeAttr())) ||
      failed(verifyStorageOperand(*this, "weight", getWeight(), getWeightTypeAttr())) ||
      failed(verifyStorageOperand(*this, "bias", getBias(), getBiasTypeAttr())) ||
      failed(verifyStorageOperand(*this, "output", getOutput(), getOutputTypeAttr())))
    return failure();
  return verifyConvTypes(*this, getMode(), cast<RankedTensorType>(getInputType()),
                         cast<RankedTensorType>(getWeightType()), typeOf(getBiasType()),
                         cast<RankedTensorType>(getOutputType()), getStrides(), getPadding(),
                         getDilations());
}

LogicalResult BufferSdpOp::verify() {
  if (failed(verifyStorageOperand(*this, "input", getInput(), getInputTypeAttr())) ||
      failed(verifyStorageOperand(*this, "bias", getBias(), getBiasTypeAttr())) ||
      failed(verifyStorageOperand(*this, "batchnorm", getBatchnorm(), getBatchnormTypeAttr())) ||
      failed(verifyStorageOperand(*this, "eltwise", getEltwise(), getEltwiseTypeAttr())) ||
      failed(verifyStorageOperand(*this, "prelu", getPrelu(), getPreluTypeAttr())) ||
      failed(verifyStorageOperand(*this, "output", getOutput(), getOutputTypeAttr())))
    return failure();
  return verifySdpTypes(*this, cast<RankedTensorType>(getInputType()), typeOf(getBiasType()),
                        typeOf(getBatchnormType()), typeOf(getEltwiseType()),
                        typeOf(getPreluType()), cast<RankedTensorType>(getOutputType()),
                        getRelu());
}

LogicalResult BufferPoolOp::verify() {
  if (failed(verifyStorageOperand(*this, "input", getInput(), getInputTypeAttr())) ||
      failed(verifyStorageOperand(*this, "output", getOutput(), getOutputTypeAttr())))
    return failure();
  return verifyPoolTypes(*this, cast<RankedTensorType>(getInputType()),
                         cast<RankedTensorType>(getOutputType()), getKernel(), getStrides(),
                         getPadding());
}

LogicalResult BufferLrnOp::verify() {
  if (failed(verifyStorageOperand(*this, "input", getInput(), getInputTypeAttr())) ||
      failed(verifyStorageOperand(*this, "output", getOutput(), getOutputTypeAttr())))
    return failure();
  return verifyLrnTypes(*this, cast<RankedTensorType>(getInputType()),
                        cast<RankedTensorType>(getOutputType()), getSize());
}
