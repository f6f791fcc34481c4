//===- NvdlaAlignmentTest.cpp - The NVDLA alignment table -----------------===//
//
// Every row of "Requirements of alignment" in the NVDLA in-memory format
// document, copied here by hand (NA and blank cells are 0).
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaAlignment.h"

#include <gtest/gtest.h>

using namespace dlaformat::nvdla;

namespace {

struct DocRow {
  AlignedData data;
  int64_t start, line, surface, planar, size;
};

// Data format               start line surface planar/cube data size
const DocRow kDocument[] = {
    {AlignedData::FeatureData, 32, 32, 32, 32, 0},     // NA
    {AlignedData::Weight, 256, 0, 0, 0, 128},          // NA NA NA
    {AlignedData::WeightMaskBits, 256, 0, 0, 0, 128},  // NA NA NA
    {AlignedData::WeightGroupSize, 256, 0, 0, 0, 128}, // NA NA NA
    {AlignedData::PitchLinearPixel, 32, 32, 0, 0, 0},  // (blank) NA NA
    {AlignedData::Bias, 32, 32, 32, 0, 0},             // NA NA
    {AlignedData::PReLU, 32, 0, 0, 0, 0},              // N/A N/A NA NA
    {AlignedData::BatchNorm, 32, 0, 0, 0, 0},          // NA NA NA NA
    {AlignedData::ElementWise, 32, 32, 0, 0, 32},      // NA NA
};

void expectRow(const DocRow &doc) {
  const AlignmentRule &rule = getAlignment(doc.data);
  EXPECT_EQ(rule.data, doc.data);
  EXPECT_EQ(rule.startAddress, doc.start) << rule.name;
  EXPECT_EQ(rule.lineStride, doc.line) << rule.name;
  EXPECT_EQ(rule.surfaceStride, doc.surface) << rule.name;
  EXPECT_EQ(rule.planarStride, doc.planar) << rule.name;
  EXPECT_EQ(rule.dataSize, doc.size) << rule.name;
}

TEST(NvdlaAlignment, TableHasOneRowPerDataInOrder) {
  ASSERT_EQ(alignmentTable().size(), std::size(kDocument));
  for (size_t i = 0; i < alignmentTable().size(); ++i)
    EXPECT_EQ(static_cast<size_t>(alignmentTable()[i].data), i);
}

TEST(NvdlaAlignment, FeatureDataRow) { expectRow(kDocument[0]); }
TEST(NvdlaAlignment, WeightRow) { expectRow(kDocument[1]); }
TEST(NvdlaAlignment, WeightMaskBitsRow) { expectRow(kDocument[2]); }
TEST(NvdlaAlignment, WeightGroupSizeRow) { expectRow(kDocument[3]); }
TEST(NvdlaAlignment, PitchLinearPixelRow) { expectRow(kDocument[4]); }
TEST(NvdlaAlignment, BiasRow) { expectRow(kDocument[5]); }
TEST(NvdlaAlignment, PReLURow) { expectRow(kDocument[6]); }
TEST(NvdlaAlignment, BatchNormRow) { expectRow(kDocument[7]); }
TEST(NvdlaAlignment, ElementWiseRow) { expectRow(kDocument[8]); }

// nv_small's 8-byte atom: every atom-sized requirement shrinks to 8 bytes,
// the weight rows (convolution-buffer entries) stay; nv_full's atom gives
// the document back.
TEST(NvdlaAlignment, AtomSizedRowsFollowTheMemoryAtom) {
  for (const DocRow &doc : kDocument) {
    AlignmentRule full = getAlignment(doc.data, 32);
    EXPECT_EQ(full.startAddress, doc.start);
    EXPECT_EQ(full.dataSize, doc.size);
    AlignmentRule small = getAlignment(doc.data, 8);
    bool weight = doc.start == 256;
    auto scaled = [&](int64_t v) { return weight || v != 32 ? v : 8; };
    EXPECT_EQ(small.startAddress, scaled(doc.start)) << small.name;
    EXPECT_EQ(small.lineStride, scaled(doc.line)) << small.name;
    EXPECT_EQ(small.surfaceStride, scaled(doc.surface)) << small.name;
    EXPECT_EQ(small.planarStride, scaled(doc.planar)) << small.name;
    EXPECT_EQ(small.dataSize, scaled(doc.size)) << small.name;
  }
  EXPECT_EQ(getAlignment(AlignedData::FeatureData, 8).lineStride, 8);
  EXPECT_EQ(getAlignment(AlignedData::Weight, 8).startAddress, 256);
}

TEST(NvdlaAlignment, RowNamesAreTheDocumentsDataFormats) {
  EXPECT_EQ(getAlignment(AlignedData::FeatureData).name, "feature data cube");
  EXPECT_EQ(getAlignment(AlignedData::WeightMaskBits).name, "WMB");
  EXPECT_EQ(getAlignment(AlignedData::WeightGroupSize).name, "WGS");
  EXPECT_EQ(getAlignment(AlignedData::PitchLinearPixel).name, "pitch linear pixel");
  EXPECT_EQ(getAlignment(AlignedData::ElementWise).name, "element-wise");
}

TEST(NvdlaAlignment, AlignUp) {
  EXPECT_EQ(alignUp(0, 32), 0);
  EXPECT_EQ(alignUp(1, 32), 32);
  EXPECT_EQ(alignUp(32, 32), 32);
  EXPECT_EQ(alignUp(33, 32), 64);
  EXPECT_EQ(alignUp(129, 128), 256);
  EXPECT_EQ(alignUp(7, 0), 7); // NA: no requirement
  EXPECT_EQ(alignUp(7, 1), 7);
}

} // namespace
