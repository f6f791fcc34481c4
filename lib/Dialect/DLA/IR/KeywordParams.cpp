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
    if (param == params.end()) {
      InFlightDiagnostic diag = parser.emitError(keyLoc, "unknown ")
                                << attrName << " parameter '" << key << "'; expected ";
      for (size_t i = 0; i < params.size(); ++i)
        diag << (i == 0 ? "" : i + 1 == params.size() ? " or " : ", ") << params[i].key;
      return diag;
    }
    if (!seen.insert(key).second)
      return parser.emitError(keyLoc, "'") << key << "' given twice";
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
