//===- NvdlaWeightStream.h - Feature data that is a weight stream -*- C++ -*-===//
//
// A layer's result read as a convolution's weights (attention's q k^T and
// p v, docs/WholeNetworks.md): a [1, C, H, W] int8 map whose storage is
// byte for byte the direct weight stream of H x W 1x1 kernels of C
// channels, kernel h W + w. The direct stream holds a kernel group of
// atomic-K kernels as channel blocks of atomic-C, each block kernel after
// kernel (format.rst, NvdlaWeightDirect.cpp); the feature cube holds atom
// (s, h, w) at s x surface + h x line + w x atom. They agree when an atom
// is a channel block (atomic-C channels), a line of atoms is a kernel group
// (W = atomic-K) and the surfaces are interleaved line by line (surface
// stride W x atom, line stride C x W bytes): nv_small int8 only (8-byte
// atoms, atomic-C = atomic-K = 8). docs/NvdlaFormats.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAWEIGHTSTREAM_H
#define DLA_FORMAT_NVDLAWEIGHTSTREAM_H

#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaFeature.h"

#include <vector>

namespace dlaformat::nvdla {

/// The feature encoding under which a map of `featureShape` ([1, C, H, W])
/// in `precision` on `hardware` is the direct weight stream of H x W 1x1
/// kernels of C channels: explicit line and surface strides (the surfaces
/// interleaved line by line), none when the packed cube is that stream
/// already (one surface, or one line). Otherwise why no encoding is.
Expected<FeatureConfig> getWeightStreamFeature(HardwareKind hardware, Precision precision,
                                               const std::vector<int64_t> &featureShape);

/// The weights such a map is: {H x W, C, 1, 1}.
std::vector<int64_t> getWeightStreamShape(const std::vector<int64_t> &featureShape);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAWEIGHTSTREAM_H
