//===- VectorizeKernels.cpp - register-tiled vector loops for reductions -===//
//
// A convolution lowered to scalar loops with the output column innermost
// streams its output row through memory once per product: LLVM vectorizes
// the column loop but loads and stores the accumulators at every (c, r, s).
// Here each tile of V output columns (times U output channels) stays in
// vector registers while the reduction loops run inside it, and every
// output element still applies the op's body in the order of its
// reduction loops: the results are those of the scalar loops, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAVECTORIZEKERNELS
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

/// Lanes per vector: a 512-bit register of f32.
constexpr int64_t kLanes = 16;

/// How an input is read in the tile: along the vector dimension `w` with
/// a stride (one masked load, or a gather), or as one broadcast scalar.
struct InputAccess {
  int64_t stride = 0; // coefficient of w in the last index; 0: w absent
  bool dependsOnBlock = false;
};

/// The plan of one op: the vector dimension `w` (the output's innermost),
/// the blocked dimension `block` (reused inputs; -1: none) and its factor.
struct Plan {
  unsigned w = 0;
  int64_t block = -1;
  int64_t factor = 1;
  SmallVector<InputAccess> inputs;
};

/// Whether the body computes element by element with nothing that traps on
/// the masked-off lanes (integer division reads zeros there).
bool isVectorizableBody(linalg::LinalgOp op) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return false;
    if (!inner.hasTrait<OpTrait::Vectorizable>() || inner.getNumRegions() ||
        inner.hasTrait<OpTrait::ConstantLike>())
      return false;
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
            arith::CeilDivUIOp, arith::FloorDivSIOp>(inner))
      return false;
    for (Type t : inner.getResultTypes())
      if (!t.isIntOrFloat())
        return false;
  }
  return true;
}

/// The coefficient of dimension `w` in `e` (over `numDims` dimensions) when
/// `e` is `c * w + rest` with `rest` free of `w` and c > 0; 0 when `w` does
/// not occur; -1 otherwise.
int64_t coefficientOf(AffineExpr e, unsigned w, unsigned numDims) {
  if (!e.isFunctionOfDim(w))
    return 0;
  AffineExpr dim = getAffineDimExpr(w, e.getContext());
  auto c = dyn_cast<AffineConstantExpr>(
      simplifyAffineExpr(e.replace(dim, dim + 1) - e, numDims, 0));
  if (!c || c.getValue() <= 0)
    return -1;
  AffineExpr rest = simplifyAffineExpr(e - dim * c.getValue(), numDims, 0);
  return rest.isFunctionOfDim(w) ? -1 : c.getValue();
}

/// Whether a buffer's elements load as vectors the way they are stored:
/// whole bytes (an i1 buffer holds a byte per element, a vector of i1 a bit).
bool isVectorElement(Type t) {
  return t.isIntOrFloat() && t.getIntOrFloatBitWidth() % 8 == 0;
}

std::optional<Plan> planOf(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      op.getNumLoops() < 2 || !isVectorizableBody(op) || op.hasIndexSemantics())
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = dyn_cast<MemRefType>(init->get().getType());
  if (!outType || outType.getRank() == 0 || !outType.isLastDimUnitStride() ||
      !isVectorElement(outType.getElementType()))
    return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (!outMap.isProjectedPermutation())
    return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (!last)
    return std::nullopt;
  Plan plan;
  plan.w = last.getPosition();
  if (op.getIteratorTypesArray()[plan.w] != utils::IteratorType::parallel)
    return std::nullopt;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (!type || in->get() == init->get() || !isVectorElement(type.getElementType()))
      return std::nullopt;
    AffineMap map = op.getMatchingIndexingMap(in);
    InputAccess access;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      int64_t c = coefficientOf(e, plan.w, op.getNumLoops());
      if (c < 0 || (c > 0 && i + 1 != map.getNumResults()))
        return std::nullopt;
      if (c > 0)
        access.stride = c;
    }
    if (access.stride && !type.isLastDimUnitStride())
      return std::nullopt;
    plan.inputs.push_back(access);
  }
  // Block a parallel dimension of the output that some vector input does
  // not depend on: that input's vector serves `factor` accumulators. The
  // innermost such dimension of the output: an NHWC convolution's output
  // column rather than its batch, which is 1 (blocking it left every tile
  // to the one-accumulator remainder loop).
  for (AffineExpr e : llvm::reverse(outMap.getResults())) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (d == plan.w || op.getIteratorTypesArray()[d] != utils::IteratorType::parallel)
      continue;
    bool reused = false;
    for (auto [in, access] : llvm::zip(op.getDpsInputOperands(), plan.inputs))
      reused |= access.stride && !op.getMatchingIndexingMap(in).isFunctionOfDim(d);
    if (!reused)
      continue;
    plan.block = d;
    Type acc = outType.getElementType();
    plan.factor = acc.getIntOrFloatBitWidth() > 32 ? 4 : 8;
    break;
  }
  for (auto [in, access] : llvm::zip(op.getDpsInputOperands(), plan.inputs))
    access.dependsOnBlock =
        plan.block >= 0 && op.getMatchingIndexingMap(in).isFunctionOfDim(plan.block);
  return plan;
}

