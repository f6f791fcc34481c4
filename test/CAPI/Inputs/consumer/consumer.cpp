// Uses the installed C++ libraries: parse an encoded tensor type, ask the
// layout interface for its storage size, run --dla-pack-weights. Written as
// an embedder writes MLIR code (`using namespace mlir;`, then `dla::`) with
// the format library's headers included too: `dla::` must name one namespace.
#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/BoundLayout.h"
#include "dla/Format/ChunkedLayout.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

int main() {
  mlir::MLIRContext context;
  context.loadDialect<dla::DLADialect, mlir::arith::ArithDialect, mlir::func::FuncDialect>();

  auto type = llvm::cast<mlir::RankedTensorType>(
      mlir::parseType("tensor<1x3x5x30xi8, #dla.chunked<crouton>>", &context));
  auto layout = llvm::cast<dla::LayoutEncodingAttr>(type.getEncoding());
  llvm::FailureOr<int64_t> bytes =
      layout.getStorageBytes(type.getShape(), type.getElementType(),
                             [&] { return mlir::emitError(mlir::UnknownLoc::get(&context)); });
  if (mlir::failed(bytes))
    return 1;
  llvm::outs() << "storage bytes: " << *bytes << "\n";

  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    func.func @f() -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>> {
      %c = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi8>
      %p = dla.relayout %c : tensor<2x3xi8> -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>
      return %p : tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>
    })mlir", &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  pm.addPass(dla::createDLAPackWeights());
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
