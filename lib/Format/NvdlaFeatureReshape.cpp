//===- NvdlaFeatureReshape.cpp - Reshapes of feature data in place --------===//
//
// A reshape of a feature cube's positions ([N, C, H, W] -> [N, C, H', W'],
// row-major) keeps every byte where the source's lines follow each other
// with no gap: a one-row map of 40 keys is a 5 x 8 map with lines of 8
// atoms and the same surfaces (the attention's k_h, docs/WholeNetworks.md).
// One place decides it for the dialect's verifier, the layout assignment
// and the conversion.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaFeature.h"

namespace dlaformat::nvdla {

bool keepsBytesInPlace(const FeatureBoundLayout &source, const FeatureBoundLayout &view) {
  const AtomCubeSpec &s = source.getCube().getSpec(), &v = view.getCube().getSpec();
  if (source.getConfig().precision != view.getConfig().precision ||
      source.getConfig().hardware != view.getConfig().hardware || s.batches != v.batches ||
      s.channels != v.channels || s.height * s.width != v.height * v.width ||
      source.getStorageBytes() != view.getStorageBytes())
    return false;
  const AtomCube &a = source.getCube(), &b = view.getCube();
  // getByteOffset(n, c, h, w) = batch term + channel term + position term.
  for (int64_t n = 0; n < s.batches; ++n)
    if (a.getByteOffset(n, 0, 0, 0) != b.getByteOffset(n, 0, 0, 0))
      return false;
  for (int64_t c = 0; c < s.channels; ++c)
    if (a.getByteOffset(0, c, 0, 0) != b.getByteOffset(0, c, 0, 0))
      return false;
  for (int64_t p = 0; p < s.height * s.width; ++p)
    if (a.getByteOffset(0, 0, p / s.width, p % s.width) !=
        b.getByteOffset(0, 0, p / v.width, p % v.width))
      return false;
  return true;
}

std::optional<FeatureConfig> getInPlaceReshape(const FeatureBoundLayout &source, int64_t height,
                                               int64_t width) {
  const AtomCubeSpec &s = source.getCube().getSpec();
  if (height <= 0 || width <= 0 || height * width != s.height * s.width)
    return std::nullopt;
  FeatureConfig config = source.getConfig();
  config.lineStride = width * source.getCube().getBytesPerAtom();
  config.surfaceStride = source.getSurfaceStride();
  config.batchStride = source.getBatchStride();
  auto view = FeatureBoundLayout::bind(config, {s.batches, s.channels, height, width});
  if (!view) {
    // strides no cube of this shape has: no view
    return std::nullopt;
  }
  if (!keepsBytesInPlace(source, **view))
    return std::nullopt;
  return config;
}

} // namespace dlaformat::nvdla
