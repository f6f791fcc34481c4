//===- NvdlaAttrs.cpp - NVDLA memory-format encodings ---------------------===//
//
// Each encoding checks that the tensor's element type is one its precision
// allows, then hands the rest (rank, shape, strides, alignment, overflow) to
// the format library's bind, whose messages become diagnostics.
//
//===----------------------------------------------------------------------===//

#include "BindUtils.h"
#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaFeature.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::detail;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Auxiliary data: f16 for fp16; i8 or i16 for the integer precisions (an
/// int16 pipeline may read one-byte data, int8 data may be stored in two
/// bytes). The format library rejects widths its data size cannot hold.
LogicalResult checkAuxElement(Attribute attr, nv::Precision p, Type e,
                              function_ref<InFlightDiagnostic()> emitError) {
  bool ok = p == nv::Precision::Fp16 ? e.isF16()
                                     : e.isSignlessInteger(8) || e.isSignlessInteger(16);
  if (ok)
    return success();
  return emitError() << attr << " holds " << formatEnumName(p) << " data in "
                     << (p == nv::Precision::Fp16 ? "f16" : "i8 or i16")
                     << " elements, got " << e;
}


nv::DataSize naturalDataSize(nv::Precision p) {
  return nv::getBytesPerElement(p) == 1 ? nv::DataSize::OneByte : nv::DataSize::TwoByte;
}

FailureOr<BoundPtr> bindAux(Attribute attr, const nv::AuxConfig &config, ArrayRef<int64_t> shape,
                            Type elementType, function_ref<InFlightDiagnostic()> emitError) {
  if (failed(checkAuxElement(attr, config.precision, elementType, emitError)))
    return failure();
  return finishBind(attr, shape, elementType, emitError,
                    nv::AuxBoundLayout::bind(
                        config, shape.vec(),
                        ::dlaformat::getStorageBytesOfBits(elementType.getIntOrFloatBitWidth())));
}

nv::AuxConfig auxConfig(nv::AuxKind kind, nv::AuxMode mode, nv::Precision precision,
                        std::optional<nv::DataSize> dataSize, nv::HardwareKind hardware) {
  nv::AuxConfig c;
  c.hardware = hardware;
  c.kind = kind;
  c.mode = mode;
  c.precision = precision;
  c.dataSize = dataSize.value_or(naturalDataSize(precision));
  return c;
}

} // namespace

//===----------------------------------------------------------------------===//
// #dla.feature
//===----------------------------------------------------------------------===//

FailureOr<BoundPtr> FeatureAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                                      function_ref<InFlightDiagnostic()> emitError) const {
  Type expected = getPrecisionType(getContext(), getPrecision());
  if (elementType != expected)
    return emitError() << *this << " holds " << formatEnumName(getPrecision()) << " data in "
                       << expected << " elements, got " << elementType;
  nv::FeatureConfig config;
  config.precision = getPrecision();
  config.lineStride = getLineStride();
  config.surfaceStride = getSurfaceStride();
  config.batchStride = getBatchStride();
  config.hardware = getConfig();
  return finishBind(*this, shape, elementType, emitError,
                    nv::FeatureBoundLayout::bind(config, shape.vec()));
}

int64_t FeatureAttr::getBatchInputs(ArrayRef<int64_t> shape) const {
  return shape.empty() ? 1 : shape.front(); // NCHW
}

//===----------------------------------------------------------------------===//
// #dla.pixel
//===----------------------------------------------------------------------===//

FailureOr<BoundPtr> PixelAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                                    function_ref<InFlightDiagnostic()> emitError) const {
  const nv::PixelFormatInfo &info = nv::getPixelFormatInfo(getFormat());
  if (info.valueType == nv::PixelValueType::Float) {
    if (!elementType.isF16())
      return emitError() << *this << " holds fp16 pixels in f16 elements, got " << elementType;
  } else {
    int64_t bits = 8 * nv::getPixelElementBytes(getFormat());
    if (!elementType.isInteger(static_cast<unsigned>(bits)))
      return emitError() << *this << " holds " << bits << "-bit integer pixels, got element type "
                         << elementType;
  }
  nv::PixelConfig config;
  config.format = getFormat();
  config.xOffset = getXOffset().value_or(0);
  config.lineStride = getLineStride();
  config.uvLineStride = getUvLineStride();
  config.uvPlaneOffset = getUvOffset();
  config.hardware = getConfig();
  return finishBind(*this, shape, elementType, emitError,
                    nv::PixelBoundLayout::bind(config, shape.vec()));
}


//===----------------------------------------------------------------------===//
// #dla.bias, #dla.prelu, #dla.batchnorm, #dla.eltwise
//===----------------------------------------------------------------------===//

FailureOr<BoundPtr> BiasAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                                   function_ref<InFlightDiagnostic()> emitError) const {
  nv::AuxConfig c = auxConfig(nv::AuxKind::Bias, getMode(), getPrecision(), getDataSize(), getConfig());
  c.lineStride = getLineStride();
  c.surfaceStride = getSurfaceStride();
  c.batchStride = getBatchStride();
  return bindAux(*this, c, shape, elementType, emitError);
}

int64_t BiasAttr::getBatchInputs(ArrayRef<int64_t> shape) const {
  return nv::getAuxBatchInputs(
      auxConfig(nv::AuxKind::Bias, getMode(), getPrecision(), getDataSize(), getConfig()),
      shape.vec());
}


FailureOr<BoundPtr> PReLUAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                                    function_ref<InFlightDiagnostic()> emitError) const {
  return bindAux(*this,
                 auxConfig(nv::AuxKind::PReLU, nv::AuxMode::PerChannel, getPrecision(),
                           getDataSize(), getConfig()),
                 shape, elementType, emitError);
}


FailureOr<BoundPtr> BatchNormAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                                        function_ref<InFlightDiagnostic()> emitError) const {
  return bindAux(*this,
                 auxConfig(nv::AuxKind::BatchNorm, getMode(), getPrecision(), getDataSize(),
                           getConfig()),
                 shape, elementType, emitError);
}


LogicalResult EltwiseAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  nv::Precision, std::optional<int64_t> components,
                                  std::optional<nv::DataSize>, std::optional<int64_t>,
                                  std::optional<int64_t>, std::optional<int64_t>,
                                  nv::HardwareKind) {
  if (components && *components != 1 && *components != 2)
    return emitError() << "element-wise data has 1 component (ALU or MUL) or 2 (ALU and MUL), got "
                       << *components;
  return success();
}

/// The format library's description of `attr`, strides aside.
static nv::AuxConfig eltwiseConfig(EltwiseAttr attr) {
  nv::AuxConfig c = auxConfig(nv::AuxKind::ElementWise, nv::AuxMode::PerElement,
                              attr.getPrecision(), attr.getDataSize(), attr.getConfig());
  c.use = attr.getComponents().value_or(1) == 2 ? nv::ElementWiseUse::AluAndMul
                                                : nv::ElementWiseUse::Alu;
  return c;
}

int64_t EltwiseAttr::getBatchInputs(ArrayRef<int64_t> shape) const {
  return nv::getAuxBatchInputs(eltwiseConfig(*this), shape.vec());
}

FailureOr<BoundPtr> EltwiseAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                                      function_ref<InFlightDiagnostic()> emitError) const {
  nv::AuxConfig c = eltwiseConfig(*this);
  c.lineStride = getLineStride();
  c.surfaceStride = getSurfaceStride();
  c.batchStride = getBatchStride();
  return bindAux(*this, c, shape, elementType, emitError);
}

