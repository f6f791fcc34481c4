//===- ViewOps.cpp - dla.channel_slice / channel_concat / reshape_view ---===//
//
// Channel views: on NVDLA feature data a view is whole surfaces (channel
// atoms) of its parent with the parent's strides, so the parent's storage
// holds it from (first channel / atom) x surface stride on. The verifiers
// keep every view expressible as such an address offset. A reshape of the
// positions is a view at offset 0 when the format library finds every
// byte in place.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"

#include "dla/Format/NvdlaFeature.h"

#include <cstdint>

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The bound feature layout of `type` (a #dla.feature tensor).
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>> bindFeature(RankedTensorType type,
                                                                 Operation *op) {
  return bindTensorLayout(type, [op] { return op->emitOpError(); });
}

const nv::FeatureBoundLayout &asFeature(const ::dlaformat::BoundLayout &layout) {
  return static_cast<const nv::FeatureBoundLayout &>(layout);
}

/// N, H, W and element type of a view equal its parent's.
LogicalResult checkShapes(Operation *op, RankedTensorType view, RankedTensorType parent,
                          StringRef what) {
  if (view.getRank() != 4 || parent.getRank() != 4)
    return op->emitOpError("takes NCHW tensors (rank 4), got ") << view << " and " << parent;
  ArrayRef<int64_t> v = view.getShape(), p = parent.getShape();
  if (v[0] != p[0] || v[2] != p[2] || v[3] != p[3])
    return op->emitOpError() << what << " " << view
                             << " must have the N, H and W of " << parent;
  if (view.getElementType() != parent.getElementType())
    return op->emitOpError() << what << " " << view << " must have the element type of "
                             << parent;
  return success();
}

/// A view of `parent` at channel `first`: both without encoding, or both
/// feature data of one precision and configuration, the view on whole
/// atoms with the parent's strides.
/// `next` is the first channel after the view that another view holds
/// (INT64_MAX when none does): a partial last atom's padding must lie
/// before it.
LogicalResult checkView(Operation *op, RankedTensorType view, RankedTensorType parent,
                        int64_t first, StringRef what, int64_t next) {
  Attribute ve = view.getEncoding(), pe = parent.getEncoding();
  if (!ve && !pe)
    return success();
  auto vf = dyn_cast_or_null<FeatureAttr>(ve), pf = dyn_cast_or_null<FeatureAttr>(pe);
  if (!vf || !pf)
    return op->emitOpError() << "views NVDLA feature data (#dla.feature) or tensors without "
                                "encoding on both sides, got "
                             << view << " and " << parent;
  if (vf.getPrecision() != pf.getPrecision() || vf.getConfig() != pf.getConfig())
    return op->emitOpError() << what << " " << view
                             << " must have the precision and configuration of " << parent;
  auto vb = bindFeature(view, op), pb = bindFeature(parent, op);
  if (failed(vb) || failed(pb))
    return failure();
  const nv::FeatureBoundLayout &v = asFeature(**vb), &p = asFeature(**pb);
  const int64_t atom = p.getCube().getSpec().elementsPerAtom;
  const int64_t channels = view.getDimSize(1);
  if (first % atom != 0)
    return op->emitOpError() << what << " starts at channel " << first
                             << ", not on a channel atom of " << atom
                             << " channels: a view is whole surfaces of its parent";
  const int64_t atomEnd = (first + channels + atom - 1) / atom * atom;
  if (channels % atom != 0 && next == first + channels)
    return op->emitOpError() << what << " holds " << channels << " channels, not whole atoms of "
                             << atom << ", and does not end with its parent (its last atom's "
                                        "padding would be the parent's next channels)";
  if (channels % atom != 0 && atomEnd > next)
    return op->emitOpError() << what << " ends inside the atom of channels " << atomEnd - atom
                             << " .. " << atomEnd - 1 << ", and the next input starts at channel "
                             << next << ": its padding would be that input's channels (a padded "
                                        "concatenation starts each input on a whole atom)";
  if (v.getLineStride() != p.getLineStride() || v.getSurfaceStride() != p.getSurfaceStride() ||
      (view.getDimSize(0) > 1 && v.getBatchStride() != p.getBatchStride()))
    return op->emitOpError() << what << " has line, surface and batch strides " << v.getLineStride()
                             << ", " << v.getSurfaceStride() << ", " << v.getBatchStride()
                             << " bytes, its parent " << p.getLineStride() << ", "
                             << p.getSurfaceStride() << ", " << p.getBatchStride()
                             << ": a view shares its parent's strides";
  return success();
}

} // namespace

