//===- WeightAttr.cpp - #dla.weight: NVDLA convolution weights ------------===//
//
// Syntax: `#dla.weight<FORMAT, PRECISION[, compressed][, channels = N]
//   [, post_extension = 2 | 4 | auto][, stride = N | [sy, sx]]
//   [, config = nv_full | nv_large | nv_small]
//   [, rounding = to_nearest_even | to_nearest_away][, scale = F]>`
// with FORMAT one of direct, image, winograd, deconv. Without `rounding` the
// weights round as NVIDIA's compiler does (fmt::kDefaultWeightRounding, ties
// away from zero); the printer leaves that default out. Every keyword, the
// meaning, every size and every check of a shape come from the format library
// (NvdlaWeight.h and its name tables).
//
//===----------------------------------------------------------------------===//

#include "BindUtils.h"
#include "KeywordParams.h"
#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaWeightPacker.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::detail;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

nv::WeightParams WeightAttr::getParams(ArrayRef<int64_t> shape) const {
  nv::WeightParams p;
  p.format = getFormat();
  p.precision = getPrecision();
  p.hardware = nv::getHardwareConfig(getConfig());
  if (shape.size() == 4)
    p.shape = {shape[0], shape[1], shape[2], shape[3]};
  p.strideX = getStrideX();
  p.strideY = getStrideY();
  p.pixelChannels = getChannels().value_or(0);
  p.postExtension = getPostExtension();
  p.scale = getScale().convertToDouble();
  return p;
}

LogicalResult WeightAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 nv::WeightFormat format, nv::Precision precision,
                                 bool compressed,
                                 std::optional<int64_t> channels,
                                 nv::PostExtension postExtension, int64_t strideY,
                                 int64_t strideX, nv::HardwareKind config,
                                 fmt::Fp16Rounding rounding, APFloat scale) {
  // `channels = 0` would read as "no channels" below.
  if (channels && *channels < 1)
    return emitError() << "channels must be positive, got " << *channels;
  // Every other rule on the parameters is the format library's.
  nv::WeightParams p;
  p.format = format;
  p.precision = precision;
  p.hardware = nv::getHardwareConfig(config);
  p.strideX = strideX;
  p.strideY = strideY;
  p.pixelChannels = channels.value_or(0);
  p.postExtension = postExtension;
  p.scale = scale.convertToDouble();
  if (fmt::Status s = nv::validateWeightOptions(p, rounding); !s)
    return emitError() << s.message();
  // What the configuration's hardware has (the format library's capability
  // table; its layout math itself covers every combination).
  if (std::string why = nv::whyNotPrecision(p.hardware, precision); !why.empty())
    return emitError() << fmt::enumName(precision) << " weights: " << why;
  if (format == nv::WeightFormat::Winograd)
    if (std::string why = nv::whyNotWinograd(p.hardware); !why.empty())
      return emitError() << "Winograd weights: " << why;
  if (compressed)
    if (std::string why = nv::whyNotWeightCompression(p.hardware); !why.empty())
      return emitError() << "compressed weights: " << why;
  return success();
}

Attribute WeightAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  FailureOr<nv::WeightFormat> format = parseFormatEnum<nv::WeightFormat>(parser, "weight format");
  if (failed(format) || parser.parseComma())
    return {};
  FailureOr<nv::Precision> precision = parseFormatEnum<nv::Precision>(parser, "precision");
  if (failed(precision))
    return {};
  bool compressed = false;
  std::optional<int64_t> channels;
  nv::PostExtension post = nv::PostExtension::None;
  int64_t strideY = 1, strideX = 1;
  nv::HardwareKind config = nv::HardwareKind::NvFull;
  fmt::Fp16Rounding rounding = fmt::kDefaultWeightRounding;
  double scale = 0;
  auto parseChannels = [&] { return parseOptionalInt(parser, channels); };
  auto parsePost = [&]() -> ParseResult {
    FailureOr<nv::PostExtension> p =
        parseFormatEnum<nv::PostExtension>(parser, "post_extension", /*allowInteger=*/true);
    if (failed(p))
      return failure();
    post = *p;
    return success();
  };
  auto parseStride = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalLSquare()))
      return failure(parser.parseInteger(strideY) || parser.parseComma() ||
                     parser.parseInteger(strideX) || parser.parseRSquare());
    if (parser.parseInteger(strideY))
      return failure();
    strideX = strideY;
    return success();
  };
  auto parseConfig = [&]() -> ParseResult {
    SMLoc valueLoc = parser.getCurrentLocation();
    std::string name;
    if (parser.parseKeywordOrString(&name))
      return failure();
    fmt::Expected<nv::HardwareConfig> hw = nv::lookupHardwareConfig(name);
    if (!hw)
      return parser.emitError(valueLoc, hw.message());
    config = hw->kind;
    return success();
  };
  auto parseRounding = [&]() -> ParseResult {
    FailureOr<fmt::Fp16Rounding> r = parseFormatEnum<fmt::Fp16Rounding>(parser, "rounding");
    if (failed(r))
      return failure();
    rounding = *r;
    return success();
  };
  auto parseScale = [&]() -> ParseResult {
    SMLoc valueLoc = parser.getCurrentLocation();
    if (parser.parseFloat(scale))
      return failure();
    // 0 means "no scale" inside the attribute: an explicit one must not be.
    if (!(scale > 0) || !std::isfinite(scale))
      return parser.emitError(valueLoc, "scale must be positive and finite, got ") << scale;
    return success();
  };
  if (parseKeywordParams(parser, "#dla.weight",
                         {{"compressed", nullptr, &compressed},
                          {"channels", parseChannels},
                          {"post_extension", parsePost},
                          {"stride", parseStride},
                          {"config", parseConfig},
                          {"rounding", parseRounding},
                          {"scale", parseScale}}))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<WeightAttr>(loc, parser.getContext(), *format, *precision, compressed,
                                       channels, post, strideY, strideX, config, rounding,
                                       APFloat(scale));
}

