//===- NvdlaConvBufferTest.cpp - Convolution-buffer planning --------------===//
//
// Numbers worked by hand from NVIDIA's compiler's formulas (the header's
// comment), per configuration.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaConvBuffer.h"

#include <gtest/gtest.h>

#include <limits>

using namespace dlaformat::nvdla;

namespace {

ConvBufferQuery conv(Precision p, int64_t c, int64_t h, int64_t w, int64_t k, int64_t r) {
  ConvBufferQuery q;
  q.precision = p;
  q.channels = c;
  q.height = h;
  q.width = w;
  q.kernels = k;
  q.kernelH = q.kernelW = r;
  q.padTop = q.padBottom = q.padLeft = q.padRight = r / 2;
  return q;
}

const HardwareConfig &full() { return getHardwareConfig(HardwareKind::NvFull); }
const HardwareConfig &small() { return getHardwareConfig(HardwareKind::NvSmall); }

TEST(NvdlaConvBuffer, FitsOnNvFull) {
  // 2 atoms of 32 in a 4-atom entry: ceil(2 * 56 / 4) = 28 entries a line;
  // 28 * 56 = 1568 entries = 7 banks; weights 36864 B = 288 entries = 2.
  auto p = planConvBuffer(full(), conv(Precision::Int8, 64, 56, 56, 64, 3));
  ASSERT_TRUE(p.ok()) << p.message();
  EXPECT_EQ(p->entriesPerLine, 28);
  EXPECT_EQ(p->dataBanks, 7);
  EXPECT_EQ(p->weightBanks, 2);
  EXPECT_EQ(p->kernelGroupBanks, 1); // 32 kernels: 18432 B = 144 entries
  EXPECT_EQ(p->mode, ConvBufferMode::FullInputFullWeight);
  EXPECT_EQ(p->numParts, 1);
}

TEST(NvdlaConvBuffer, CompressedWeightsLeaveTheMaskBank) {
  // 28 entries a line, 128 lines = 3584 entries = 14 banks; weights 2
  // banks, a group 1: uncompressed all 16 banks, compressed the 15 beside
  // the WMB bank (cmod/cdma CBUF_WMB_BANK), so one kernel group at a time.
  ConvBufferQuery q = conv(Precision::Int8, 64, 128, 56, 64, 3);
  auto plain = planConvBuffer(full(), q);
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(plain->dataBanks, 14);
  EXPECT_EQ(plain->mode, ConvBufferMode::FullInputFullWeight);
  q.compressedWeights = true;
  auto compressed = planConvBuffer(full(), q);
  ASSERT_TRUE(compressed.ok()) << compressed.message();
  EXPECT_EQ(compressed->mode, ConvBufferMode::OneKernelGroup);
  EXPECT_EQ(compressed->allottedWeightBanks, 1);
  EXPECT_EQ(getWeightBankChoices(full(), q), std::vector<int64_t>({2, 1}));
}

TEST(NvdlaConvBuffer, CompressedWeightsMaskFitsOneBank) {
  // 256 * 256 * 9 int8 weights: 589824 mask bits = 73728 bytes; a bank
  // holds 256 entries of 128 bytes.
  ConvBufferQuery q = conv(Precision::Int8, 256, 8, 8, 256, 3);
  q.compressedWeights = true;
  EXPECT_EQ(whyNotCompressedMask(full(), q),
            "the compressed weights' mask (WMB) takes 73728 bytes, more than the one bank of "
            "32768 bytes NVDLA streams it through");
  q.kernels = 64; // 147456 bits: 18432 bytes
  EXPECT_EQ(whyNotCompressedMask(full(), q), "");
  auto s = planConvBuffer(small(), conv(Precision::Int8, 8, 8, 8, 8, 3));
  ASSERT_TRUE(s.ok());
  ConvBufferQuery sq = conv(Precision::Int8, 8, 8, 8, 8, 3);
  sq.compressedWeights = true;
  auto sp = planConvBuffer(small(), sq);
  ASSERT_FALSE(sp.ok());
  EXPECT_EQ(sp.message(),
            "convolution buffer: nv_small has no weight compression (WEIGHT_COMPRESSION_DISABLE)");
}

TEST(NvdlaConvBuffer, BatchHoldsEveryInput) {
  // 28 entries a line, 56 lines: 1568 entries an input; a batch of 2 is
  // 3136 = 13 banks of 256 beside the weights' 2; a batch of 3 is 4704 = 19
  // banks, not even beside one group's.
  ConvBufferQuery q = conv(Precision::Int8, 64, 56, 56, 64, 3);
  q.batches = 2;
  auto two = planConvBuffer(full(), q);
  ASSERT_TRUE(two.ok()) << two.message();
  EXPECT_EQ(two->dataBanks, 13);
  EXPECT_EQ(two->mode, ConvBufferMode::FullInputFullWeight);
  q.batches = 3;
  auto three = planConvBuffer(full(), q);
  ASSERT_FALSE(three.ok());
  EXPECT_EQ(three.message(), "convolution buffer: a batch of 3 inputs takes 19 banks beside one "
                             "kernel group's 1, the buffer has 16; NVDLA's batch mode holds "
                             "every input whole (cut the batch)");
  q.batches = 2;
  q.winograd = true;
  auto wino = planConvBuffer(full(), q);
  ASSERT_FALSE(wino.ok());
  EXPECT_EQ(wino.message(), "convolution buffer: Winograd takes one input, not a batch of 2 "
                            "(cmod/csc: batches are direct convolutions')");
}

TEST(NvdlaConvBuffer, SplitsByHeightOnNvSmall) {
  // 8-byte atoms and entries: 8 entries per pixel, 448 a line, 49 banks of
  // 512 for 56 lines; weights 9 banks, a group of 8 kernels 2. Beside all
  // weights 23 banks = 11776 entries = 26 input rows = 24 output rows of a
  // 3-row window: 56 output rows in 3 parts.
  auto p = planConvBuffer(small(), conv(Precision::Int8, 64, 56, 56, 64, 3));
  ASSERT_TRUE(p.ok()) << p.message();
  EXPECT_EQ(p->entriesPerLine, 448);
  EXPECT_EQ(p->dataBanks, 49);
  EXPECT_EQ(p->weightBanks, 9);
  EXPECT_EQ(p->kernelGroupBanks, 2);
  EXPECT_EQ(p->mode, ConvBufferMode::PartialHeight);
  EXPECT_EQ(p->allottedWeightBanks, 9);
  EXPECT_EQ(p->outputRowsPerPart, 24);
  EXPECT_EQ(p->numParts, 3);
}

TEST(NvdlaConvBuffer, RowBandsOfThePartialHeightSplit) {
  // The 3 bands of 24 output rows above: output rows [0, 24) read input
  // rows -1 .. 24 (row -1 is padding), [24, 48) rows 23 .. 48, [48, 56)
  // rows 47 .. 56 (row 56 is padding); 25 rows of 448 entries take 22
  // banks of 512, 26 rows 23.
  const ConvBufferQuery q = conv(Precision::Int8, 64, 56, 56, 64, 3);
  ConvRowBand b0 = getConvRowBand(q, 0, 24), b1 = getConvRowBand(q, 24, 48),
              b2 = getConvRowBand(q, 48, 56);
  EXPECT_EQ(b0.first, 0);
  EXPECT_EQ(b0.end, 25);
  EXPECT_EQ(b0.padTop, 1);
  EXPECT_EQ(b0.padBottom, 0);
  EXPECT_EQ(b1.first, 23);
  EXPECT_EQ(b1.end, 49);
  EXPECT_EQ(b1.padTop + b1.padBottom, 0);
  EXPECT_EQ(b2.first, 47);
  EXPECT_EQ(b2.end, 56);
  EXPECT_EQ(b2.padTop, 0);
  EXPECT_EQ(b2.padBottom, 1);
  EXPECT_EQ(getConvDataBanks(small(), 448, b0.rows()), 22);
  EXPECT_EQ(getConvDataBanks(small(), 448, b1.rows()), 23);
}

TEST(NvdlaConvBuffer, KernelGroupModes) {
  // 4 atoms = one entry a pixel: 64 entries a line; 48 lines = 12 banks.
  // Weights 512x128x3x3 = 18 banks, a group of 32 kernels 2.
  auto pp = planConvBuffer(full(), conv(Precision::Int8, 128, 48, 64, 512, 3));
  ASSERT_TRUE(pp.ok()) << pp.message();
  EXPECT_EQ(pp->dataBanks, 12);
  EXPECT_EQ(pp->weightBanks, 18);
  EXPECT_EQ(pp->mode, ConvBufferMode::PingPongWeights);
  EXPECT_EQ(pp->allottedWeightBanks, 4);
  // 52 lines = 13 banks: two groups no longer fit, one does.
  auto one = planConvBuffer(full(), conv(Precision::Int8, 128, 52, 64, 512, 3));
  ASSERT_TRUE(one.ok()) << one.message();
  EXPECT_EQ(one->mode, ConvBufferMode::OneKernelGroup);
  EXPECT_EQ(one->allottedWeightBanks, 2);
}

TEST(NvdlaConvBuffer, ThreeAtomsTakeAWholeEntry) {
  // fp16: 48 channels = 96 B = 3 atoms: W entries (NVIDIA's rule), not
  // ceil(3 W / 4); 32 channels = 2 atoms: ceil(2 * 10 / 4) = 5.
  EXPECT_EQ(planConvBuffer(full(), conv(Precision::Fp16, 48, 4, 10, 16, 1))->entriesPerLine, 10);
  EXPECT_EQ(planConvBuffer(full(), conv(Precision::Fp16, 32, 4, 10, 16, 1))->entriesPerLine, 5);
}

TEST(NvdlaConvBuffer, FewerAllottedBanksForceASplit) {
  ConvBufferQuery q = conv(Precision::Int8, 64, 56, 56, 64, 3);
  q.banks = 4; // 2 for weights, 2 * 256 entries = 18 rows of 28 entries
  auto p = planConvBuffer(full(), q);
  ASSERT_TRUE(p.ok()) << p.message();
  EXPECT_EQ(p->mode, ConvBufferMode::PartialHeight);
  EXPECT_EQ(p->outputRowsPerPart, 16);
  EXPECT_EQ(p->numParts, 4);
  q.banks = 17;
  EXPECT_EQ(planConvBuffer(full(), q).message(),
            "convolution buffer: 17 banks requested, nv_full has 16 (CBUF_BANK_NUMBER)");
}

TEST(NvdlaConvBuffer, OneRowTooWide) {
  // 2048 atoms a pixel, 8192 entries a line of 4: 16 banks; one group of 8
  // kernels 131072 B = 16384 entries = 32 banks, the whole buffer: neither
  // a row nor a column fits beside it.
  auto p = planConvBuffer(small(), conv(Precision::Int8, 16384, 1, 4, 8, 1));
  EXPECT_EQ(p.message(), "convolution buffer: one output row reads 1 input rows of 8192 "
                         "entries, 16 banks beside the 32 banks of its weights; the buffer "
                         "has 32 banks of 512 entries; nor does one output column's window "
                         "(2048 entries a line): cutting its input channels, with the SDP "
                         "adding each part's sums to the previous part's, is programmed for "
                         "fp16 pipelines only (an integer pipeline's parts would hand on "
                         "int16 partial sums through offline SDP adds: not programmed)");
  // int8: not cut, for the same reason.
  EXPECT_EQ(planConvChannelCut(small(), conv(Precision::Int8, 16384, 1, 4, 8, 1)).message(),
            p.message());
}

TEST(NvdlaConvBuffer, CutsInputChannelsOnNvFull) {
  // fp16, 2048 channels = 128 atoms of 16, 16 kernels (one group) of 3x3:
  // 2048 * 9 * 16 * 2 B = 4608 entries of 128 B = 18 banks, more than 16.
  // n atoms: weights ceil(n * 4608 / 32768) banks beside 2 banks of data
  // (4 rows of 4 columns, ceil(n / 4) * 4 entries a line): n = 99 takes
  // 14 + 2, n = 100 15 + 2 (and 1 spare bank holds 2 of its lines, no
  // 3-row window). 128 atoms in 2 parts of 64: 1024 channels each.
  const ConvBufferQuery q = conv(Precision::Fp16, 2048, 4, 4, 16, 3);
  EXPECT_EQ(planConvBuffer(full(), q).message(),
            "convolution buffer: one output row reads 3 input rows of 128 entries, 2 banks "
            "beside the 18 banks of its weights; the buffer has 16 banks of 256 entries; nor "
            "does one output column's window (96 entries a line): its input channels must be "
            "cut (--dla-split-convolutions)");
  auto cut = planConvChannelCut(full(), q);
  ASSERT_TRUE(cut.ok()) << cut.message();
  EXPECT_EQ(cut->channelsPerPart, 1024);
  EXPECT_EQ(cut->numParts, 2);
  ConvBufferQuery part = q;
  part.channels = 99 * 16;
  EXPECT_TRUE(planConvBuffer(full(), part).ok());
  part.channels = 100 * 16;
  EXPECT_FALSE(planConvBuffer(full(), part).ok());
  // 2056 channels: 129 atoms, 2 parts of 65 atoms (1040 channels), the
  // last 1016.
  auto odd = planConvChannelCut(full(), conv(Precision::Fp16, 2056, 4, 4, 16, 3));
  ASSERT_TRUE(odd.ok()) << odd.message();
  EXPECT_EQ(odd->channelsPerPart, 1040);
  EXPECT_EQ(odd->numParts, 2);
  // A layer that fits is one part.
  auto whole = planConvChannelCut(full(), conv(Precision::Fp16, 64, 4, 4, 16, 3));
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->numParts, 1);
  EXPECT_EQ(whole->channelsPerPart, 64);
}

