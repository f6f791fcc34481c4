//===- KeywordParams.h - `, key = value` parameters of an encoding -*- C++ -*-===//
//
// Private to lib/Dialect/DLA/IR. The parser of the optional keyword
// parameters after #dla.weight's positional ones, which ODS's struct()
// directive cannot express (`compressed` is a flag with no value); it
// reports a repeated or unknown key with struct()'s own message, as every
// other encoding does.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_DIALECT_DLA_IR_KEYWORDPARAMS_H
#define DLA_LIB_DIALECT_DLA_IR_KEYWORDPARAMS_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::dla::detail {

/// One keyword parameter. `parseValue` parses what follows `key =`; a flag
/// (no `= value`) has none and `*flag` becomes true.
struct KeywordParam {
  StringRef key;
  function_ref<ParseResult()> parseValue = nullptr;
  bool *flag = nullptr;
};

/// Parses `(`,` key (`=` value)?)*` up to the closing `>` (not consumed).
/// `attrName` (e.g. "#dla.feature") names the attribute in the errors.
ParseResult parseKeywordParams(AsmParser &parser, StringRef attrName,
                               ArrayRef<KeywordParam> params);

/// Parses an integer into `value`.
ParseResult parseOptionalInt(AsmParser &parser, std::optional<int64_t> &value);

} // namespace mlir::dla::detail

#endif // DLA_LIB_DIALECT_DLA_IR_KEYWORDPARAMS_H
