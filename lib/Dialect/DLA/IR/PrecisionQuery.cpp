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
namespace nv = ::dla::format::nvdla;

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

Precision mlir::dla::toAttrEnum(nv::Precision p) {
  switch (p) {
  case nv::Precision::Int8: return Precision::Int8;
  case nv::Precision::Int16: return Precision::Int16;
  case nv::Precision::Fp16: return Precision::Fp16;
  }
  llvm_unreachable("unknown precision");
}

PipelinePrecision mlir::dla::toAttrEnum(nv::PipelinePrecision p) {
  switch (p) {
  case nv::PipelinePrecision::Int8: return PipelinePrecision::Int8;
  case nv::PipelinePrecision::Int16: return PipelinePrecision::Int16;
  case nv::PipelinePrecision::Fp16: return PipelinePrecision::Fp16;
  case nv::PipelinePrecision::Int32: return PipelinePrecision::Int32;
  case nv::PipelinePrecision::Fp32: return PipelinePrecision::Fp32;
  }
  llvm_unreachable("unknown pipeline precision");
}

nv::ConvMode mlir::dla::toFormatEnum(ConvMode mode) {
  switch (mode) {
  case ConvMode::Direct: return nv::ConvMode::Direct;
  case ConvMode::Winograd: return nv::ConvMode::Winograd;
  case ConvMode::Image: return nv::ConvMode::ImageInput;
  }
  llvm_unreachable("unknown conv mode");
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

void setPipeline(Operation *op, const nv::ConversionVerdict &verdict) {
  op->setAttr("pipeline_precision",
              PipelinePrecisionAttr::get(op->getContext(), toAttrEnum(*verdict.pipeline)));
}
} // namespace

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

FailureOr<nv::ConversionQuery> ConvOp::getConversionQuery() {
  FailureOr<nv::Precision> out = precisionOf(*this, getOutput(), "output");
  if (failed(out))
    return failure();
  if (getMode() == ConvMode::Image)
    return nv::ConversionQuery::convolution(nv::ConvMode::ImageInput,
                                            imageKind(getInput().getType()),
                                            *out);
  FailureOr<nv::Precision> in = precisionOf(*this, getInput(), "input");
  if (failed(in))
    return failure();
  return nv::ConversionQuery::convolution(toFormatEnum(getMode()), nv::featureInput(*in), *out);
}

LogicalResult ConvOp::annotatePrecision(const nv::ConversionVerdict &verdict) {
  FailureOr<nv::Precision> weight = precisionOf(*this, getWeight(), "weight");
  if (failed(weight))
    return failure();
  if (*weight != *verdict.weight) {
    FailureOr<nv::ConversionQuery> query = getConversionQuery();
    return emitOpError() << "weight precision "
                         << nv::getPrecisionName(*weight).data() << " does not match the "
                         << "convolution table: " << nv::getInputKindName(query->input).data()
                         << " -> " << nv::getPrecisionName(query->output).data() << " needs "
                         << nv::getPrecisionName(*verdict.weight).data() << " weights";
  }
  setPipeline(*this, verdict);
  setWeightPrecisionAttr(PrecisionAttr::get(getContext(), toAttrEnum(*verdict.weight)));
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
  return nv::ConversionQuery::sdpOnTheFly(toFormatEnum(conv.getMode()), *in, *out);
}

LogicalResult SdpOp::annotatePrecision(const nv::ConversionVerdict &verdict) {
  setPipeline(*this, verdict);
  return success();
}

//===----------------------------------------------------------------------===//
// PoolOp, LrnOp
//===----------------------------------------------------------------------===//

namespace {
/// The question of a layer that reads feature data and converts nothing by
/// construction (PDP, CDP): its table decides.
FailureOr<nv::ConversionQuery>
featureQuery(Operation *op, Value input, Value output,
             nv::ConversionQuery (*make)(nv::InputKind, nv::Precision)) {
  FailureOr<nv::Precision> in = precisionOf(op, input, "input");
  FailureOr<nv::Precision> out = precisionOf(op, output, "output");
  if (failed(in) || failed(out))
    return failure();
  return make(nv::featureInput(*in), *out);
}
} // namespace

FailureOr<nv::ConversionQuery> PoolOp::getConversionQuery() {
  return featureQuery(*this, getInput(), getOutput(), nv::ConversionQuery::pooling);
}

LogicalResult PoolOp::annotatePrecision(const nv::ConversionVerdict &verdict) {
  setPipeline(*this, verdict);
  return success();
}

FailureOr<nv::ConversionQuery> LrnOp::getConversionQuery() {
  return featureQuery(*this, getInput(), getOutput(), nv::ConversionQuery::lrn);
}

LogicalResult LrnOp::annotatePrecision(const nv::ConversionVerdict &verdict) {
  setPipeline(*this, verdict);
  return success();
}
