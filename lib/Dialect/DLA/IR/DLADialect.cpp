//===- DLADialect.cpp - The dla dialect ----------------------------------===//

#include "BindUtils.h" // the encodings' verifier, defined in ODS

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dla;

#include "dla/Dialect/DLA/IR/DLADialect.cpp.inc"
#include "dla/Dialect/DLA/IR/DLAEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dla/Dialect/DLA/IR/DLAAttrs.cpp.inc"

namespace {
/// ODS's struct() directive's error for an unknown or repeated key.
constexpr llvm::StringLiteral kUnknownKey = "duplicate or unknown struct parameter name: ";

template <typename Attr, typename = void>
struct HasStructKeywords : std::false_type {};
template <typename Attr>
struct HasStructKeywords<Attr, std::void_t<decltype(Attr::kStructKeywords)>>
    : std::true_type {};

/// The attribute class of `mnemonic`, over the dialect's attribute classes:
/// its parse (the generated one, as generatedAttributeParser calls it), and
/// its struct keywords ("" when it has none).
template <typename... Attrs>
struct AttrsByMnemonic {
  static OptionalParseResult parse(AsmParser &parser, StringRef mnemonic, Type type,
                                   Attribute &value) {
    OptionalParseResult result;
    (void)((Attrs::getMnemonic() == mnemonic
                ? (value = Attrs::parse(parser, type), result = success(bool(value)), true)
                : false) ||
           ...);
    return result;
  }
  static StringRef structKeywords(StringRef mnemonic) {
    StringRef keywords;
    (void)((Attrs::getMnemonic() == mnemonic ? ([&] {
      if constexpr (HasStructKeywords<Attrs>::value)
        keywords = Attrs::kStructKeywords;
    }(), true) : false) || ...);
    return keywords;
  }
};
using DLAAttrs = AttrsByMnemonic<
#define GET_ATTRDEF_LIST
#include "dla/Dialect/DLA/IR/DLAAttrs.cpp.inc"
    >;
} // namespace

Attribute DLADialect::parseAttribute(DialectAsmParser &parser, Type type) const {
  SMLoc start = parser.getCurrentLocation();
  StringRef mnemonic;
  if (failed(parser.parseKeyword(&mnemonic)))
    return {};
  Attribute attr;
  // ODS's unknown-key error is held back and said again with the keys.
  std::optional<std::pair<Location, std::string>> unknownKey;
  OptionalParseResult parsed;
  {
    ScopedDiagnosticHandler hold(getContext(), [&](Diagnostic &d) {
      // (A hand parser's error that lists the keys itself has its note.)
      if (unknownKey || d.getSeverity() != DiagnosticSeverity::Error ||
          !StringRef(d.str()).starts_with(kUnknownKey) || !d.getNotes().empty())
        return failure(); // not ours: on to the next handler
      unknownKey.emplace(d.getLocation(), d.str());
      return success();
    });
    parsed = DLAAttrs::parse(parser, mnemonic, type, attr);
  }
  if (unknownKey) {
    InFlightDiagnostic diag = emitError(unknownKey->first, unknownKey->second);
    StringRef keywords = DLAAttrs::structKeywords(mnemonic);
    if (!keywords.empty()) {
      // "a, b, c" -> "a, b and c", as #dla.weight's hand parser says it.
      auto [init, last] = keywords.rsplit(", ");
      diag.attachNote() << "#dla." << mnemonic << " takes "
                        << (last.empty() ? init : (init + " and " + last).str());
    }
    return {};
  }
  if (parsed.has_value())
    return attr;
  parser.emitError(start) << "unknown attribute `" << mnemonic << "` in dialect `"
                          << getNamespace() << "`";
  return {};
}

void DLADialect::printAttribute(Attribute attr, DialectAsmPrinter &printer) const {
  (void)generatedAttributePrinter(attr, printer);
  // The parser dispatches by mnemonic itself (DLAAttrs::parse).
  (void)&generatedAttributeParser;
}

void DLADialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dla/Dialect/DLA/IR/DLAAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dla/Dialect/DLA/IR/DLAOps.cpp.inc"
      >();
}
