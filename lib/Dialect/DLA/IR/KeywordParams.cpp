//===- KeywordParams.cpp - `, key = value` parameters of an encoding ------===//

#include "KeywordParams.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dla::detail;

ParseResult mlir::dla::detail::parseKeywordParams(AsmParser &parser, StringRef attrName,
                                                  ArrayRef<KeywordParam> params) {
  llvm::StringSet<> seen;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    std::string key;
    if (parser.parseKeywordOrString(&key))
      return failure();
    const KeywordParam *param = llvm::find_if(params, [&](const KeywordParam &p) {
      return p.key == key;
    });
    // The message of ODS's struct() directive, which the other encodings
    // parse with, so that one mistake reads the same everywhere; a note
    // lists the keys.
    if (param == params.end() || !seen.insert(key).second) {
      InFlightDiagnostic diag =
          parser.emitError(keyLoc, "duplicate or unknown struct parameter name: ") << key;
      Diagnostic &note = diag.attachNote();
      note << attrName << " takes ";
      for (size_t i = 0; i < params.size(); ++i)
        note << (i == 0 ? "" : i + 1 == params.size() ? " and " : ", ") << params[i].key;
      return diag;
    }
    if (param->flag) {
      *param->flag = true;
      continue;
    }
    if (parser.parseEqual() || param->parseValue())
      return failure();
  }
  return success();
}

ParseResult mlir::dla::detail::parseOptionalInt(AsmParser &parser,
                                                std::optional<int64_t> &value) {
  int64_t v;
  if (parser.parseInteger(v))
    return failure();
  value = v;
  return success();
}
