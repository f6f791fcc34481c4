//===- ChannelViews.cpp - Channel views in layout assignment -------------===//
//
// dla.channel_slice / dla.channel_concat take part in layout assignment as
// feature data in, feature data out (a layer reading or writing a view then
// costs no relayout: feature encodings that differ in strides only accept
// one another). Once the layouts are chosen, each view takes its parent's
// strides, as the verifiers require: a slice's result those of its source,
// a concatenation's inputs those of its result. An input a layer, a
// relayout or an inner join produces, read otherwise only by layers and
// relayouts, is retyped in place (an inner join with its parts), so the
// producer writes straight into the parent; any other input is copied.
// dla.as_weights takes part as the format library's weight-stream feature
// encoding in, direct weights out (AsWeightsOp.cpp); its source then takes
// the stream's strides the same way. dla.reshape_view's result takes the
// strides under which it is its source's bytes (the format library's).
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

/// Whether `v`, a part of `join`, can be retyped to its view `want` in
/// place, so that its producer writes straight into the joined tensor:
/// the producer is a layer or a relayout, or a join itself (then each of
/// its parts, recursively: a join of joins, as a depthwise layer's channel
/// slices joined before a skip connection's join), and every other reader
/// is a layer or a relayout, which read feature data through its strides
/// (not a view, whose strides are fixed already, nor a second join).
static bool canPlace(Value v, RankedTensorType want, Operation *join) {
  Operation *producer = v.getDefiningOp();
  if (!want || !producer ||
      !llvm::all_of(v.getUsers(), [&](Operation *user) {
        return user == join || isa<LayerOpInterface, RelayoutOp>(user);
      }) ||
      llvm::count_if(v.getUses(), [&](OpOperand &use) { return use.getOwner() == join; }) != 1)
    return false;
  if (isa<RelayoutOp, LayerOpInterface>(producer))
    return true;
  auto inner = dyn_cast<ChannelConcatOp>(producer);
  return inner && llvm::all_of(inner.getInputs(), [&](Value part) {
           return canPlace(part, viewType(cast<RankedTensorType>(part.getType()), want), inner);
         });
}

/// canPlace's retyping, once it said yes.
static void place(Value v, RankedTensorType want) {
  v.setType(want);
  if (auto inner = v.getDefiningOp<ChannelConcatOp>())
    for (Value part : inner.getInputs())
      place(part, viewType(cast<RankedTensorType>(part.getType()), want));
}

/// dla.as_weights reads its source as the direct weight stream: the source
/// takes the format library's interleaved encoding (getWeightStreamType)
/// where its producer writes it, when that is a layer or a relayout and
/// every other reader a layer, a relayout or another such view (they read
/// feature data through its strides); any other source is copied into it.
static void placeWeightStream(AsWeightsOp op, LayoutRewriteStats &stats) {
  Value source = op.getSource();
  auto type = cast<RankedTensorType>(source.getType());
  auto feature = dyn_cast_or_null<FeatureAttr>(type.getEncoding());
  if (!feature)
    return; // not feature data: the verifier says what is wrong
  FailureOr<RankedTensorType> want =
      getWeightStreamType(type, feature.getConfig(), [] { return InFlightDiagnostic(); });
  if (failed(want) || *want == type)
    return;
  Operation *producer = source.getDefiningOp();
  if (producer && isa<LayerOpInterface, RelayoutOp>(producer) &&
      llvm::all_of(source.getUsers(), llvm::IsaPred<LayerOpInterface, RelayoutOp, AsWeightsOp>)) {
    source.setType(*want);
    return;
  }
  OpBuilder b(op);
  const int64_t bytes = storageBytesOf(type) + storageBytesOf(*want);
  ++stats.relayouts;
  stats.relayoutBytes += bytes;
  mlir::emitRemark(op.getLoc())
      << "relayout costs " << bytes << " bytes: the source of 'dla.as_weights' is no layer's "
         "result that only layers read besides, so it is copied into the weight stream's "
         "interleaved surfaces";
  op.getSourceMutable().set(RelayoutOp::create(b, op.getLoc(), *want, source));
}

