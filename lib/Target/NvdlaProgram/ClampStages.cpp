//===- ClampStages.cpp - dla.clamp as the SDP program it runs as ----------===//
//
// The SDP descriptors are written from dla.sdp's stage form; a clamp is
// that form's two X-stage ALU operations with register operands
// (ClampOp::getXStages), so the register plan states it as such an SDP
// and programs it as any other.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Target/NvdlaProgram.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::dla;

namespace {
struct ClampToStages : OpRewritePattern<ClampOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ClampOp clamp, PatternRewriter &rewriter) const override {
    auto [bs, bn] = clamp.getXStages();
    auto sdp = SdpOp::create(rewriter, clamp.getLoc(), clamp.getOutput().getType(),
                             SdpMode::Offline, clamp.getInput());
    sdp.setBsAttr(bs);
    sdp.setBnAttr(bn);
    sdp.setOutCvtAttr(clamp.getOutCvtAttr());
    sdp.setPipelinePrecisionAttr(clamp.getPipelinePrecisionAttr());
    rewriter.replaceOp(clamp, sdp.getResult());
    return success();
  }
};
} // namespace

void mlir::dla::regplan::stateClampStages(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  patterns.add<ClampToStages>(root->getContext());
  walkAndApplyPatterns(root, std::move(patterns));
}
