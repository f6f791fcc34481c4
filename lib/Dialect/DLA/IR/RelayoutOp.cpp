//===- RelayoutOp.cpp - dla.relayout -------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/FeatureCopy.h"
// Layer ops defined in ODS (extraClassDefinition) use the shared helpers.
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaHardware.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;

#define GET_OP_CLASSES
#include "dla/Dialect/DLA/IR/DLAOps.cpp.inc"

bool mlir::dla::isF32ToWinograd(RelayoutOp op) {
  RankedTensorType source = op.getSource().getType();
  RankedTensorType result = op.getResult().getType();
  auto weight = dyn_cast_or_null<WeightAttr>(result.getEncoding());
  return weight && weight.getFormat() == ::dlaformat::nvdla::WeightFormat::Winograd &&
         !source.getEncoding() && source.getElementType().isF32() &&
         (result.getElementType().isF16() || !weight.getScale().isZero());
}

LogicalResult RelayoutOp::verify() {
  RankedTensorType source = getSource().getType();
  RankedTensorType result = getResult().getType();
  if (source.getShape() != result.getShape())
    return emitOpError("source and result must have the same shape, got ")
           << source << " and " << result;
  // Winograd fp16 weights (or scaled integer ones) from f32 weights: the
  // stored taps are computed from the f32 values and rounded once (as
  // NVIDIA's compiler does for fp16).
  if (auto weight = dyn_cast_or_null<WeightAttr>(result.getEncoding());
      weight && weight.getFormat() == ::dlaformat::nvdla::WeightFormat::Winograd &&
      source.getElementType().isF32() && !source.getEncoding() &&
      !result.getElementType().isF16() && weight.getScale().isZero())
    return emitOpError("f32 weights relayouted into ")
           << weight << " need a scale (stored taps round(G g G^T / scale), e.g. "
           << "#dla.weight<winograd, " << ::dlaformat::enumName(weight.getPrecision())
           << ", scale = 0.0078125>)";
  if (source.getElementType() != result.getElementType() && !isF32ToWinograd(*this))
    return emitOpError("source and result must have the same element type, got ")
           << source.getElementType() << " and " << result.getElementType();
  if (!isLayoutEncodingOrNone(source.getEncoding()))
    return emitOpError("source encoding ")
           << source.getEncoding() << " is not a DLA layout encoding";
  if (!isLayoutEncodingOrNone(result.getEncoding()))
    return emitOpError("result encoding ")
           << result.getEncoding() << " is not a DLA layout encoding";
  return verifyRelayoutAxes(*this);
}

OpFoldResult RelayoutOp::fold(FoldAdaptor) {
  // Same encoding on both sides: nothing to convert (unless the result
  // lies in another memory: a copy, FeatureCopy.h).
  if (getSource().getType() == getResult().getType() && !(*this)->hasAttr(kMemoryAttrName))
    return getSource();
  return {};
}

namespace {
/// relayout(relayout(x)) -> relayout(x): tensors are values, so the
/// intermediate layout is unobservable. When x already has the final type
/// the fold above then removes the remaining op. Not when the two ends read
/// the axes in different orders (NHWC crouton -> row-major -> NCHW
/// feature): only the row-major step between them is a valid relayout.
struct ComposeRelayouts : OpRewritePattern<RelayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayoutOp op, PatternRewriter &rewriter) const override {
    auto producer = op.getSource().getDefiningOp<RelayoutOp>();
    if (!producer)
      return failure();
    if (producer->hasAttr(kMemoryAttrName))
      return rewriter.notifyMatchFailure(op, "the intermediate lies in a memory of its own");
    if (!canRelayoutAxes(producer.getSource().getType(), op.getType()))
      return rewriter.notifyMatchFailure(op, "the composed relayout would change axis order");
    rewriter.modifyOpInPlace(op, [&] { op.getSourceMutable().assign(producer.getSource()); });
    return success();
  }
};
} // namespace

void RelayoutOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<ComposeRelayouts>(context);
}

//===----------------------------------------------------------------------===//
// WeightConstantOp
//===----------------------------------------------------------------------===//

LogicalResult WeightConstantOp::verify() {
  auto weight = dyn_cast_or_null<WeightAttr>(getResult().getType().getEncoding());
  if (!weight || !weight.getCompressed())
    return emitOpError("result must have a compressed #dla.weight encoding, got ")
           << getResult().getType();
  for (auto [name, attr] : {std::pair<StringRef, ElementsAttr>{"wgs", getWgs()},
                            {"wmb", getWmb()},
                            {"data", getData()}}) {
    auto type = dyn_cast<RankedTensorType>(attr.getShapedType());
    if (!type || type.getRank() != 1 || !type.getElementType().isSignlessInteger(8))
      return emitOpError() << name << " must be a 1-D tensor of i8, got " << attr.getShapedType();
    int64_t dataSize =
        ::dlaformat::nvdla::getAlignment(::dlaformat::nvdla::AlignedData::Weight).dataSize;
    if (type.getDimSize(0) % dataSize != 0)
      return emitOpError() << name << " surface of " << type.getDimSize(0)
                           << " bytes is not a multiple of " << dataSize << " bytes";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// dla.to_storage / dla.from_storage
//===----------------------------------------------------------------------===//

/// Checks that `bytes` is the storage of `encoded`, a static tensor with a
/// dla layout encoding.
static LogicalResult verifyStorage(Operation *op, RankedTensorType encoded,
                                   RankedTensorType bytes) {
  if (!encoded.getEncoding() || !isa<LayoutEncodingAttr>(encoded.getEncoding()))
    return op->emitOpError("needs a tensor with a dla layout encoding, got ") << encoded;
  if (!encoded.hasStaticShape())
    return op->emitOpError("needs a static shape, got ") << encoded;
  if (bytes.isDynamicDim(0))
    return op->emitOpError("needs a static byte count, got ") << bytes;
  // The one buffer of its storage description: a bound layout's bytes, or a
  // Winograd stream (no element has a byte offset, yet the stream is fixed).
  FailureOr<MemRefType> buffer = getStorageBufferType(encoded, [&] { return op->emitOpError(); });
  if (failed(buffer))
    return failure();
  const int64_t want = buffer->getDimSize(0);
  if (bytes.getDimSize(0) != want)
    return op->emitOpError("storage of ")
           << encoded << " is " << want << " bytes, but " << bytes << " holds "
           << bytes.getDimSize(0);
  return success();
}

LogicalResult ToStorageOp::verify() {
  return verifyStorage(*this, getSource().getType(), getStorage().getType());
}

LogicalResult FromStorageOp::verify() {
  return verifyStorage(*this, getResult().getType(), getStorage().getType());
}

bool mlir::dla::isFeatureCopy(RelayoutOp op) {
  auto featureOf = [](Type t) {
    return dyn_cast_or_null<FeatureAttr>(cast<RankedTensorType>(t).getEncoding());
  };
  FeatureAttr from = featureOf(op.getSource().getType()), to = featureOf(op.getType());
  return from && to && from.getPrecision() == to.getPrecision() &&
         from.getConfig() == to.getConfig();
}

bool mlir::dla::isBdmaCopy(Operation *op) {
  auto copy = dyn_cast_or_null<RelayoutOp>(op);
  return copy && isFeatureCopy(copy) &&
         dlaformat::nvdla::getHardwareConfig(cast<FeatureAttr>(
                                                 cast<RankedTensorType>(copy.getType())
                                                     .getEncoding())
                                                 .getConfig())
             .caps.bdma;
}
