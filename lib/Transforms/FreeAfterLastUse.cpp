//===- FreeAfterLastUse.cpp - free buffers after their last use ----------===//
//
// Ownership-based deallocation frees what a block allocates at the block's
// end: a network lowered to one block of thousands of layers keeps every
// intermediate buffer until it returns. Buffers whose uses can all be
// seen are freed after the last one instead.
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/KernelNames.h"

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAFREEAFTERLASTUSE
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

/// A user through which a buffer may be reached in ways the view-flow
/// analysis does not follow.
bool escapes(Operation *user) {
  // The relayout functions only read and write their arguments.
  if (auto call = dyn_cast<func::CallOp>(user))
    if (call.getCallee().starts_with(dla::kRelayoutFunction))
      return false;
  return isa<CallOpInterface, memref::ExtractAlignedPointerAsIndexOp, bufferization::ToTensorOp,
             UnrealizedConversionCastOp>(user);
}

/// The memref.alloc of `block` that `memref` (an operand of `dealloc`) is
/// the base buffer of, else null.
memref::AllocOp allocOf(Value memref, Block *block) {
  if (auto meta = memref.getDefiningOp<memref::ExtractStridedMetadataOp>())
    if (memref == meta.getBaseBuffer())
      memref = meta.getSource();
  auto alloc = memref.getDefiningOp<memref::AllocOp>();
  return alloc && alloc->getBlock() == block ? alloc : memref::AllocOp();
}

/// The last op of the dealloc's block that uses `alloc` or one of its
/// aliases, when it can be freed there; else null.
Operation *lastUse(memref::AllocOp alloc, bufferization::DeallocOp dealloc,
                   const BufferViewFlowAnalysis &aliases) {
  Block *block = dealloc->getBlock();
  BufferViewFlowAnalysis::ValueSetT all = aliases.resolve(alloc.getResult());
  for (Value retained : dealloc.getRetained())
    if (all.contains(retained))
      return nullptr;
  Operation *last = alloc;
  for (Value alias : all) {
    for (Operation *user : alias.getUsers()) {
      if (user == dealloc.getOperation())
        continue;
      // The base buffer taken for the dealloc itself.
      if (isa<memref::ExtractStridedMetadataOp>(user) &&
          llvm::all_of(user->getUsers(), [&](Operation *u) { return u == dealloc; }))
        continue;
      if (escapes(user))
        return nullptr;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || !ancestor->isBeforeInBlock(dealloc))
        return nullptr;
      if (last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  }
  return last;
}

struct FreeAfterLastUsePass
    : mlir::dla::impl::DLAFreeAfterLastUseBase<FreeAfterLastUsePass> {
  void runOnOperation() override {
    const BufferViewFlowAnalysis aliases(getOperation());
    // Decided first, inserted after: an insertion invalidates the block's
    // op order, which every isBeforeInBlock would then recompute.
    SmallVector<std::pair<memref::AllocOp, Operation *>> frees;
    DenseSet<Operation *> freed;
    getOperation().walk([&](bufferization::DeallocOp dealloc) {
      SmallVector<Value> memrefs, conditions;
      for (auto [memref, condition] : llvm::zip(dealloc.getMemrefs(), dealloc.getConditions())) {
        memref::AllocOp alloc = allocOf(memref, dealloc->getBlock());
        // A buffer named twice is freed once (as the dealloc would).
        if (alloc && freed.contains(alloc))
          continue;
        Operation *last = alloc && matchPattern(condition, m_One())
                              ? lastUse(alloc, dealloc, aliases)
                              : nullptr;
        if (last) {
          frees.emplace_back(alloc, last);
          freed.insert(alloc);
          continue;
        }
        memrefs.push_back(memref);
        conditions.push_back(condition);
      }
      // Results (the retained values' ownership) are unchanged: no buffer
      // taken out may alias a retained value.
      if (memrefs.size() == dealloc.getMemrefs().size())
        return;
      llvm::SetVector<Operation *> metas;
      for (Value memref : dealloc.getMemrefs())
        if (auto meta = memref.getDefiningOp<memref::ExtractStridedMetadataOp>())
          metas.insert(meta);
      dealloc.getMemrefsMutable().assign(memrefs);
      dealloc.getConditionsMutable().assign(conditions);
      // The base buffers taken for it alone: gone with it (not read after
      // the free).
      for (Operation *meta : metas)
        if (meta->use_empty())
          meta->erase();
    });
    for (auto [alloc, last] : frees) {
      OpBuilder builder(last->getContext());
      builder.setInsertionPointAfter(last);
      memref::DeallocOp::create(builder, alloc.getLoc(), alloc.getResult());
    }
  }
};

} // namespace
