//===- OutlineKernels.cpp - one private function per linalg op ------------===//
//
// The JIT's time on a network inlined into one function grows faster than
// the function: a few thousand loops in one body keep LLVM's loop passes,
// GVN and the register allocator busy for tens of seconds. Outlined and
// deduplicated, a network is a few hundred small kernels and a body of
// calls.
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/KernelNames.h"

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAOUTLINEKERNELS
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {


/// The kernel's argument type for a value of type `t`: a memref with every
/// size dynamic (a layer kind is one kernel whatever its shape), row-major
/// when it was, else with dynamic strides but a known unit innermost
/// stride (what LLVM's vectorizer needs to know).
Type kernelType(Type t) {
  auto type = dyn_cast<MemRefType>(t);
  if (!type || type.getRank() == 0)
    return t;
  SmallVector<int64_t> shape(type.getRank(), ShapedType::kDynamic);
  if (type.getLayout().isIdentity())
    return MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                           type.getMemorySpace());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return t;
  SmallVector<int64_t> dynamic(strides.size(), ShapedType::kDynamic);
  if (strides.back() == 1)
    dynamic.back() = 1;
  return MemRefType::get(shape, type.getElementType(),
                         StridedLayoutAttr::get(t.getContext(), ShapedType::kDynamic, dynamic),
                         type.getMemorySpace());
}

/// Orders the loops of an op with reductions so that the parallel loop of
/// the output's innermost dimension is innermost (a convolution's output
/// column, a matmul's column): that loop is a vectorizable stream, while a
/// convolution's innermost window loop is a few scalar steps. Each output
/// element still sums its reduction in the same order (only a parallel
/// loop moves), so results are unchanged. Returns the op in its new order.
Operation *vectorizableOrder(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return op;
  // A reduction into a scalar (a rank-0 output) has no output loop to
  // move inside.
  ArrayRef<AffineExpr> outputs =
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults();
  auto last = outputs.empty() ? nullptr : dyn_cast<AffineDimExpr>(outputs.back());
  if (!last)
    return op;
  const unsigned inner = last.getPosition();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (i != inner && iterators[i] == utils::IteratorType::parallel)
      order.push_back(i);
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (iterators[i] == utils::IteratorType::reduction)
      order.push_back(i);
  order.push_back(inner);
  if (llvm::equal(order, llvm::seq<unsigned>(0, iterators.size())))
    return op;
  rewriter.setInsertionPoint(op);
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> general = linalg::generalizeNamedOp(rewriter, op);
    if (failed(general))
      return op;
    generic = *general;
  }
  FailureOr<linalg::GenericOp> reordered =
      linalg::interchangeGenericOp(rewriter, generic, order);
  return succeeded(reordered) ? reordered->getOperation() : generic.getOperation();
}

/// Moves `op` into a new private function of `symbols`' module and calls it
/// in its place. Constants it reads are cloned in (they stay visible to
/// LLVM, and kernels differing only by an SSA name of the same constant
/// are identical); every other value is an argument.
void outline(Operation *op, SymbolTable &symbols, OpBuilder &b) {
  llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  SmallVector<Value> args;
  SmallVector<Operation *> constants;
  for (Value v : used) {
    Operation *def = v.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>() && def->getNumResults() == 1)
      constants.push_back(def);
    else
      args.push_back(v);
  }
  Location loc = op->getLoc();
  auto module = cast<ModuleOp>(symbols.getOp());
  b.setInsertionPointToEnd(module.getBody());
  SmallVector<Type> types;
  for (Value v : args)
    types.push_back(kernelType(v.getType()));
  auto fn = func::FuncOp::create(b, loc, dla::kKernelPrefix, b.getFunctionType(types, {}));
  fn.setPrivate();
  fn.setNoInline(true);
  symbols.insert(fn);
  Block *entry = fn.addEntryBlock();
  IRMapping map;
  map.map(args, entry->getArguments());
  b.setInsertionPointToStart(entry);
  for (Operation *c : constants)
    b.clone(*c, map);
  b.clone(*op, map);
  func::ReturnOp::create(b, loc);

  b.setInsertionPoint(op);
  SmallVector<Value> operands;
  for (auto [v, type] : llvm::zip(args, types))
    operands.push_back(v.getType() == type ? v : memref::CastOp::create(b, loc, type, v));
  auto call = func::CallOp::create(b, loc, fn, operands);
  call.setNoInline(true);
  op->erase();
}

