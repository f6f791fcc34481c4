//===- InitAllDialects.cpp - Every dialect a dla tool registers ----------===//

#include "dla/InitAllDialects.h"
#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

void mlir::dla::registerAllDialects(DialectRegistry &registry) {
  registry.insert<DLADialect>();
  // Everything upstream, with the external models its passes need (the
  // bufferization interfaces One-Shot Bufferize asks arith, tensor, linalg
  // and scf for; the to-LLVM conversion interfaces): a pipeline that runs in
  // dla-opt runs the same way through the C API and Python.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registerHtpLinalgLayoutModels(registry);
}