TEST(NvdlaConvBuffer, CutsChannelsBeyondOneLayers) {
  // A fully connected layer of 9000 fp16 inputs (1x1 over one pixel) by 16
  // outputs: 288000 B of weights = 2250 entries = 9 banks, its one pixel
  // 141 entries: the buffer holds it, one layer's DATAIN_CHANNEL (8192)
  // does not. 563 atoms of 16, at most 512 a part: 2 parts of 282 atoms.
  const ConvBufferQuery fc = conv(Precision::Fp16, 9000, 1, 1, 16, 1);
  ASSERT_TRUE(planConvBuffer(full(), fc).ok());
  auto cut = planConvChannelCut(full(), fc);
  ASSERT_TRUE(cut.ok()) << cut.message();
  EXPECT_EQ(cut->numParts, 2);
  EXPECT_EQ(cut->channelsPerPart, 282 * 16);
  EXPECT_TRUE(cut->channelLimit);
  // int8: refused, with the limit and the reason.
  EXPECT_EQ(planConvChannelCut(full(), conv(Precision::Int8, 9000, 1, 1, 16, 1)).message(),
            "convolution buffer: its 9000 input channels exceed one layer's 8192 "
            "(DATAIN_CHANNEL): cutting its input channels, with the SDP adding each part's "
            "sums to the previous part's, is programmed for fp16 pipelines only (an integer "
            "pipeline's parts would hand on int16 partial sums through offline SDP adds: not "
            "programmed)");
}

