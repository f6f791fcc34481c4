//===- WeightStreamLayers.cpp - Layers split to write weight streams -----===//
//
// dla.as_weights reads its source as the interleaved weight stream
// (getWeightStreamType), which a layer writes in place when the source is
// its whole result (ChannelViews.cpp, placeWeightStream). A view of a
// result -- a channel slice, a reshape_view -- cannot be: the slice keeps
// its parent's planar surfaces, so each such source is copied into the
// stream by a dla.relayout (on nv_small, no BDMA: the host, between the
// layers; the loadable writer refuses such a segment). The attention's
// q_h and v_h are that: 16-channel views of one requantization of the
// qkv part, read as [1, 16, 5, 8] (docs/WholeNetworks.md, "The heads read
// as [1, 16, 5, 8] in place").
//
// An offline SDP that reads nothing but its input computes each element
// from that element alone, so it commutes with the views: when every
// reader of its result is a chain of views ending in dla.as_weights, the
// layer is run once per chain, on the same views of its input, and each
// copy's result is the whole source of its as_weights -- a layer's result,
// which layout assignment retypes to the stream. The same bytes are read
// and written (N smaller passes instead of one and N copies).
//
//===----------------------------------------------------------------------===//

#include "LayoutNets.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::dla;

namespace {

/// The views from `use` (a use of a layer's result) to the dla.as_weights
/// that reads them, in order, each read by the next alone; none when the
/// chain ends elsewhere or is empty.
SmallVector<Operation *> viewChainToWeights(OpOperand &use) {
  SmallVector<Operation *> chain;
  Operation *op = use.getOwner();
  while (isa<ChannelSliceOp, ReshapeViewOp>(op)) {
    chain.push_back(op);
    Value result = op->getResult(0);
    if (!result.hasOneUse())
      return {};
    op = *result.getUsers().begin();
  }
  if (!isa<AsWeightsOp>(op))
    return {};
  return chain;
}

/// An offline dla.sdp with no operand but its input (register operands
/// only: element by element) whose result only views read as weights.
struct SplitSdpReadAsWeights : OpRewritePattern<SdpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SdpOp sdp, PatternRewriter &rewriter) const override {
    if (sdp.getMode() != SdpMode::Offline || sdp->getNumOperands() != 1 ||
        sdp.getOutput().use_empty())
      return failure();
    SmallVector<SmallVector<Operation *>> chains;
    for (OpOperand &use : sdp.getOutput().getUses()) {
      chains.push_back(viewChainToWeights(use));
      if (chains.back().empty())
        return failure();
    }
    for (ArrayRef<Operation *> chain : chains) {
      Operation *weights = *chain.back()->getResult(0).getUsers().begin();
      rewriter.setInsertionPoint(weights);
      // The chain's views of the layer's input; a slice of a slice is one.
      Value source = sdp.getInput();
      for (Operation *view : chain) {
        auto slice = dyn_cast<ChannelSliceOp>(view);
        auto inner = source.getDefiningOp<ChannelSliceOp>();
        if (slice && inner) {
          source = ChannelSliceOp::create(rewriter, view->getLoc(), slice.getType(),
                                          inner.getSource(), inner.getOffset() + slice.getOffset());
          continue;
        }
        IRMapping map;
        map.map(view->getOperand(0), source);
        source = rewriter.clone(*view, map)->getResult(0);
      }
      IRMapping map;
      map.map(sdp.getInput(), source);
      Operation *copy = rewriter.clone(*sdp, map);
      copy->getResult(0).setType(cast<RankedTensorType>(chain.back()->getResult(0).getType()));
      rewriter.modifyOpInPlace(weights, [&] { weights->setOperand(0, copy->getResult(0)); });
      for (Operation *view : llvm::reverse(chain))
        rewriter.eraseOp(view);
    }
    rewriter.eraseOp(sdp); // its input's views (a slice of the qkv map) go when unread
    return success();
  }
};

} // namespace

void mlir::dla::splitLayersReadAsWeights(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  patterns.add<SplitSdpReadAsWeights>(func.getContext());
  // Only this rewrite on the offline SDPs, no folding; ops the rewrites
  // leave unread go (the part's slice of the map), nothing else of the
  // function is touched.
  SmallVector<Operation *> sdps;
  func.walk([&](SdpOp sdp) {
    if (sdp.getMode() == SdpMode::Offline)
      sdps.push_back(sdp);
  });
  (void)applyOpPatternsGreedily(sdps, std::move(patterns),
                                GreedyRewriteConfig()
                                    .enableFolding(false)
                                    .enableConstantCSE(false)
                                    .setStrictness(GreedyRewriteStrictness::AnyOp));
}
