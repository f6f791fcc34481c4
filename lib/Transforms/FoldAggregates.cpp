//===- FoldAggregates.cpp - memref descriptors out of the LLVM dialect ----===//
//
// A memref descriptor is built with llvm.insertvalue and read back with
// llvm.extractvalue at each kernel call. Folding the reads leaves scalars
// only, which the JIT's fast instruction selector handles.
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAFOLDAGGREGATES
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

struct FoldAggregates : dla::impl::DLAFoldAggregatesBase<FoldAggregates> {
  void runOnOperation() override {
    SmallVector<LLVM::ExtractValueOp> extracts;
    getOperation()->walk([&](LLVM::ExtractValueOp op) { extracts.push_back(op); });
    for (LLVM::ExtractValueOp op : extracts) {
      // The folder either returns the element or moves the op down the
      // insert chain in place (then it is tried again).
      SmallVector<OpFoldResult, 1> results;
      while (succeeded(op->fold(results)) && results.empty()) {
      }
      if (results.size() != 1)
        continue;
      if (auto value = dyn_cast<Value>(results.front())) {
        op.getResult().replaceAllUsesWith(value);
        op->erase();
      }
    }
    // Users before producers: a chain of inserts dies from its end.
    getOperation()->walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
      if (isa<LLVM::InsertValueOp, LLVM::ExtractValueOp, LLVM::PoisonOp, LLVM::UndefOp,
              LLVM::ConstantOp>(op) &&
          isOpTriviallyDead(op))
        op->erase();
    });
  }
};

} // namespace
