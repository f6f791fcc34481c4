//===- FormatEnums.h - Format-library enums in attribute syntax -*- C++ -*-===//
//
// Attributes and ops spell every enum with the keyword of its format-library
// table (dla/Format/EnumTable.h), so the dialect keeps no second list.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_IR_FORMATENUMS_H
#define DLA_DIALECT_DLA_IR_FORMATENUMS_H

#include "dla/Format/EnumTable.h"
#include "dla/Format/Fp16.h"
#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaConversion.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPixel.h"
#include "dla/Format/NvdlaPrecision.h"
#include "dla/Format/NvdlaSdp.h"
#include "dla/Format/NvdlaWeight.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

#include <string>
#include <type_traits>

namespace mlir::dla::detail {

/// Parses a keyword naming a value of a format-library enum; the error lists
/// every valid keyword. `allowInteger` admits keywords that are numbers
/// (`post_extension = 2`).
template <typename T>
FailureOr<T> parseFormatEnum(AsmParser &parser, StringRef what, bool allowInteger = false) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  int64_t number;
  OptionalParseResult integer =
      allowInteger ? parser.parseOptionalInteger(number) : OptionalParseResult();
  if (integer.has_value()) {
    if (failed(*integer))
      return failure();
    name = std::to_string(number);
  } else if (failed(parser.parseOptionalKeywordOrString(&name))) {
    return parser.emitError(loc, "expected a ") << what;
  }
  if (std::optional<T> value = ::dlaformat::parseEnum<T>(name))
    return *value;
  return parser.emitError(loc, "unknown ")
         << what << " '" << name << "'; expected one of " << ::dlaformat::enumNameList<T>();
}

template <typename T> StringRef formatEnumName(T value) {
  std::string_view s = ::dlaformat::enumName(value);
  return StringRef(s.data(), s.size());
}

template <typename E, typename = void> struct HasFormatTable : std::false_type {};
template <typename E>
struct HasFormatTable<E, std::void_t<decltype(enumEntries(E{}))>> : std::true_type {};

} // namespace mlir::dla::detail

namespace mlir::dla {

/// `custom<EnumKeyword>($attr)` in an op's assembly format: the bare keyword
/// of an enum attribute (`dla.conv image ...`), from the format library's
/// table or, for the dialect's own ODS enums, from ODS.
template <typename AttrT> ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr) {
  using E = decltype(std::declval<AttrT>().getValue());
  FailureOr<E> value;
  if constexpr (detail::HasFormatTable<E>::value)
    value = detail::parseFormatEnum<E>(parser, AttrT::getMnemonic());
  else
    value = ::mlir::FieldParser<E>::parse(parser);
  if (failed(value))
    return failure();
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

template <typename AttrT> void printEnumKeyword(OpAsmPrinter &printer, Operation *, AttrT attr) {
  if constexpr (detail::HasFormatTable<decltype(attr.getValue())>::value)
    printer << detail::formatEnumName(attr.getValue());
  else
    printer << stringifyEnum(attr.getValue());
}

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_FORMATENUMS_H
