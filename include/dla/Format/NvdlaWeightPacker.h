//===- NvdlaWeightPacker.h - Constant packer for NVDLA weights --*- C++ -*-===//
#ifndef DLA_FORMAT_NVDLAWEIGHTPACKER_H
#define DLA_FORMAT_NVDLAWEIGHTPACKER_H

#include "dla/Format/ConstantPacker.h"
#include "dla/Format/NvdlaWeight.h"

namespace dlaformat::nvdla {

/// A packer for NVDLA weights: one surface (the uncompressed stream), or
/// with `compressed` three: "wgs", "wmb", "data". Deconvolution sets are
/// compressed separately; each compressed surface then holds the sets'
/// regions one after another, each region starting at the weight start
/// alignment (256 B) within its surface. `transformRounding` rounds the
/// Winograd transform's fp32 results to fp16; the source's own rounding
/// (fp32 sources) rounds the weights themselves.
Expected<std::unique_ptr<ConstantPacker>>
makeNvdlaWeightPacker(const WeightParams &params, bool compressed,
                      Fp16Rounding transformRounding = kDefaultWeightRounding);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAWEIGHTPACKER_H