int64_t mlir::dla::getChannelViewByteOffset(RankedTensorType parent, int64_t firstChannel) {
  auto bound = bindTensorLayout(parent, [] { return InFlightDiagnostic(); });
  if (failed(bound) || !isa_and_nonnull<FeatureAttr>(parent.getEncoding()))
    return 0;
  const nv::FeatureBoundLayout &p = asFeature(**bound);
  return firstChannel / p.getCube().getSpec().elementsPerAtom * p.getSurfaceStride();
}

LogicalResult ChannelSliceOp::verify() {
  RankedTensorType source = getSource().getType(), result = getResult().getType();
  if (failed(checkShapes(*this, result, source, "result")))
    return failure();
  const int64_t first = static_cast<int64_t>(getOffset());
  if (first + result.getDimSize(1) > source.getDimSize(1))
    return emitOpError() << "channels " << first << " .. " << first + result.getDimSize(1) - 1
                         << " lie beyond the source's " << source.getDimSize(1);
  const int64_t end = first + result.getDimSize(1);
  return checkView(*this, result, source, first, "result",
                   end == source.getDimSize(1) ? INT64_MAX : end);
}

SmallVector<int64_t> ChannelConcatOp::getInputChannels() {
  if (std::optional<ArrayRef<int64_t>> offsets = getOffsets())
    return SmallVector<int64_t>(*offsets);
  SmallVector<int64_t> firsts;
  int64_t first = 0;
  for (Value input : getInputs()) {
    firsts.push_back(first);
    first += cast<RankedTensorType>(input.getType()).getDimSize(1);
  }
  return firsts;
}

LogicalResult ChannelConcatOp::verify() {
  RankedTensorType result = getResult().getType();
  if (getInputs().empty())
    return emitOpError("joins at least one input");
  if (getOffsets() && getOffsets()->size() != getInputs().size())
    return emitOpError() << "places " << getOffsets()->size() << " inputs (`at`), it joins "
                         << getInputs().size();
  SmallVector<int64_t> firsts = getInputChannels();
  int64_t end = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    std::string what = "input " + std::to_string(i);
    if (failed(checkShapes(*this, type, result, what)))
      return failure();
    if (firsts[i] < end)
      return emitOpError() << what << " starts at channel " << firsts[i] << ", before the end of "
                           << "the input before it (channel " << end << ")";
    end = firsts[i] + type.getDimSize(1);
    if (end > result.getDimSize(1))
      break;
    const bool last = i + 1 == getInputs().size();
    if (failed(checkView(*this, type, result, firsts[i], what, last ? INT64_MAX : firsts[i + 1])))
      return failure();
  }
  if (end != result.getDimSize(1))
    return emitOpError() << "inputs hold " << end << " channels or more, the result "
                         << result.getDimSize(1) << ": they must add up";
  return success();
}

LogicalResult ReshapeViewOp::verify() {
  RankedTensorType source = getSource().getType(), result = getResult().getType();
  if (source.getRank() != 4 || result.getRank() != 4)
    return emitOpError("takes NCHW tensors (rank 4), got ") << source << " and " << result;
  ArrayRef<int64_t> s = source.getShape(), r = result.getShape();
  if (s[0] != r[0] || s[1] != r[1] || s[2] * s[3] != r[2] * r[3])
    return emitOpError() << "reshapes positions alone: " << result
                         << " must have the N and C of " << source
                         << " and as many positions (H x W)";
  if (source.getElementType() != result.getElementType())
    return emitOpError() << "result " << result << " must have the element type of " << source;
  Attribute se = source.getEncoding(), re = result.getEncoding();
  if (!se && !re)
    return success();
  auto sf = dyn_cast_or_null<FeatureAttr>(se), rf = dyn_cast_or_null<FeatureAttr>(re);
  if (!sf || !rf)
    return emitOpError() << "views NVDLA feature data (#dla.feature) or tensors without "
                            "encoding on both sides, got "
                         << source << " and " << result;
  auto sb = bindFeature(source, *this), rb = bindFeature(result, *this);
  if (failed(sb) || failed(rb))
    return failure();
  if (!nv::keepsBytesInPlace(asFeature(**sb), asFeature(**rb)))
    return emitOpError() << "result " << result << " does not hold every element of " << source
                         << " at the same byte: a reshape view moves no byte (lines of W' "
                            "atoms, the source's surfaces and batches, its lines with no gap)";
  return success();
}