/// Cuts the straight-line body of `fn` into blocks of `callsPerBlock`
/// calls joined by branches: LLVM selects instructions a block at a time,
/// in time growing faster than the block (a network's body is one block of
/// thousands of calls).
void splitIntoBlocks(func::FuncOp fn, int callsPerBlock) {
  if (!fn.getBody().hasOneBlock())
    return;
  Block *block = &fn.getBody().front();
  int calls = 0;
  for (Operation *op = &block->front(); op != block->getTerminator();) {
    Operation *next = op->getNextNode();
    if (isa<func::CallOp>(op) && ++calls % callsPerBlock == 0 && next != block->getTerminator()) {
      Block *rest = block->splitBlock(next);
      OpBuilder b = OpBuilder::atBlockEnd(block);
      cf::BranchOp::create(b, op->getLoc(), rest);
      block = rest;
    }
    op = next;
  }
}

/// A copy into or out of a strided view (a padded convolution input, a
/// concatenation's slice) becomes `linalg.copy`: the runtime's memrefCopy
/// moves such a copy one element per memcpy call, the loops vectorize.
/// Copies between row-major buffers stay (one memcpy).
void stridedCopiesToLinalg(ModuleOp module) {
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    auto source = cast<MemRefType>(copy.getSource().getType());
    auto target = cast<MemRefType>(copy.getTarget().getType());
    if (source.getRank() && (!source.getLayout().isIdentity() || !target.getLayout().isIdentity()))
      copies.push_back(copy);
  });
  OpBuilder b(module.getContext());
  for (memref::CopyOp copy : copies) {
    b.setInsertionPoint(copy);
    linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(), copy.getTarget());
    copy->erase();
  }
}

struct OutlineKernelsPass : mlir::dla::impl::DLAOutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    stridedCopiesToLinalg(module);
    SmallVector<linalg::LinalgOp> ops;
    SmallVector<func::FuncOp> bodies;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal() || fn.getSymName().starts_with(dla::kKernelPrefix))
        continue;
      bodies.push_back(fn);
      // Outermost linalg ops only: one nested in another's region (none
      // today) goes with it.
      fn.walk([&](linalg::LinalgOp op) {
        if (op->getNumResults() == 0 && !op->getParentOfType<linalg::LinalgOp>())
          ops.push_back(op);
      });
    }
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> kernels;
    for (linalg::LinalgOp op : ops)
      kernels.push_back(vectorizableOrder(rewriter, op));
    // The loop nests --dla-lower-to-memref wrote (relayouts between storage
    // and row-major buffers, weights decompressed) are kernels too.
    for (func::FuncOp fn : bodies)
      for (Block &block : fn.getBody())
        for (auto loop : block.getOps<scf::ForOp>())
          if (loop->use_empty())
            kernels.push_back(loop);
    if (kernels.empty())
      return;
    SymbolTable symbols(module);
    OpBuilder b(&getContext());
    for (Operation *op : kernels)
      outline(op, symbols, b);
    // A body left without loops is calls, allocations and frees: LLVM's
    // optimizations find nothing there to speed up, and its instruction
    // selection at -O0 is several times faster on the thousands of calls.
    MLIRContext *ctx = &getContext();
    for (func::FuncOp fn : bodies) {
      if (fn.isExternal() ||
          fn->walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); }).wasInterrupted())
        continue;
      fn->setAttr("passthrough", ArrayAttr::get(ctx, {StringAttr::get(ctx, "noinline"),
                                                      StringAttr::get(ctx, "optnone")}));
      splitIntoBlocks(fn, /*callsPerBlock=*/8);
    }
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(func::createDuplicateFunctionEliminationPass());
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }
};

} // namespace
