//===- FormatEnums.h - Format-library enums as attribute parameters -*- C++ -*-===//
//
// Encodings spell precisions, data sizes, modes and pixel formats with the
// format library's own names, so the dialect parses and prints them through
// the library rather than keeping a second list.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_IR_FORMATENUMS_H
#define DLA_DIALECT_DLA_IR_FORMATENUMS_H

#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaPixel.h"
#include "dla/Format/NvdlaPrecision.h"

#include "mlir/IR/OpImplementation.h"

#include <string>
#include <vector>

namespace mlir::dla::detail {

template <typename T> struct FormatEnumTraits;

template <> struct FormatEnumTraits<::dla::format::nvdla::Precision> {
  static std::optional<::dla::format::nvdla::Precision> parse(std::string_view s) {
    return ::dla::format::nvdla::parsePrecision(s);
  }
  static std::string_view name(::dla::format::nvdla::Precision v) {
    return ::dla::format::nvdla::getPrecisionName(v);
  }
  static std::vector<::dla::format::nvdla::Precision> all() {
    return {::dla::format::nvdla::kAllPrecisions.begin(), ::dla::format::nvdla::kAllPrecisions.end()};
  }
};

template <> struct FormatEnumTraits<::dla::format::nvdla::DataSize> {
  static std::optional<::dla::format::nvdla::DataSize> parse(std::string_view s) {
    return ::dla::format::nvdla::parseDataSize(s);
  }
  static std::string_view name(::dla::format::nvdla::DataSize v) {
    return ::dla::format::nvdla::getDataSizeName(v);
  }
  static std::vector<::dla::format::nvdla::DataSize> all() {
    return {::dla::format::nvdla::kAllDataSizes.begin(), ::dla::format::nvdla::kAllDataSizes.end()};
  }
};

template <> struct FormatEnumTraits<::dla::format::nvdla::AuxMode> {
  static std::optional<::dla::format::nvdla::AuxMode> parse(std::string_view s) {
    return ::dla::format::nvdla::parseAuxMode(s);
  }
  static std::string_view name(::dla::format::nvdla::AuxMode v) {
    return ::dla::format::nvdla::getAuxModeName(v);
  }
  static std::vector<::dla::format::nvdla::AuxMode> all() {
    using ::dla::format::nvdla::AuxMode;
    return {AuxMode::PerLayer, AuxMode::PerChannel, AuxMode::PerElement};
  }
};

template <> struct FormatEnumTraits<::dla::format::nvdla::PixelFormat> {
  static std::optional<::dla::format::nvdla::PixelFormat> parse(std::string_view s) {
    return ::dla::format::nvdla::parsePixelFormat(s);
  }
  static std::string_view name(::dla::format::nvdla::PixelFormat v) {
    return ::dla::format::nvdla::getPixelFormatName(v);
  }
  static std::vector<::dla::format::nvdla::PixelFormat> all() {
    std::vector<::dla::format::nvdla::PixelFormat> v;
    for (const auto &info : ::dla::format::nvdla::pixelFormatTable())
      v.push_back(info.format);
    return v;
  }
};

/// Parses a keyword naming a value of a format-library enum; the error lists
/// every valid name.
template <typename T> FailureOr<T> parseFormatEnum(AsmParser &parser, StringRef what) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (failed(parser.parseOptionalKeywordOrString(&name)))
    return parser.emitError(loc, "expected a ") << what;
  if (std::optional<T> value = FormatEnumTraits<T>::parse(name))
    return *value;
  std::string valid;
  for (T v : FormatEnumTraits<T>::all()) {
    if (!valid.empty())
      valid += ", ";
    valid += FormatEnumTraits<T>::name(v);
  }
  return parser.emitError(loc, "unknown ") << what << " '" << name << "'; expected one of " << valid;
}

template <typename T> StringRef formatEnumName(T value) {
  std::string_view s = FormatEnumTraits<T>::name(value);
  return StringRef(s.data(), s.size());
}

} // namespace mlir::dla::detail

#endif // DLA_DIALECT_DLA_IR_FORMATENUMS_H
