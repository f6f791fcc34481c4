//===- ReshapeViews.cpp - tosa.reshape of a map's positions -> a view -----===//
//
// A reshape of a layer's result (or a view of one) that changes its
// positions alone, [N, C, H, W] -> [N, C, H', W'], moves no byte on NVDLA
// feature data when the source's lines follow each other with no gap: the
// attention core reads k_h's one-row map of 40 keys as 5 x 8
// (AttentionSoftmax.cpp), which is the same bytes with lines of 8 atoms.
// Such a reshape becomes dla.reshape_view (ViewOps.cpp), so no host op and
// no transition sits between the head's view and the layer reading it.
// The format library decides (getInPlaceReshape, on the source's packed
// feature layout, the layout the layers write); any other reshape of a
// layer's NCHW result that a layer reads stays on the host with the reason
// as a remark.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaFeature.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Success when `op` reshapes the positions of a layer's NCHW result or
/// view of the target's feature data in place; `why` says why such a
/// reshape is no view (empty: not a reshape of a layer's result at all).
LogicalResult planReshape(tosa::ReshapeOp op, const OffloadTarget &target, std::string &why) {
  why.clear();
  auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out || in.getRank() != 4 || !in.hasStaticShape() || !out.hasStaticShape() ||
      !isLayerOrView(op.getInput1().getDefiningOp()) ||
      in.getElementType() != target.getElementType(op.getContext()))
    return failure();
  auto shape = [](RankedTensorType t) {
    std::string s;
    for (int64_t d : t.getShape())
      s += (s.empty() ? "" : "x") + std::to_string(d);
    return s;
  };
  // A reshape handing a layer's result to the host (as the boundary's
  // [1, C, 1, 1] -> [1, 1, 1, C]) is data movement there: only one between
  // layers says why it is no view.
  const bool betweenLayers =
      llvm::any_of(op->getUsers(), [](Operation *user) { return isLayerOrView(user); });
  ArrayRef<int64_t> s = in.getShape(), r = out.getShape();
  if (out.getRank() != 4 || r[0] != s[0] || r[1] != s[1]) {
    if (!betweenLayers)
      return failure();
    why = "a reshape of a layer's result runs as a view only of its positions (N and C kept, "
          "rank 4); it reshapes " + shape(in) + " to " + shape(out);
    return failure();
  }
  nv::FeatureConfig config;
  config.precision = target.precision;
  config.hardware = target.config.kind;
  auto source = nv::FeatureBoundLayout::bind(config, {s.begin(), s.end()});
  if (!source) {
    if (betweenLayers)
      why = source.message();
    return failure();
  }
  // Never fails, so no reason to give: the layers write the source packed
  // (no gap between its lines, whose atoms are memory atoms, the line
  // stride's alignment), and H' W' = H W with every extent at least 1
  // (tosa.reshape keeps the count of its conformant tensors), so lines of
  // W' atoms over the same surfaces read every byte in place
  // (NvdlaFeatureReshapeTest PackedSourcesRegroupInPlace).
  return success(nv::getInPlaceReshape(**source, r[2], r[3]).has_value());
}

LogicalResult rewriteReshape(tosa::ReshapeOp op, PatternRewriter &rewriter,
                             const OffloadTarget &target, std::string &why) {
  if (failed(planReshape(op, target, why)))
    return failure();
  rewriter.replaceOpWithNewOp<ReshapeViewOp>(op, op.getType(), op.getInput1());
  return success();
}

} // namespace

std::optional<std::string> tosa_to_dla::whyNotReshapeView(tosa::ReshapeOp op,
                                                          const OffloadTarget &target) {
  return whyNotView([&](std::string &why) { return planReshape(op, target, why); });
}

void tosa_to_dla::populateReshapeViewPatterns(RewritePatternSet &patterns,
                                              const OffloadTarget &target) {
  patterns.add<ViewRewrite<tosa::ReshapeOp>>(patterns.getContext(), target, rewriteReshape);
}