TEST(NvdlaConvBuffer, ChannelCutRefusals) {
  // 32x32 kernels: one atom of 16 channels by 16 kernels is 524288 B, the
  // whole buffer.
  ConvBufferQuery q = conv(Precision::Fp16, 64, 40, 40, 16, 32);
  q.padTop = q.padBottom = q.padLeft = q.padRight = 0;
  auto cut = planConvChannelCut(full(), q);
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.message().find("; nor does one atom of its input channels (16 channels) beside "
                               "its kernels' share of the weights"),
            std::string::npos)
      << cut.message();
  // A batch is not cut by channels: the batch's own advice.
  ConvBufferQuery batch = conv(Precision::Fp16, 2048, 4, 4, 16, 3);
  batch.batches = 2;
  auto b = planConvChannelCut(full(), batch);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.message(), planConvBuffer(full(), batch).message());
}

TEST(NvdlaConvBuffer, SplitsByWidthOnNvSmall) {
  // The segmentation network's error of issue 45: 1024 channels of 20
  // columns, 128 entries a pixel, 2560 a line; three lines 15 banks beside
  // one group of 8 kernels (8 * 1024 * 9 B = 18 banks) do not fit 32. The
  // 14 spare banks hold 7168 entries: n output columns read n + 2 input
  // columns, 128 (n + 2) entries a line, 7168 / that lines, rows - 2
  // output rows a part. n = 7: 9 columns, 1152 entries, 6 lines, 4 rows:
  // ceil(20 / 7) * ceil(20 / 4) = 15 parts, the fewest (n = 4 ties: 6
  // columns, 9 lines, 7 rows, 5 * 3; the wider is kept).
  auto p = planConvBuffer(small(), conv(Precision::Int8, 1024, 20, 20, 512, 3));
  ASSERT_TRUE(p.ok()) << p.message();
  EXPECT_EQ(p->mode, ConvBufferMode::PartialHeight);
  EXPECT_EQ(p->kernelGroupBanks, 18);
  EXPECT_EQ(p->allottedWeightBanks, 18);
  EXPECT_EQ(p->outputColsPerPart, 7);
  EXPECT_EQ(p->entriesPerLine, 1152);
  EXPECT_EQ(p->outputRowsPerPart, 4);
  EXPECT_EQ(p->numParts, 15);
  // Column bands of 7: [0, 7) reads columns -1 .. 7, [7, 14) 6 .. 14,
  // [14, 20) 13 .. 20 (column 20 is padding).
  const ConvBufferQuery q = conv(Precision::Int8, 1024, 20, 20, 512, 3);
  ConvColBand b0 = getConvColBand(q, 0, 7), b1 = getConvColBand(q, 7, 14),
              b2 = getConvColBand(q, 14, 20);
  EXPECT_EQ(b0.first, 0);
  EXPECT_EQ(b0.end, 8);
  EXPECT_EQ(b0.padLeft, 1);
  EXPECT_EQ(b0.padRight, 0);
  EXPECT_EQ(b1.first, 6);
  EXPECT_EQ(b1.end, 15);
  EXPECT_EQ(b1.padLeft + b1.padRight, 0);
  EXPECT_EQ(b2.first, 13);
  EXPECT_EQ(b2.end, 20);
  EXPECT_EQ(b2.padRight, 1);
  EXPECT_EQ(getConvEntriesPerLine(small(), q, b1.cols()), 1152);
}

