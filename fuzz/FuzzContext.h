//===- FuzzContext.h - MLIR set-up shared by the libFuzzer harnesses -*- C++ -*-===//
//
// One registry for the process, one fresh single-threaded context per input
// (uniqued types and attributes must not pile up over millions of inputs).
// Diagnostics are swallowed, but every error must carry a real location: an
// error at an unknown location is a finding.
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

/// A context for one input, with every dla-tool dialect loaded.
inline std::unique_ptr<mlir::MLIRContext> makeContext() {
  auto ctx = std::make_unique<mlir::MLIRContext>(getRegistry(),
                                                 mlir::MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  return ctx;
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
