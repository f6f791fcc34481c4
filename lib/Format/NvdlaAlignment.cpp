//===- NvdlaAlignment.cpp - NVDLA alignment requirements -----------------===//

#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaPrecision.h"

using namespace dlaformat::nvdla;

const std::vector<AlignmentRule> &dlaformat::nvdla::alignmentTable() {
  // Columns: start address, line stride, surface stride, planar/cube stride,
  // data size. The pitch-linear row leaves the surface stride blank in the
  // document; its second plane starts at a 32-byte aligned address, which
  // the start-address column already requires.
  static const std::vector<AlignmentRule> table = {
      {AlignedData::FeatureData, "feature data cube", 32, 32, 32, 32, 0},
      {AlignedData::Weight, "uncompressed/compressed weight", 256, 0, 0, 0, 128},
      {AlignedData::WeightMaskBits, "WMB", 256, 0, 0, 0, 128},
      {AlignedData::WeightGroupSize, "WGS", 256, 0, 0, 0, 128},
      {AlignedData::PitchLinearPixel, "pitch linear pixel", 32, 32, 0, 0, 0},
      {AlignedData::Bias, "bias", 32, 32, 32, 0, 0},
      {AlignedData::PReLU, "PReLU", 32, 0, 0, 0, 0},
      {AlignedData::BatchNorm, "batch normalization", 32, 0, 0, 0, 0},
      {AlignedData::ElementWise, "element-wise", 32, 32, 0, 0, 32},
  };
  return table;
}

const AlignmentRule &dlaformat::nvdla::getAlignment(AlignedData data) {
  return alignmentTable()[static_cast<size_t>(data)];
}

AlignmentRule dlaformat::nvdla::getAlignment(AlignedData data, int64_t memoryAtomBytes) {
  AlignmentRule rule = getAlignment(data);
  switch (data) {
  case AlignedData::Weight:
  case AlignedData::WeightMaskBits:
  case AlignedData::WeightGroupSize:
    return rule;
  default:
    break;
  }
  for (int64_t *v : {&rule.startAddress, &rule.lineStride, &rule.surfaceStride,
                     &rule.planarStride, &rule.dataSize})
    if (*v == kDocumentAtomBytes)
      *v = memoryAtomBytes;
  return rule;
}