/// Emits the vector loops of one op in place of it.
class Emitter {
public:
  Emitter(linalg::LinalgOp op, const Plan &plan) : op(op), plan(plan), b(op) {}

  void run() {
    Location loc = op.getLoc();
    for (Range r : op.createLoopRanges(b, loc))
      sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
    // Values the body reads from above, broadcast once.
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegion(0), above);
    for (Value v : above)
      outside.map(v, vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v));
    for (unsigned d : llvm::seq<unsigned>(0, op.getNumLoops()))
      if (d != plan.w && d != unsigned(plan.block) &&
          op.getIteratorTypesArray()[d] == utils::IteratorType::parallel)
        parallel.push_back(d);
    if (plan.block >= 0)
      parallel.push_back(plan.block);
    ivs.assign(op.getNumLoops(), Value());
    emitParallel(0);
    op->erase();
  }

private:
  VectorType vectorOf(Type t) { return VectorType::get({kLanes}, t); }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, op.getLoc(), v); }

  /// The loops over the parallel dimensions but `w`; the blocked one last,
  /// `factor` at a time and then one at a time for the rest.
  void emitParallel(unsigned k) {
    Location loc = op.getLoc();
    if (k == parallel.size()) {
      emitColumns();
      return;
    }
    unsigned d = parallel[k];
    auto loop = [&](Value lb, Value ub, int64_t step, int64_t count) {
      auto forOp = scf::ForOp::create(b, loc, lb, ub, index(step));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(forOp.getBody()->getTerminator());
      ivs[d] = forOp.getInductionVar();
      factor = count;
      emitParallel(k + 1);
    };
    if (int64_t(d) != plan.block) {
      loop(index(0), sizes[d], 1, factor);
      return;
    }
    // ub of the blocked loop: size rounded down to a multiple of factor.
    Value f = index(plan.factor);
    Value whole = arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, sizes[d], f), f);
    loop(index(0), whole, plan.factor, plan.factor);
    loop(whole, sizes[d], 1, 1);
  }

  /// The loops over tiles of `kLanes` output columns: the whole tiles
  /// unmasked, then the last, partial one (if any) under a mask. Masks
  /// only at the edge: x86 has no masked load of 16-bit elements, LLVM
  /// scalarizes one of f16 into a branch per lane.
  void emitColumns() {
    Location loc = op.getLoc();
    Value lanes = index(kLanes);
    Value whole = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, sizes[plan.w], lanes), lanes);
    emitTiles(index(0), whole, /*masked=*/false);
    emitTiles(whole, sizes[plan.w], /*masked=*/true);
  }

  /// The tiles of `kLanes` output columns from `lb` to `ub`: accumulators
  /// loaded, the reductions, stored.
  void emitTiles(Value lb, Value ub, bool masked) {
    Location loc = op.getLoc();
    auto forOp = scf::ForOp::create(b, loc, lb, ub, index(kLanes));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    ivs[plan.w] = forOp.getInductionVar();
    mask = Value();
    if (masked) {
      Value left = arith::SubIOp::create(b, loc, sizes[plan.w], ivs[plan.w]);
      mask = vector::CreateMaskOp::create(b, loc, VectorType::get({kLanes}, b.getI1Type()),
                                          ValueRange{left});
    }
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> accs;
    for (int64_t u = 0; u < factor; ++u)
      accs.push_back(load(init->get(), indices(init, u)));
    SmallVector<unsigned> reductions;
    for (unsigned d : llvm::seq<unsigned>(0, op.getNumLoops()))
      if (op.getIteratorTypesArray()[d] == utils::IteratorType::reduction)
        reductions.push_back(d);
    accs = emitReductions(reductions, 0, accs);
    for (int64_t u = 0; u < factor; ++u) {
      if (mask)
        vector::MaskedStoreOp::create(b, loc, init->get(), indices(init, u), mask, accs[u]);
      else
        vector::StoreOp::create(b, loc, accs[u], init->get(), indices(init, u));
    }
  }

  /// A vector of `kLanes` elements of `memref` from `at` on: under the
  /// tile's mask (zeros beyond it) when it has one.
  Value load(Value memref, ValueRange at) {
    Location loc = op.getLoc();
    VectorType type = vectorOf(getElementTypeOrSelf(memref.getType()));
    if (!mask)
      return vector::LoadOp::create(b, loc, type, memref, at);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    return vector::MaskedLoadOp::create(b, loc, type, memref, at, mask, zero);
  }

  /// The reduction loops in the op's order (each element's order of sums),
  /// carrying the accumulators.
  SmallVector<Value> emitReductions(ArrayRef<unsigned> dims, unsigned k, ValueRange accs) {
    Location loc = op.getLoc();
    if (k == dims.size())
      return emitBody(accs);
    auto forOp = scf::ForOp::create(b, loc, index(0), sizes[dims[k]], index(1), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    ivs[dims[k]] = forOp.getInductionVar();
    SmallVector<Value> next = emitReductions(dims, k + 1, forOp.getRegionIterArgs());
    scf::YieldOp::create(b, loc, next);
    return SmallVector<Value>(forOp.getResults());
  }

  /// The memref indices of `operand` at the current loops, the blocked
  /// dimension advanced by `u` and `w` at its tile's start.
  SmallVector<Value> indices(OpOperand *operand, int64_t u) {
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> dims;
    for (unsigned d : llvm::seq<unsigned>(0, op.getNumLoops())) {
      Value iv = ivs[d];
      if (int64_t(d) == plan.block && u)
        iv = arith::AddIOp::create(b, loc, iv, index(u));
      dims.push_back(iv);
    }
    SmallVector<Value> result;
    for (AffineExpr e : op.getMatchingIndexingMap(operand).getResults())
      result.push_back(getValueOrCreateConstantIndexOp(
          b, loc,
          affine::makeComposedFoldedAffineApply(b, loc, AffineMap::get(dims.size(), 0, e), dims)));
    return result;
  }

  Value read(OpOperand *operand, const InputAccess &access, int64_t u) {
    Location loc = op.getLoc();
    Value memref = operand->get();
    Type elem = getElementTypeOrSelf(memref.getType());
    SmallVector<Value> at = indices(operand, u);
    if (!access.stride)
      return vector::BroadcastOp::create(b, loc, vectorOf(elem),
                                         memref::LoadOp::create(b, loc, memref, at));
    if (access.stride == 1)
      return load(memref, at);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(vectorOf(elem)));
    SmallVector<int32_t> offsets;
    for (int64_t i = 0; i < kLanes; ++i)
      offsets.push_back(int32_t(i * access.stride));
    Value offsetVector = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(VectorType::get({kLanes}, b.getI32Type()),
                                       ArrayRef<int32_t>(offsets)));
    Value all = mask ? mask
                     : arith::ConstantOp::create(
                           b, loc, DenseElementsAttr::get(VectorType::get({kLanes}, b.getI1Type()),
                                                          true));
    return vector::GatherOp::create(b, loc, vectorOf(elem), memref, at, offsetVector, all, zero);
  }

  /// One step of the reductions: the inputs read, the body applied to each
  /// accumulator.
  SmallVector<Value> emitBody(ValueRange accs) {
    Block *body = op.getBlock();
    SmallVector<Value> shared(op.getNumDpsInputs());
    for (auto [i, operand] : llvm::enumerate(op.getDpsInputOperands()))
      if (!plan.inputs[i].dependsOnBlock)
        shared[i] = read(operand, plan.inputs[i], 0);
    SmallVector<Value> next;
    for (int64_t u = 0; u < factor; ++u) {
      IRMapping map = outside;
      for (auto [i, operand] : llvm::enumerate(op.getDpsInputOperands()))
        map.map(body->getArgument(i),
                shared[i] ? shared[i] : read(operand, plan.inputs[i], u));
      map.map(body->getArgument(op.getNumDpsInputs()), accs[u]);
      for (Operation &inner : body->without_terminator()) {
        Operation *clone = b.clone(inner, map);
        for (Value r : clone->getResults())
          r.setType(vectorOf(r.getType()));
      }
      next.push_back(map.lookup(body->getTerminator()->getOperand(0)));
    }
    return next;
  }

  linalg::LinalgOp op;
  const Plan &plan;
  OpBuilder b;
  IRMapping outside;
  SmallVector<Value> sizes, ivs;
  SmallVector<unsigned> parallel;
  int64_t factor = 1;
  Value mask;
};

struct VectorizeKernelsPass : mlir::dla::impl::DLAVectorizeKernelsBase<VectorizeKernelsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, Plan>> work;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<Plan> plan = planOf(op))
        work.emplace_back(op, *plan);
    });
    for (auto &[op, plan] : work)
      Emitter(op, plan).run();
  }
};

} // namespace
