//===- FuzzContext.h - MLIR set-up shared by the libFuzzer harnesses -*- C++ -*-===//
//
// One registry for the process (every dialect dla-opt registers, so that a
// finding reproduces in dla-opt) and one single-threaded context reused
// across inputs: creating a context and loading its dialects cost more than
// a whole input. Dialects load on demand, as the parser and the passes meet
// them. The context is replaced every kInputsPerContext inputs, so that the
// types and attributes it uniques stay bounded over millions of inputs.
// Diagnostics are swallowed without printing the operation they are about,
// but every error must carry a real location: an error at an unknown
// location is a finding.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FUZZ_FUZZCONTEXT_H
#define DLA_FUZZ_FUZZCONTEXT_H

#include "dla/InitAllDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>

namespace dlafuzz {

inline const mlir::DialectRegistry &getRegistry() {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    mlir::dla::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

/// The context for the next input: the previous one, or a fresh one every
/// kInputsPerContext inputs.
inline mlir::MLIRContext *nextContext() {
  constexpr int kInputsPerContext = 2000;
  static std::unique_ptr<mlir::MLIRContext> ctx;
  static int uses = 0;
  if (!ctx || ++uses > kInputsPerContext) {
    ctx.reset(); // the old one's memory first
    ctx = std::make_unique<mlir::MLIRContext>(getRegistry(),
                                              mlir::MLIRContext::Threading::DISABLED);
    // Diagnostics are swallowed: printing their operation is wasted work.
    ctx->printOpOnDiagnostic(false);
    ctx->printStackTraceOnDiagnostic(false);
    uses = 1;
  }
  return ctx.get();
}

/// Swallows diagnostics; aborts on an error without a location.
class LocatedDiagnostics {
public:
  explicit LocatedDiagnostics(mlir::MLIRContext *ctx)
      : handler(ctx, [](mlir::Diagnostic &diag) {
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error &&
              mlir::isa<mlir::UnknownLoc>(diag.getLocation())) {
            llvm::errs() << "error without a location: " << diag << "\n";
            std::abort();
          }
          return mlir::success();
        }) {}

private:
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace dlafuzz

#endif // DLA_FUZZ_FUZZCONTEXT_H