ConvBufferQuery winograd(int64_t c, int64_t hw, int64_t k) {
  ConvBufferQuery q = conv(Precision::Fp16, c, hw, hw, k, 3);
  q.winograd = true;
  return q;
}

TEST(NvdlaConvBuffer, Winograd) {
  // fp16, 32 channels = 2 atoms; 28x28 out (already a multiple of 4): the
  // extended cube is 32 x 32, (32 / 4) * 2 = 16 entries a line, 512 entries
  // = 2 banks; 4x4 taps of 2 atoms = 1024 B a kernel, 32 kernels 1 bank.
  auto a = planConvBuffer(full(), winograd(32, 28, 32));
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->entriesPerLine, 16);
  EXPECT_EQ(a->dataBanks, 2);
  EXPECT_EQ(a->weightBanks, 1);
  EXPECT_EQ(a->mode, ConvBufferMode::FullInputFullWeight);
  // 64 channels = 4 atoms, 56x56: cube 60 x 60, 15 * 4 = 60 entries a line,
  // 3600 entries = 15 banks; 2048 B a kernel: 64 kernels 4 banks, a group
  // of 16 one. 15 + 1 = 16: one kernel group at a time.
  auto b = planConvBuffer(full(), winograd(64, 56, 64));
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->entriesPerLine, 60);
  EXPECT_EQ(b->dataBanks, 15);
  EXPECT_EQ(b->weightBanks, 4);
  EXPECT_EQ(b->kernelGroupBanks, 1);
  EXPECT_EQ(b->mode, ConvBufferMode::OneKernelGroup);
  // 256 channels = 16 atoms, 64x64: cube 68 x 68, 17 * 16 = 272 entries a
  // line, 18496 entries = 73 banks: not cut, direct mode advised.
  EXPECT_EQ(planConvBuffer(full(), winograd(256, 64, 16)).message(),
            "convolution buffer: the Winograd input takes 73 banks and one kernel group of "
            "transformed weights 4, the buffer has 16; NVIDIA's compiler runs such a layer as "
            "a direct convolution");
  ConvBufferQuery five = winograd(32, 28, 32);
  five.kernelH = five.kernelW = 5;
  EXPECT_EQ(planConvBuffer(full(), five).message(),
            "convolution buffer: Winograd takes feature data and 3x3 kernels after the "
            "stride's channel extension");
}

TEST(NvdlaConvBuffer, Overflow) {
  ConvBufferQuery q = conv(Precision::Int16, std::numeric_limits<int64_t>::max(), 1, 1, 1, 1);
  EXPECT_EQ(planConvBuffer(full(), q).message(),
            "convolution buffer: sizes overflow a 64-bit integer");
  EXPECT_EQ(planConvBuffer(full(), conv(Precision::Int8, 0, 1, 1, 1, 1)).message(),
            "convolution buffer: extents, strides and dilations must be positive");
}

} // namespace
