//===- ChannelSlices.cpp - tosa.slice along channels -> dla.channel_slice -===//
//
// A slice of a layer's result along channels alone (attention's heads: q,
// k and v of one qkv projection, each head a channel range of its map,
// qdq_heads.py) is a view of the map: a layer reading it reads the
// parent's surfaces from the slice's first atom on, through its strides
// (ViewOps.cpp), so no host op sits between the projection and the
// heads. It must start on a channel atom (the format library's: 8 int8
// channels on nv_small, 32 on nv_full) and hold whole atoms unless it
// ends with its parent (a partial last atom's padding would be the
// parent's next channels); otherwise it stays on the host with the reason
// as a remark (the importer pads heads of 15 channels to 16 for nv_small).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaPrecision.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The first channel of `op` when it is a slice of an NCHW layer result or
/// view along channels alone, of the target's feature data; `why` says
/// why such a slice is no view (empty: not such a slice at all).
FailureOr<int64_t> planSlice(tosa::SliceOp op, const OffloadTarget &target, std::string &why) {
  why.clear();
  auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out || in.getRank() != 4 || !in.hasStaticShape() || !out.hasStaticShape() ||
      !isLayerOrView(op.getInput1().getDefiningOp()) ||
      in.getElementType() != target.getElementType(op.getContext()))
    return failure();
  SmallVector<int64_t> start, size;
  if (!tosa::getConstShapeValues(op.getStart().getDefiningOp(), start) ||
      !tosa::getConstShapeValues(op.getSize().getDefiningOp(), size))
    return failure();
  for (int d : {0, 2, 3})
    if (start[d] != 0 || out.getDimSize(d) != in.getDimSize(d))
      return failure(); // not along channels alone: data movement
  const int64_t first = start[1], channels = out.getDimSize(1), all = in.getDimSize(1);
  const int64_t atom =
      nv::getChannelsPerAtom(target.precision, target.config.caps.memoryAtomBytes);
  if (first % atom != 0) {
    why = "a slice along channels runs as a view only from a channel atom of " +
          std::to_string(atom) + " channels on; it starts at channel " + std::to_string(first);
    return failure();
  }
  if (channels % atom != 0 && first + channels != all) {
    why = "a slice along channels runs as a view only of whole channel atoms of " +
          std::to_string(atom) + " channels or up to its source's last channel; it holds " +
          std::to_string(channels) + " of " + std::to_string(all) + " from channel " +
          std::to_string(first);
    return failure();
  }
  return first;
}

LogicalResult rewriteSlice(tosa::SliceOp op, PatternRewriter &rewriter,
                           const OffloadTarget &target, std::string &why) {
  FailureOr<int64_t> first = planSlice(op, target, why);
  if (failed(first))
    return failure();
  rewriter.replaceOpWithNewOp<ChannelSliceOp>(op, op.getType(), op.getInput1(),
                                              static_cast<uint64_t>(*first));
  return success();
}

} // namespace

std::optional<std::string> tosa_to_dla::whyNotChannelSlice(tosa::SliceOp op,
                                                           const OffloadTarget &target) {
  return whyNotView([&](std::string &why) { return planSlice(op, target, why); });
}

void tosa_to_dla::populateChannelSlicePatterns(RewritePatternSet &patterns,
                                               const OffloadTarget &target) {
  patterns.add<ViewRewrite<tosa::SliceOp>>(patterns.getContext(), target, rewriteSlice);
}
