//===- ChannelViews.cpp - Channel views in layout assignment -------------===//
//
// dla.channel_slice / dla.channel_concat take part in layout assignment as
// feature data in, feature data out (a layer reading or writing a view then
// costs no relayout: feature encodings that differ in strides only accept
// one another). Once the layouts are chosen, each view takes its parent's
// strides, as the verifiers require: a slice's result those of its source,
// a concatenation's inputs those of its result. An input whose producer
// writes nothing else (a layer, a relayout) is retyped in place, so the
// producer writes straight into the parent; any other input is copied.
//
//===----------------------------------------------------------------------===//

#include "LayoutNets.h"

#include "dla/Format/NvdlaFeature.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

SmallVector<LayoutVariant> mlir::dla::getChannelViewVariants(Operation *op,
                                                             const fmt::Target &target) {
  if (!isa<ChannelViewOpInterface>(op))
    return {};
  SmallVector<LayoutVariant> variants = getFeatureLayoutVariants(op, target);
  for (const LayoutVariant &v : variants)
    if (llvm::is_contained(v.operands, Attribute()) || llvm::is_contained(v.results, Attribute()))
      return {}; // an element type the target has no feature data for
  return variants;
}

/// `view` with the line, surface and batch strides of `parent` (both
/// feature data), or null when either is not.
static RankedTensorType viewType(RankedTensorType view, RankedTensorType parent) {
  auto feature = dyn_cast_or_null<FeatureAttr>(parent.getEncoding());
  if (!feature || !isa_and_nonnull<FeatureAttr>(view.getEncoding()))
    return {};
  auto bound = bindTensorLayout(parent, [] { return InFlightDiagnostic(); });
  if (failed(bound))
    return {};
  const auto &p = static_cast<const ::dlaformat::nvdla::FeatureBoundLayout &>(**bound);
  auto strided = FeatureAttr::get(parent.getContext(), feature.getPrecision(), p.getLineStride(),
                                  p.getSurfaceStride(), p.getBatchStride(), feature.getConfig());
  return withEncoding(view, strided);
}

void mlir::dla::assignChannelViewStrides(func::FuncOp func, LayoutRewriteStats &stats) {
  func.walk([&](Operation *op) {
    if (auto slice = dyn_cast<ChannelSliceOp>(op)) {
      if (RankedTensorType want = viewType(slice.getType(), slice.getSource().getType()))
        slice.getResult().setType(want);
      return;
    }
    auto concat = dyn_cast<ChannelConcatOp>(op);
    if (!concat)
      return;
    for (OpOperand &input : concat->getOpOperands()) {
      auto type = cast<RankedTensorType>(input.get().getType());
      RankedTensorType want = viewType(type, concat.getType());
      if (!want || want == type)
        continue;
      Operation *producer = input.get().getDefiningOp();
      if (producer && input.get().hasOneUse() &&
          (isa<RelayoutOp>(producer) || isa<LayerOpInterface>(producer))) {
        input.get().setType(want);
        continue;
      }
      OpBuilder b(concat);
      const int64_t bytes = storageBytesOf(type) + storageBytesOf(want);
      ++stats.relayouts;
      stats.relayoutBytes += bytes;
      mlir::emitRemark(concat.getLoc())
          << "relayout costs " << bytes << " bytes: input #" << input.getOperandNumber()
          << " of 'dla.channel_concat' is no layer's only result, so it is copied into its "
             "place in the joined tensor";
      input.set(RelayoutOp::create(b, concat.getLoc(), want, input.get()));
    }
  });
}
