//===- LowerToReference.cpp - Layer ops to an executable reference -------===//

#include "ReferencePatterns.h"
#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLALOWERTOREFERENCE
#include "dla/Conversion/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;

namespace {

/// Diagnoses what the patterns cannot lower, so that every problem of a
/// module is reported once, by its layer, before anything is rewritten.
LogicalResult checkLowerable(LayerOpInterface op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto ranked = dyn_cast<RankedTensorType>(t); ranked && !ranked.hasStaticShape())
      return op->emitOpError() << "reference lowering needs static shapes, got " << t;
  return reference::getPipelinePrecision(op, /*diagnose=*/true);
}

/// Whether --dla-lower-to-memref runs `op`'s hardware layer (the op and
/// what is fused to it) in a dla.on_storage that
/// --dla-lower-buffers-to-reference runs: an encoded operand or result, and
/// a storage buffer type for every operand and result of the layer.
/// A constant (or one rounded by the truncf --dla-pack-weights fuses)
/// relayouted into `v`'s encoding, or already packed.
bool isPackedConstant(Value v) {
  if (v.getDefiningOp<WeightConstantOp>())
    return true;
  auto relayout = v.getDefiningOp<RelayoutOp>();
  if (!relayout)
    return false;
  Value root = relayout.getSource();
  if (auto truncf = root.getDefiningOp<arith::TruncFOp>())
    root = truncf.getIn();
  return matchPattern(root, m_Constant());
}

bool hasRunnableStorageForm(LayerOpInterface op) {
  bool encoded = false;
  // Asked quietly: an operand without a storage type only means the layer
  // is lowered here.
  ScopedDiagnosticHandler quiet(op->getContext(), [](Diagnostic &) { return success(); });
  for (Operation *member : getHardwareLayer(op))
    for (Value v : llvm::concat<Value>(member->getOperands(), member->getResults())) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || !tensor.hasStaticShape())
        return false;
      encoded |= bool(tensor.getEncoding());
      // Compressed weights run from their three surfaces once a constant
      // is packed into them.
      if (getDataDependentSurfaceCount(tensor)) {
        if (!isPackedConstant(v))
          return false;
        continue;
      }
      if (failed(getStorageBufferType(tensor, [&] { return mlir::emitError(op->getLoc()); })))
        return false;
    }
  return encoded;
}

struct LowerToReferencePass
    : mlir::dla::impl::DLALowerToReferenceBase<LowerToReferencePass> {
  using DLALowerToReferenceBase::DLALowerToReferenceBase;
  void runOnOperation() override {
    // Layer ops already on storage belong to --dla-lower-buffers-to-reference.
    auto skipped = [&](LayerOpInterface op) {
      return op->getParentOfType<OnStorageOp>() ||
             (skipStorageLayers && hasRunnableStorageForm(op));
    };
    bool ok = true;
    getOperation()->walk([&](LayerOpInterface op) {
      if (!skipped(op))
        ok &= succeeded(checkLowerable(op));
    });
    if (!ok)
      return signalPassFailure();
    // The storage form's weights are packed by then: read them now.
    getOperation()->walk([&](ConvOp op) {
      if (skipped(op))
        reference::markDepthwiseWeight(op);
    });

    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    // Every layer op is illegal: one without a reference pattern fails here,
    // by name, rather than reaching the LLVM lowering.
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (isPlainChannelView(op) || isa<EmulatorOpInterface>(op))
        return false;
      auto layer = dyn_cast<LayerOpInterface>(op);
      return !layer || skipped(layer);
    });
    RewritePatternSet patterns(ctx);
    populateDLAToLinalgPatterns(patterns, ReferenceOptions{fp16Arithmetic});
    populateChannelViewReferencePatterns(patterns);
    populateEmulatorReferencePatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      return signalPassFailure();

    // Weights the layers now read as plain constants leave their relayouts
    // (and possibly the rounding and constant before them) without users:
    // erase them rather than have them packed for nothing. So does the
    // rounding of an fp16 weight read widened at compile time (else every
    // run would round the f32 weights again, into a buffer no one reads,
    // and the JIT would hold both copies).
    // (A set: an op feeding two erased ones is queued once, not erased twice.)
    llvm::SetVector<Operation *> worklist;
    getOperation()->walk([&](Operation *op) {
      if (isa<RelayoutOp, arith::TruncFOp>(op))
        worklist.insert(op);
    });
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!isOpTriviallyDead(op))
        continue;
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          worklist.insert(def);
      op->erase();
    }
  }
};

} // namespace
