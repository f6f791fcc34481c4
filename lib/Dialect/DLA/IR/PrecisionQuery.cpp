//===- PrecisionQuery.cpp - Layer ops as precision-conversion queries ----===//
//
// Each layer op states its question to the format library's tables
// (dla/Format/NvdlaConversion.h); the tables themselves live only there.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

std::optional<nv::Precision> mlir::dla::getPrecision(Type t) {
  if (t.isSignlessInteger(8))
    return nv::Precision::Int8;
  if (t.isSignlessInteger(16))
    return nv::Precision::Int16;
  if (t.isF16())
    return nv::Precision::Fp16;
  return std::nullopt;
}

Type mlir::dla::getPrecisionType(MLIRContext *context, nv::Precision p) {
  switch (p) {
  case nv::Precision::Int8: return IntegerType::get(context, 8);
  case nv::Precision::Int16: return IntegerType::get(context, 16);
  case nv::Precision::Fp16: return Float16Type::get(context);
  }
  llvm_unreachable("unknown precision");
}

InFlightDiagnostic mlir::dla::emitNotAPrecision(Operation *op, StringRef what, Type elementType) {
  return op->emitOpError() << what << " element type " << elementType
                           << " is not an NVDLA precision (i8, i16 or f16)";
}

namespace {
/// Precision of a verified op's value; the verifiers guarantee it exists.
FailureOr<nv::Precision> precisionOf(Operation *op, Value v, StringRef what) {
  Type e = cast<ShapedType>(v.getType()).getElementType();
  if (std::optional<nv::Precision> p = getPrecision(e))
    return *p;
  return emitNotAPrecision(op, what, e);
}

/// The input kind of an image: integer pixels convert to all three
/// precisions, fp16 pixels only to fp16. A `#dla.pixel` encoding decides by
/// the pixel-format table's valid input precision (which its verifier has
/// already matched to the element type); otherwise the element type does.
nv::InputKind imageKind(RankedTensorType image) {
  if (auto pixel = dyn_cast_or_null<PixelAttr>(image.getEncoding()))
    return nv::imageInput(nv::getPixelFormatInfo(pixel.getFormat()).inputPrecision);
  return image.getElementType().isF16() ? nv::InputKind::ImageFp16 : nv::InputKind::ImageInteger;
}

} // namespace

void mlir::dla::recordPipelinePrecision(Operation *op, const nv::ConversionVerdict &verdict) {
  op->setAttr("pipeline_precision",
              PipelinePrecisionAttr::get(op->getContext(), *verdict.pipeline));
}

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

FailureOr<nv::ConversionQuery> ConvOp::getConversionQuery() {
  FailureOr<nv::Precision> out = precisionOf(*this, getOutput(), "output");
  if (failed(out))
    return failure();
  if (getMode() == nv::ConvMode::ImageInput)
    return nv::ConversionQuery::convolution(nv::ConvMode::ImageInput,
                                            imageKind(getInput().getType()),
                                            *out);
  FailureOr<nv::Precision> in = precisionOf(*this, getInput(), "input");
  if (failed(in))
    return failure();
  return nv::ConversionQuery::convolution(getMode(), nv::featureInput(*in), *out);
}

LogicalResult ConvOp::annotatePrecision(const nv::ConversionVerdict &verdict) {
  FailureOr<nv::Precision> weight = precisionOf(*this, getWeight(), "weight");
  if (failed(weight))
    return failure();
  if (*weight != *verdict.weight) {
    FailureOr<nv::ConversionQuery> query = getConversionQuery();
    return emitOpError() << "weight precision "
                         << detail::formatEnumName(*weight) << " does not match the "
                         << "convolution table: " << detail::formatEnumName(query->input)
                         << " -> " << detail::formatEnumName(query->output) << " needs "
                         << detail::formatEnumName(*verdict.weight) << " weights";
  }
  recordPipelinePrecision(*this, verdict);
  setWeightPrecisionAttr(PrecisionAttr::get(getContext(), *verdict.weight));
  return success();
}

//===----------------------------------------------------------------------===//
// SdpOp
//===----------------------------------------------------------------------===//

FailureOr<nv::ConversionQuery> SdpOp::getConversionQuery() {
  FailureOr<nv::Precision> in = precisionOf(*this, getInput(), "input");
  FailureOr<nv::Precision> out = precisionOf(*this, getOutput(), "output");
  if (failed(in) || failed(out))
    return failure();
  if (getMode() == SdpMode::Offline)
    return nv::ConversionQuery::sdpOffline(nv::featureInput(*in), *out);
  auto conv = getInput().getDefiningOp<ConvOp>();
  if (!conv)
    return emitOpError("on_the_fly SDP must take its input directly from a dla.conv");
  // The convolution's configured output precision is the SDP's input.
  return nv::ConversionQuery::sdpOnTheFly(conv.getMode(), *in, *out);
}

Operation *SdpOp::getFusedProducer() {
  return getMode() == SdpMode::OnTheFly ? getInput().getDefiningOp<ConvOp>() : nullptr;
}


//===----------------------------------------------------------------------===//
// PoolOp, LrnOp
//===----------------------------------------------------------------------===//

FailureOr<nv::ConversionQuery>
mlir::dla::getFeatureQuery(Operation *op, Value input, Value output,
                           nv::ConversionQuery (*make)(nv::InputKind, nv::Precision)) {
  FailureOr<nv::Precision> in = precisionOf(op, input, "input");
  FailureOr<nv::Precision> out = precisionOf(op, output, "output");
  if (failed(in) || failed(out))
    return failure();
  return make(nv::featureInput(*in), *out);
}

FailureOr<nv::ConversionQuery> PoolOp::getConversionQuery() {
  return getFeatureQuery(*this, getInput(), getOutput(), nv::ConversionQuery::pooling);
}

FailureOr<nv::ConversionQuery> LrnOp::getConversionQuery() {
  return getFeatureQuery(*this, getInput(), getOutput(), nv::ConversionQuery::lrn);
}
