//===- AsWeightsOp.cpp - dla.as_weights: a map read as 1x1 weights -------===//
//
// The verifier keeps the view a byte-for-byte reinterpretation on NVDLA:
// the source's encoding is the one the format library says is the direct
// weight stream (NvdlaWeightStream.h), the result's the direct int8 weights
// of the same configuration. The layout variant asks the format library
// for the same encoding, so layout assignment gives it to the producer.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/NvdlaWeightStream.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The target a module states (`dla.target`), if any: without one an
/// unencoded view is only the transpose.
std::optional<fmt::Target> statedTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->getAttrOfType<TargetAttr>(TargetAttr::kAttrName))
      return TargetAttr::lookup(op);
  return std::nullopt;
}

WeightAttr directWeights(MLIRContext *ctx, nv::Precision precision, nv::HardwareKind config) {
  return WeightAttr::get(ctx, nv::WeightFormat::Direct, precision, /*compressed=*/false,
                         std::nullopt, nv::PostExtension::None, 1, 1, config,
                         fmt::kDefaultWeightRounding, APFloat(0.0));
}

} // namespace

FailureOr<RankedTensorType> mlir::dla::getWeightStreamType(RankedTensorType source,
                                                           nv::HardwareKind config,
                                                           function_ref<InFlightDiagnostic()> emitError) {
  std::optional<nv::Precision> precision = getPrecision(source.getElementType());
  if (!precision)
    return emitError() << "reads " << source << ": no NVDLA precision";
  fmt::Expected<nv::FeatureConfig> feature =
      nv::getWeightStreamFeature(config, *precision, source.getShape().vec());
  if (!feature)
    return emitError() << feature.message();
  return RankedTensorType::get(
      source.getShape(), source.getElementType(),
      FeatureAttr::get(source.getContext(), *precision, feature->lineStride,
                       feature->surfaceStride, std::nullopt, config));
}

LogicalResult AsWeightsOp::verify() {
  RankedTensorType source = getSource().getType(), result = getResult().getType();
  if (source.getRank() != 4 || result.getRank() != 4)
    return emitOpError("reads an NCHW map and gives KCRS weights (rank 4), got ")
           << source << " and " << result;
  if (source.getElementType() != result.getElementType())
    return emitOpError() << "result " << result << " must have the element type of " << source;
  ArrayRef<int64_t> s = source.getShape();
  if (s[0] != 1)
    return emitOpError() << "reads one batch (a map [1, C, H, W]), got " << source;
  const std::vector<int64_t> want = nv::getWeightStreamShape(s.vec());
  if (result.getShape() != ArrayRef<int64_t>(want))
    return emitOpError() << "result " << result << " must be " << want[0] << "x" << want[1]
                         << "x1x1: the H x W positions of " << source
                         << " as 1x1 kernels of its channels";
  Attribute se = source.getEncoding(), re = result.getEncoding();
  auto emit = [&] { return emitOpError(); };
  if (!se && !re) {
    std::optional<fmt::Target> target = statedTarget(*this);
    if (!target || target->accelerator != fmt::Accelerator::Nvdla)
      return success();
    return getWeightStreamType(source, target->config, emit);
  }
  auto feature = dyn_cast_or_null<FeatureAttr>(se);
  auto weight = dyn_cast_or_null<WeightAttr>(re);
  if (!feature || !weight)
    return emitOpError() << "views NVDLA feature data (#dla.feature) as NVDLA weights "
                            "(#dla.weight), or tensors without encoding on both sides, got "
                         << source << " and " << result;
  if (weight.getFormat() != nv::WeightFormat::Direct || weight.getCompressed() ||
      weight.getPrecision() != feature.getPrecision() ||
      weight.getConfig() != feature.getConfig())
    return emitOpError() << "result " << result
                         << " must be uncompressed direct weights of the source's precision "
                            "and configuration ("
                         << directWeights(getContext(), feature.getPrecision(),
                                          feature.getConfig())
                         << ")";
  FailureOr<RankedTensorType> stream = getWeightStreamType(source, feature.getConfig(), emit);
  if (failed(stream))
    return failure();
  auto have = bindTensorLayout(source, emit), need = bindTensorLayout(*stream, emit);
  if (failed(have) || failed(need))
    return failure();
  const auto &h = static_cast<const nv::FeatureBoundLayout &>(**have);
  const auto &n = static_cast<const nv::FeatureBoundLayout &>(**need);
  // One surface ignores its surface stride, one line its line stride.
  if ((h.getNumSurfaces() > 1 && h.getSurfaceStride() != n.getSurfaceStride()) ||
      (s[2] > 1 && h.getLineStride() != n.getLineStride()))
    return emitOpError() << "source " << source
                         << " is not the weight stream of its kernels: its surfaces must be "
                            "interleaved line by line, surface stride "
                         << n.getSurfaceStride() << " and line stride " << n.getLineStride()
                         << " bytes, not " << h.getSurfaceStride() << " and "
                         << h.getLineStride();
  return success();
}

SmallVector<LayoutVariant> AsWeightsOp::getLayoutVariants(const fmt::Target &target) {
  if (target.accelerator != fmt::Accelerator::Nvdla)
    return {};
  RankedTensorType source = getSource().getType();
  FailureOr<RankedTensorType> stream =
      getWeightStreamType(source, target.config, [] { return InFlightDiagnostic(); });
  if (failed(stream))
    return {}; // the verifier says why
  LayoutVariant v;
  v.operands.push_back(stream->getEncoding());
  v.results.push_back(directWeights(getContext(), *getPrecision(source.getElementType()),
                                    target.config));
  return {v};
}

StringRef AsWeightsOp::getLayoutOperandName(unsigned) { return "input"; }
