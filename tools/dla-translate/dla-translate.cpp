//===- dla-translate.cpp - Translations out of the dla dialect -----------===//
//
// mlir-translate with the project's translations only:
// --dla-to-nvdla-trace (include/dla/Target/NvdlaTrace.h) and
// --dla-to-nvdla-loadable (include/dla/Target/NvdlaLoadable.h).
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaLoadable.h"
#include "dla/Target/NvdlaTrace.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::dla::registerToNvdlaTraceTranslation();
  mlir::dla::registerToNvdlaLoadableTranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "dla-mlir translations"));
}
