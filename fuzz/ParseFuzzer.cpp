//===- ParseFuzzer.cpp - libFuzzer: parse every dla encoding and type -----===//
//
// The input is MLIR text: a type (tensor<...> with any encoding), an
// attribute (#dla.* alone) or, when it starts with '{', a module. Whatever
// parses must print and re-parse to the same object, and a tensor with a dla
// layout encoding must bind (or fail with a diagnostic, never crash).
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <string>

using namespace mlir;

namespace {

[[noreturn]] void fail(const std::string &what) {
  llvm::errs() << "parse round-trip property violated: " << what << "\n";
  std::abort();
}

template <typename T> std::string print(T object) {
  std::string s;
  llvm::raw_string_ostream os(s);
  object.print(os);
  return s;
}

void bindIfEncoded(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getEncoding())
    return;
  auto layout = dyn_cast<mlir::dla::LayoutEncodingAttr>(tensor.getEncoding());
  if (!layout)
    return;
  auto emit = [&] { return emitError(UnknownLoc::get(type.getContext())); };
  auto bound = layout.bind(tensor.getShape(), tensor.getElementType(), emit);
  if (succeeded(bound)) {
    (void)(*bound)->getStorageBytes();
    (void)layout.getConstantPacker(tensor.getShape(), tensor.getElementType(), emit);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  MLIRContext *ctx = ::dlafuzz::nextContext();
  // Errors from bind() are reported at the caller's location; here there is
  // none, so only the parser's diagnostics are held to the located rule.
  ScopedDiagnosticHandler swallow(ctx, [](Diagnostic &) { return success(); });
  if (!text.empty() && text[0] == '{') {
    ParserConfig config(ctx);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text.substr(1), config);
    if (module && succeeded(verify(*module))) {
      std::string printed = print(*module);
      OwningOpRef<ModuleOp> again = parseSourceString<ModuleOp>(printed, config);
      if (!again)
        fail("printed module does not parse:\n" + printed);
    }
    return 0;
  }
  size_t numRead = 0;
  if (Type type = parseType(text, ctx, &numRead)) {
    std::string printed = print(type);
    size_t n2 = 0;
    Type again = parseType(printed, ctx, &n2);
    if (again != type)
      fail("type '" + printed + "' does not re-parse to itself");
    bindIfEncoded(type);
    return 0;
  }
  if (Attribute attr = parseAttribute(text, ctx, Type(), &numRead)) {
    std::string printed = print(attr);
    size_t n2 = 0;
    Attribute again = parseAttribute(printed, ctx, Type(), &n2);
    if (again != attr)
      fail("attribute '" + printed + "' does not re-parse to itself");
  }
  return 0;
}
