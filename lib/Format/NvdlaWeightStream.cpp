//===- NvdlaWeightStream.cpp - Feature data that is a weight stream ------===//

#include "dla/Format/NvdlaWeightStream.h"

#include <string>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {
std::string str(int64_t v) { return std::to_string(v); }
} // namespace

std::vector<int64_t>
dlaformat::nvdla::getWeightStreamShape(const std::vector<int64_t> &featureShape) {
  if (featureShape.size() != 4)
    return {};
  return {featureShape[2] * featureShape[3], featureShape[1], 1, 1};
}

Expected<FeatureConfig>
dlaformat::nvdla::getWeightStreamFeature(HardwareKind hardware, Precision precision,
                                         const std::vector<int64_t> &featureShape) {
  const HardwareConfig &config = getHardwareConfig(hardware);
  const std::string what = "a map read as 1x1 convolution weights";
  if (featureShape.size() != 4)
    return makeError(what + " is NCHW (rank 4), got rank " + str(featureShape.size()));
  const int64_t n = featureShape[0], c = featureShape[1], h = featureShape[2],
                w = featureShape[3];
  if (precision != Precision::Int8)
    return makeError(what + " must be int8: a kernel group of 2-byte weights holds " +
                     str(config.getKernelsPerGroup(precision)) + " kernels, a line of " +
                     "feature atoms a different number of positions");
  const int64_t atom = config.caps.memoryAtomBytes; // int8: channels per atom
  if (atom != config.atomicC || config.atomicC != config.atomicK)
    return makeError(what + " needs a memory atom of atomic-C channels and atomic-C = "
                            "atomic-K; " +
                     std::string(config.name) + " has atoms of " + str(atom) +
                     " channels, atomic-C " + str(config.atomicC) + ", atomic-K " +
                     str(config.atomicK) + " (nv_small has 8, 8, 8)");
  if (n != 1)
    return makeError(what + " holds one batch, got N = " + str(n));
  if (c <= 0 || c % atom != 0)
    return makeError(what + " has " + str(c) + " channels, not a positive multiple of " +
                     str(atom) + ": the weight stream packs a short last channel block, "
                                 "the feature cube pads its atom");
  if (w != config.atomicK)
    return makeError(what + " is " + str(w) + " positions wide, not " + str(config.atomicK) +
                     ": a line of atoms must be one kernel group of atomic-K kernels");
  if (h <= 0)
    return makeError(what + " has no lines (H = " + str(h) + ")");
  FeatureConfig feature;
  feature.precision = precision;
  feature.hardware = hardware;
  const int64_t surfaces = c / atom;
  if (surfaces > 1 && h > 1) {
    // Each line holds every surface's line side by side: the channel
    // blocks of one kernel group one after another.
    feature.surfaceStride = w * atom;
    feature.lineStride = surfaces * *feature.surfaceStride;
  }
  return feature;
}
