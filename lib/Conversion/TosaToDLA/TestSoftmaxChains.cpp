//===- TestSoftmaxChains.cpp - --dla-test-softmax-chains ------------------===//
//
// Runs the softmax's chain builders (emitTableProgram for the exp,
// emitAccumulatorChain for the reciprocal) on ops a test marks, alone
// (AttentionSoftmax.cpp calls them on the attention cores it recognizes;
// Passes.td says what the pass does).
//
//===----------------------------------------------------------------------===//

#include "SoftmaxTables.h"
#include "TablePrograms.h"

#include "dla/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <sstream>

namespace mlir::dla {
#define GEN_PASS_DEF_DLATESTSOFTMAXCHAINS
#include "dla/Conversion/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {

constexpr llvm::StringLiteral kKeysAttr = "dla.test_reciprocal_keys";
constexpr llvm::StringLiteral kScaleAttr = "dla.test_exp_scale";

/// The scale as written (0.0317, not 3.170000e-02).
std::string shortest(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

/// Builds a chain after `op` over its result; the result's users until
/// then read the chain's last value instead.
void reroute(Operation *op, function_ref<Value(OpBuilder &)> build) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : op->getResult(0).getUses())
    uses.push_back(&use);
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Value last = build(b);
  for (OpOperand *use : uses)
    use->set(last);
}

struct TestSoftmaxChainsPass
    : mlir::dla::impl::DLATestSoftmaxChainsBase<TestSoftmaxChainsPass> {
  using DLATestSoftmaxChainsBase::DLATestSoftmaxChainsBase;

  void runOnOperation() override {
    SmallVector<ConvOp> marked;
    SmallVector<Operation *> exps;
    getOperation().walk([&](Operation *op) {
      if (auto conv = dyn_cast<ConvOp>(op); conv && conv->hasAttr(kKeysAttr))
        marked.push_back(conv);
      if (op->hasAttr(kScaleAttr))
        exps.push_back(op);
    });
    for (Operation *op : exps)
      if (failed(exp(op)))
        return signalPassFailure();
    for (ConvOp conv : marked)
      if (failed(reciprocal(conv)))
        return signalPassFailure();
  }

  /// The exp chain (offline SDPs) over the int8 map `op` computes: d = m -
  /// s - 128 for scores at the marked scale.
  LogicalResult exp(Operation *op) {
    auto scale = dyn_cast<FloatAttr>(op->getAttr(kScaleAttr));
    auto type = op->getNumResults() == 1 ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                                         : RankedTensorType();
    if (!scale || !(scale.getValueAsDouble() > 0) || !type ||
        !type.getElementType().isInteger(8) || type.getRank() != 4)
      return op->emitError() << kScaleAttr
                             << " is not a positive float on an op of one rank-4 int8 result";
    LevelTable t = softmaxExpTable(scale.getValueAsDouble());
    FailureOr<TableProgram> p = planChain(t.table, t.base, t.tolerance, maxSegments);
    if (failed(p))
      return op->emitError() << "the exp at scale " << shortest(scale.getValueAsDouble())
                             << " has no chain of " << unsigned(maxSegments) << " segments";
    op->removeAttr(kScaleAttr);
    reroute(op, [&](OpBuilder &b) { return emitTableProgram(b, op->getLoc(), op->getResult(0), *p); });
    return success();
  }

  /// The reciprocal chain over the marked convolution's accumulator.
  LogicalResult reciprocal(ConvOp conv) {
    auto keys = dyn_cast<IntegerAttr>(conv->getAttr(kKeysAttr));
    if (!keys || keys.getInt() < 1)
      return conv.emitError() << kKeysAttr << " is not a positive integer";
    LevelTable t = softmaxReciprocalTable(keys.getInt());
    FailureOr<TableProgram> p = planChain(t.table, t.base, t.tolerance, maxSegments);
    if (failed(p))
      return conv.emitError() << "the reciprocal over " << keys.getInt()
                              << " keys has no chain of " << unsigned(maxSegments)
                              << " segments";
    conv->removeAttr(kKeysAttr);
    reroute(conv, [&](OpBuilder &b) { return emitAccumulatorChain(b, conv, *p); });
    return success();
  }
};

} // namespace