/// The type of dla.reshape_view's result under which it holds its source's
/// bytes in place (the format library's getInPlaceReshape), or null when
/// none does or either side is not feature data.
static RankedTensorType reshapedType(RankedTensorType view, RankedTensorType source) {
  auto feature = dyn_cast_or_null<FeatureAttr>(source.getEncoding());
  if (!feature || !isa_and_nonnull<FeatureAttr>(view.getEncoding()))
    return {};
  auto bound = bindTensorLayout(source, [] { return InFlightDiagnostic(); });
  if (failed(bound))
    return {};
  std::optional<fmt::nvdla::FeatureConfig> config = fmt::nvdla::getInPlaceReshape(
      static_cast<const fmt::nvdla::FeatureBoundLayout &>(**bound), view.getDimSize(2),
      view.getDimSize(3));
  if (!config)
    return {};
  return withEncoding(view, FeatureAttr::get(source.getContext(), feature.getPrecision(),
                                             *config->lineStride, *config->surfaceStride,
                                             *config->batchStride, feature.getConfig()));
}

/// dla.reshape_view takes the strides that keep its source's bytes; a
/// source whose lines have gaps (strides another view or layer chose) is
/// first copied into the packed layout, which always has them.
static void placeReshape(ReshapeViewOp op, LayoutRewriteStats &stats) {
  auto source = cast<RankedTensorType>(op.getSource().getType());
  auto type = op.getType();
  if (RankedTensorType want = reshapedType(type, source)) {
    op.getResult().setType(want);
    return;
  }
  auto feature = dyn_cast_or_null<FeatureAttr>(source.getEncoding());
  if (!feature || !isa_and_nonnull<FeatureAttr>(type.getEncoding()))
    return; // not feature data: the verifier says what is wrong
  RankedTensorType packed = withEncoding(
      source, FeatureAttr::get(source.getContext(), feature.getPrecision(), std::nullopt,
                               std::nullopt, std::nullopt, feature.getConfig()));
  RankedTensorType want = reshapedType(type, packed);
  if (!want)
    return; // the verifier says why
  OpBuilder b(op);
  const int64_t bytes = storageBytesOf(source) + storageBytesOf(packed);
  ++stats.relayouts;
  stats.relayoutBytes += bytes;
  mlir::emitRemark(op.getLoc())
      << "relayout costs " << bytes << " bytes: the source of 'dla.reshape_view' has lines "
         "with gaps that its rows would step over, so it is copied into the packed layout";
  op.getSourceMutable().set(RelayoutOp::create(b, op.getLoc(), packed, op.getSource()));
  op.getResult().setType(want);
}

void mlir::dla::assignChannelViewStrides(func::FuncOp func, LayoutRewriteStats &stats) {
  func.walk([&](Operation *op) {
    if (auto weights = dyn_cast<AsWeightsOp>(op)) {
      placeWeightStream(weights, stats);
      return;
    }
    if (auto reshape = dyn_cast<ReshapeViewOp>(op)) {
      placeReshape(reshape, stats);
      return;
    }
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
      if (canPlace(input.get(), want, concat)) {
        place(input.get(), want);
        continue;
      }
      OpBuilder b(concat);
      const int64_t bytes = storageBytesOf(type) + storageBytesOf(want);
      ++stats.relayouts;
      stats.relayoutBytes += bytes;
      mlir::emitRemark(concat.getLoc())
          << "relayout costs " << bytes << " bytes: input #" << input.getOperandNumber()
          << " of 'dla.channel_concat' is no layer's or join's result that only layers read "
             "besides, so it is copied into its place in the joined tensor";
      input.set(RelayoutOp::create(b, concat.getLoc(), want, input.get()));
    }
  });
}
