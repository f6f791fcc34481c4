//===- BatchSession.h - dla-opt --batch in one context ----------*- C++ -*-===//
//
// dla-run-onnx's lists compile dozens of small models with one pipeline.
// MlirOptMain gives each its own context and pass manager: the dialects load
// again and every pass initializes again (the canonicalizer's pattern set of
// every loaded op, the LLVM lowerings' type converters and patterns): on
// node-nn-layouts' 49 one-layer models, 2.4-2.6 s of dla-opt against
// 1.7-2.3 s with a session, which keeps one context and one pass manager
// for the models of a batch.
//
//===----------------------------------------------------------------------===//

#ifndef DLA_OPT_BATCHSESSION_H
#define DLA_OPT_BATCHSESSION_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include <memory>

namespace mlir::dla {

class BatchSession {
public:
  BatchSession(DialectRegistry &registry, const MlirOptMainConfig &config);
  ~BatchSession();

  /// Whether a session does what MlirOptMain would with `config`: parse,
  /// run the pipeline, print (text or bytecode), diagnostics at source and
  /// model-node locations filtered by verbosity. The rest (expected-*
  /// diagnostics, split inputs, reproducers, round trips, timing, remark
  /// files, IRDL, action logs and debugger hooks) goes through MlirOptMain.
  static bool supports(const MlirOptMainConfig &config);

  /// dla-opt INPUT -o OUTPUT: the exit code.
  int compile(llvm::StringRef input, llvm::StringRef output);

private:
  /// A new context: the first model's, and after `kResetBytes` of input (a
  /// context keeps every attribute it uniqued, the constants of every model
  /// parsed). The pass manager goes with the old one.
  void resetContext();
  /// The pass manager for inputs whose top-level op is `anchor` (a module,
  /// unless --no-implicit-module), built again when that changes.
  LogicalResult preparePassManager(OperationName anchor);

  static constexpr uint64_t kResetBytes = 64ull << 20;

  DialectRegistry &registry;
  const MlirOptMainConfig &config;
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<PassManager> pm;
  uint64_t bytesInContext = 0;
};

} // namespace mlir::dla

#endif // DLA_OPT_BATCHSESSION_H
