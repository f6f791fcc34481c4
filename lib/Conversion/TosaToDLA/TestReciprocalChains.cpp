//===- TestReciprocalChains.cpp - --dla-test-reciprocal-chains ------------===//
//
// Runs emitAccumulatorChain on convolutions a test marks, until the
// softmax's recognizer calls it (Passes.td says what the pass does).
//
//===----------------------------------------------------------------------===//

#include "SoftmaxTables.h"
#include "TablePrograms.h"

#include "dla/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLATESTRECIPROCALCHAINS
#include "dla/Conversion/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {

constexpr llvm::StringLiteral kKeysAttr = "dla.test_reciprocal_keys";

struct TestReciprocalChainsPass
    : mlir::dla::impl::DLATestReciprocalChainsBase<TestReciprocalChainsPass> {
  using DLATestReciprocalChainsBase::DLATestReciprocalChainsBase;

  void runOnOperation() override {
    SmallVector<ConvOp> marked;
    getOperation().walk([&](ConvOp conv) {
      if (conv->hasAttr(kKeysAttr))
        marked.push_back(conv);
    });
    for (ConvOp conv : marked) {
      auto keys = dyn_cast<IntegerAttr>(conv->getAttr(kKeysAttr));
      if (!keys || keys.getInt() < 1) {
        conv.emitError() << kKeysAttr << " is not a positive integer";
        return signalPassFailure();
      }
      LevelTable t = softmaxReciprocalTable(keys.getInt());
      FailureOr<TableProgram> p = planChain(t.table, t.base, t.tolerance, maxSegments);
      if (failed(p)) {
        conv.emitError() << "the reciprocal over " << keys.getInt() << " keys has no chain of "
                         << unsigned(maxSegments) << " segments";
        return signalPassFailure();
      }
      conv->removeAttr(kKeysAttr);
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : conv->getUses())
        uses.push_back(&use);
      OpBuilder b(conv->getContext());
      b.setInsertionPointAfter(conv);
      Value r = emitAccumulatorChain(b, conv, *p);
      for (OpOperand *use : uses)
        use->set(r);
    }
  }
};

} // namespace
