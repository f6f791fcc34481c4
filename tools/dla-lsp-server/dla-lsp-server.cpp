//===- dla-lsp-server.cpp - MLIR language server with the dla dialect -----===//
//
// mlir-lsp-server with everything dla-opt registers, so that an editor's
// MLIR extension (VS Code: the `mlir.server_path` setting) shows the dla
// verifiers' diagnostics, hovers and definitions in .mlir files.
//
//===----------------------------------------------------------------------===//

#include "dla/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // The list dla-opt, the C API and Python register (lib/Registration).
  mlir::dla::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
