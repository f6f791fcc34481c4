//===- FuseElementwise.cpp - element-wise chains as one linalg.generic ----===//
//
// tosa-to-linalg writes one linalg.generic per TOSA op: a QuantizeLinear on
// the host is ten of them, each a buffer and a kernel call once lowered.
// Fusing the chain leaves one loop nest with the same scalar ops.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAFUSEELEMENTWISE
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

/// Loops all parallel, every operand and result a tensor without encoding.
bool isHostElementwise(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() != 0)
    return false;
  auto plain = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return !tensor || !tensor.getEncoding();
  };
  return llvm::all_of(op->getOperandTypes(), plain) && llvm::all_of(op->getResultTypes(), plain);
}

/// The consumer absorbs a producer that it alone reads.
struct FuseIntoConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!isHostElementwise(consumer))
      return failure();
    for (OpOperand &operand : consumer->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !producer->hasOneUse() || !isHostElementwise(producer) ||
          !linalg::areElementwiseOpsFusable(&operand))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        continue;
      for (auto [old, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(old, replacement,
                                   [&](OpOperand &use) { return use.getOwner() != producer; });
      rewriter.eraseOp(consumer);
      return success();
    }
    return failure();
  }
};

/// A transpose on host tensors as the generic it is (a permuted input
/// map): the element-wise ops around it then fuse with it (the NCHW <->
/// NHWC pair of an unfolded batch normalization left on the host).
struct GeneralizeTranspose : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op, PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || llvm::any_of(op->getOperandTypes(), [](Type type) {
          return cast<RankedTensorType>(type).getEncoding() != nullptr;
        }))
      return failure();
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

struct FuseElementwise : dla::impl::DLAFuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseIntoConsumer, GeneralizeTranspose>(&getContext());
    // A collapse_shape that only a chain's op reads, or an expand_shape of
    // such an op's result, folds into the op (it runs on the finer shape),
    // and the chain fuses across the reshape.
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, [](OpOperand *operand) {
      auto generic = dyn_cast<linalg::GenericOp>(operand->getOwner());
      if (!generic)
        generic = operand->get().getDefiningOp<linalg::GenericOp>();
      return generic && isHostElementwise(generic) && operand->get().hasOneUse();
    });
    // Only the fusion: folding would also fold the dla ops around (relayout
    // pairs are what executes the memory formats).
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false).setRegionSimplificationLevel(
        GreedySimplifyRegionLevel::Disabled);
    // Not converging within the driver's rounds leaves valid IR with some
    // chains unfused: nothing to report.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
