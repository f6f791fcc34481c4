//===- InitAllDialects.cpp - Every dialect a dla tool registers ----------===//

#include "dla/InitAllDialects.h"
#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::dla::registerAllDialects(DialectRegistry &registry) {
  registry.insert<DLADialect, arith::ArithDialect, bufferization::BufferizationDialect,
                  func::FuncDialect, linalg::LinalgDialect, memref::MemRefDialect,
                  scf::SCFDialect, tensor::TensorDialect>();
  registerHtpLinalgLayoutModels(registry);
}
