//===- Compile.cpp - --dla-compile: the whole pipeline as one pass --------===//
//
// A pass rather than a registered pipeline so that it is registered with the
// others (registerDLAPasses) and its options are checked like theirs. Later
// stages (the memref lowering) append to buildPipeline.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLACOMPILE
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;

namespace {
struct CompilePass : mlir::dla::impl::DLACompileBase<CompilePass> {
  using Base::Base;

  void runOnOperation() override {
    OpPassManager pm(ModuleOp::getOperationName());
    DLAAssignLayoutsOptions assign;
    assign.target = target;
    assign.winograd = winograd;
    assign.compression = compression;
    pm.addPass(createDLAAssignLayouts(assign));
    pm.addPass(createDLACheckPrecision());
    pm.addPass(createDLAPackWeights());
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace
