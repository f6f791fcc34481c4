//===- dla-opt.cpp - mlir-opt with the dla dialect and passes -------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::dla::DLADialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect>();
  mlir::dla::registerDLAPasses();
  // The generic upstream passes a user mixes in: canonicalize, cse, ...
  mlir::registerTransformsPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "dla-opt: MLIR optimizer with the dla dialect (accelerator memory layouts)\n",
      registry));
}