void WeightAttr::print(AsmPrinter &printer) const {
  printer << "<" << formatEnumName(getFormat()) << ", " << formatEnumName(getPrecision());
  if (getCompressed())
    printer << ", compressed";
  if (getChannels())
    printer << ", channels = " << *getChannels();
  if (getPostExtension() != nv::PostExtension::None)
    printer << ", post_extension = " << formatEnumName(getPostExtension());
  bool unitStride = getStrideX() == 1 && getStrideY() == 1;
  if (getFormat() == nv::WeightFormat::Deconvolution ||
      (!unitStride && getStrideX() != getStrideY()))
    printer << ", stride = [" << getStrideY() << ", " << getStrideX() << "]";
  else if (!unitStride)
    printer << ", stride = " << getStrideY();
  if (getConfig() != nv::HardwareKind::NvFull)
    printer << ", config = " << formatEnumName(getConfig());
  if (getRounding() != fmt::kDefaultWeightRounding)
    printer << ", rounding = " << formatEnumName(getRounding());
  if (!getScale().isZero()) {
    printer << ", scale = ";
    printer.printFloat(getScale());
  }
  printer << ">";
}

namespace {
LogicalResult checkWeightElement(WeightAttr attr, Type elementType,
                                 function_ref<InFlightDiagnostic()> emitError) {
  Type expected = getPrecisionType(attr.getContext(), attr.getPrecision());
  if (elementType == expected)
    return success();
  return emitError() << attr << " holds " << formatEnumName(attr.getPrecision())
                     << " weights in " << expected << " elements, got " << elementType;
}
} // namespace

FailureOr<BoundPtr> WeightAttr::bind(ArrayRef<int64_t> shape, Type elementType,
                                     function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(checkWeightElement(*this, elementType, emitError)))
    return failure();
  if (getCompressed())
    return emitError() << *this << " has data-dependent storage (sparse compression): its "
                       << "elements have no fixed byte offsets";
  if (shape.size() != 4)
    return emitError() << *this << " encodes rank-4 KCRS weights, got rank " << shape.size();
  return finishBind(*this, shape, elementType, emitError,
                    nv::createNvdlaWeightBoundLayout(getParams(shape)));
}

FailureOr<std::unique_ptr<fmt::ConstantPacker>>
WeightAttr::getConstantPacker(ArrayRef<int64_t> shape, Type elementType,
                              function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(checkWeightElement(*this, elementType, emitError)))
    return failure();
  auto packer = nv::makeNvdlaWeightPacker(getParams(shape), getCompressed(), getRounding());
  if (!packer)
    return emitError() << *this << " cannot lay out " << RankedTensorType::get(shape, elementType)
                       << ": " << packer.message();
  return std::move(*packer);
}

LogicalResult WeightAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                                         function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(detail::verifyElementTypePresent(*this, elementType, emitError)))
    return failure();
  if (shape.size() != 4)
    return emitError() << *this << " encodes rank-4 KCRS weights, got rank " << shape.size();
  if (failed(checkWeightElement(*this, elementType, emitError)))
    return failure();
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return success();
  fmt::Expected<nv::NvdlaWeightLayout> layout = nv::NvdlaWeightLayout::create(getParams(shape));
  if (!layout)
    return emitError() << *this << " cannot lay out " << RankedTensorType::get(shape, elementType)
                       << ": " << layout.message();
  return success();
}
