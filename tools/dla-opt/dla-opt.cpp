//===- dla-opt.cpp - mlir-opt with the dla dialect and passes -------------===//

#include "dla/InitAllDialects.h"
#include "dla/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // dla and everything upstream, as mlir-opt has it: the same list the C API
  // and Python register (lib/Registration). A compiled network goes from
  // TOSA through tosa-to-linalg, bufferization and the LLVM lowering in one
  // dla-opt pipeline (dla-run-onnx, test/Execution).
  mlir::dla::registerAllDialects(registry);
  mlir::dla::registerAllDLAPasses();
  mlir::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "dla-opt: MLIR optimizer with the dla dialect (accelerator memory layouts)\n",
      registry));
}
