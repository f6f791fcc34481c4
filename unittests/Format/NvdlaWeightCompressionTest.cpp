//===- NvdlaWeightCompressionTest.cpp - Sparse weight compression --------===//

#include "NvdlaWeightTestUtil.h"

#include "dla/Format/NvdlaWeightCompression.h"

#include <gtest/gtest.h>

using namespace nvdla_weight_test;

namespace {

/// The compressed image built naively from the rules: for each weight surface
/// WGS (uint32 LE per group), WMB (bit e of the surface's element stream at
/// byte e/8, bit e%8), data (non-zero elements, an element being zero only if
/// all its bytes are); every surface 256-aligned and padded to 128; order WGS0
/// WMB0 WGS1 WMB1 ... data0 data1 ...
std::vector<unsigned char> referenceCompress(const NvdlaWeightLayout &layout,
                                             const std::vector<unsigned char> &image) {
  const int64_t eb = layout.getElementBytes();
  std::vector<std::vector<unsigned char>> wgs, wmb, data;
  for (const WeightSurface &ws : layout.getSurfaces()) {
    const int64_t elements = ws.dataBytes / eb;
    std::vector<unsigned char> mask(static_cast<size_t>(roundUp((elements + 7) / 8, 128)), 0);
    std::vector<unsigned char> values;
    std::vector<unsigned char> sizes;
    int64_t e = 0;
    for (int64_t g = 0; g < (ws.numKernels + ws.kernelsPerGroup - 1) / ws.kernelsPerGroup; ++g) {
      const int64_t kernels = std::min(ws.kernelsPerGroup, ws.numKernels - g * ws.kernelsPerGroup);
      uint32_t bytes = 0;
      for (int64_t i = 0; i < kernels * ws.bytesPerKernel / eb; ++i, ++e) {
        bool zero = true;
        for (int64_t b = 0; b < eb; ++b)
          zero = zero && image[static_cast<size_t>(ws.offset + e * eb + b)] == 0;
        if (!zero) {
          mask[static_cast<size_t>(e / 8)] |= static_cast<unsigned char>(1 << (e % 8));
          for (int64_t b = 0; b < eb; ++b)
            values.push_back(image[static_cast<size_t>(ws.offset + e * eb + b)]);
          bytes += static_cast<uint32_t>(eb);
        }
      }
      for (int i = 0; i < 4; ++i)
        sizes.push_back(static_cast<unsigned char>(bytes >> (8 * i)));
    }
    sizes.resize(static_cast<size_t>(roundUp(static_cast<int64_t>(sizes.size()), 128)), 0);
    values.resize(static_cast<size_t>(roundUp(static_cast<int64_t>(values.size()), 128)), 0);
    wgs.push_back(sizes);
    wmb.push_back(mask);
    data.push_back(values);
  }
  std::vector<unsigned char> out;
  auto place = [&out](const std::vector<unsigned char> &surface) {
    out.resize(static_cast<size_t>(roundUp(static_cast<int64_t>(out.size()), 256)), 0);
    out.insert(out.end(), surface.begin(), surface.end());
  };
  for (size_t i = 0; i < wgs.size(); ++i) {
    place(wgs[i]);
    place(wmb[i]);
  }
  for (const auto &d : data)
    place(d);
  return out;
}

void checkRoundTrip(const NvdlaWeightLayout &layout, const std::vector<unsigned char> &image,
                    const std::string &what) {
  std::vector<unsigned char> expected = referenceCompress(layout, image);
  auto plan = planCompressedWeights(layout, image.data(), static_cast<int64_t>(image.size()));
  ASSERT_TRUE(plan) << plan.message();
  ASSERT_EQ(plan->storageBytes, static_cast<int64_t>(expected.size())) << what;
  CompressedWeightLayout bound = getCompressedWeightLayoutBound(layout);
  EXPECT_GE(bound.storageBytes, plan->storageBytes);
  ASSERT_EQ(bound.surfaces.size(), plan->surfaces.size());
  for (size_t i = 0; i < bound.surfaces.size(); ++i) {
    // Metadata placement does not depend on the data.
    EXPECT_EQ(bound.surfaces[i].wgsOffset, plan->surfaces[i].wgsOffset);
    EXPECT_EQ(bound.surfaces[i].wmbOffset, plan->surfaces[i].wmbOffset);
    EXPECT_EQ(bound.surfaces[i].wmbBytes, plan->surfaces[i].wmbBytes);
    EXPECT_EQ(plan->surfaces[i].wgsOffset % 256, 0);
    EXPECT_EQ(plan->surfaces[i].wmbOffset % 256, 0);
    EXPECT_EQ(plan->surfaces[i].dataOffset % 256, 0);
    EXPECT_EQ(plan->surfaces[i].dataBytes % 128, 0);
  }
  EXPECT_EQ(bound.surfaces[0].dataOffset, plan->surfaces[0].dataOffset);

  std::vector<unsigned char> compressed(expected.size() + 100, 0xEE);
  auto used = compressWeights(layout, image.data(), static_cast<int64_t>(image.size()),
                              compressed.data(), static_cast<int64_t>(compressed.size()));
  ASSERT_TRUE(used) << used.message();
  compressed.resize(expected.size());
  ASSERT_EQ(compressed, expected) << what;

  std::vector<unsigned char> back(image.size(), 0x33);
  Status s = decompressWeights(layout, compressed.data(), static_cast<int64_t>(compressed.size()),
                               back.data(), static_cast<int64_t>(back.size()));
  ASSERT_TRUE(s) << s.message();
  ASSERT_EQ(back, image) << what;
}

TEST(NvdlaWeightCompression, RoundTripsEveryFormat) {
  std::mt19937_64 rng(41);
  for (Precision precision : enumValues<Precision>()) {
    const int64_t eb = getBytesPerElement(precision);
    for (int zeroPercent : {0, 50, 90, 100}) {
      std::vector<WeightParams> cases;
      cases.push_back(makeParams(WeightFormat::Direct, precision, 33, 130, 3, 3));
      WeightParams image = makeParams(WeightFormat::Image, precision, 35, 3, 5, 5);
      image.pixelChannels = 4;
      image.postExtension = PostExtension::Auto;
      cases.push_back(image);
      WeightParams winograd = makeParams(WeightFormat::Winograd, precision, 20, 9, 3, 3);
      cases.push_back(winograd);
      WeightParams deconv = makeParams(WeightFormat::Deconvolution, precision, 19, 70, 3, 4);
      deconv.strideX = 2;
      deconv.strideY = 3;
      cases.push_back(deconv);
      for (const HardwareConfig &hw : kHardwareConfigs) {
        WeightParams direct = makeParams(WeightFormat::Direct, precision, 40, 20, 2, 2, hw);
        cases.push_back(direct);
      }
      for (const WeightParams &params : cases) {
        auto layout = NvdlaWeightLayout::create(params);
        ASSERT_TRUE(layout) << layout.message();
        const int64_t n = layout->getNumLogicalElements();
        std::vector<unsigned char> logical = randomElements(rng, n, eb, zeroPercent);
        std::vector<unsigned char> image = packBytes(*layout, logical);
        checkRoundTrip(*layout, image,
                       std::string(enumProse(params.format)) + " " +
                           std::string(enumName(precision)) + " " +
                           std::to_string(zeroPercent) + "% zeros on " +
                           std::string(params.hardware.name));
      }
    }
  }
}

// An element is zero only when all its bytes are: fp16 -0.0 (0x8000) and
// 0x0001 are kept; the WMB is continuous across groups (a group boundary in
// the middle of a byte).
TEST(NvdlaWeightCompression, ZeroMeansAllBytesZero) {
  // 17 kernels of 1x1x3 fp16: group 0 = 48 elements, group 1 = 3 elements.
  auto layout = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Fp16, 17, 3, 1, 1));
  ASSERT_TRUE(layout);
  std::vector<unsigned char> logical(17 * 3 * 2, 0);
  auto set = [&](int64_t k, int64_t c, uint16_t v) {
    std::memcpy(&logical[static_cast<size_t>(2 * (k * 3 + c))], &v, 2);
  };
  set(0, 0, 0x8000); // -0.0
  set(0, 2, 0x0100); // low byte zero
  set(16, 1, 0x0001); // in group 1, element 49 of the stream
  std::vector<unsigned char> image = packBytes(*layout, logical);
  std::vector<unsigned char> compressed(4096);
  auto plan = compressWeights(*layout, image.data(), static_cast<int64_t>(image.size()),
                              compressed.data(), static_cast<int64_t>(compressed.size()));
  ASSERT_TRUE(plan);
  const CompressedWeightSurface &cs = plan->surfaces[0];
  EXPECT_EQ(cs.groupBytes, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(cs.wgsOffset, 0);
  EXPECT_EQ(cs.wgsBytes, 128);
  EXPECT_EQ(cs.wmbOffset, 256);
  EXPECT_EQ(cs.wmbBytes, 128);
  EXPECT_EQ(cs.dataOffset, 512);
  EXPECT_EQ(cs.dataBytes, 128);
  EXPECT_EQ(plan->storageBytes, 640);
  // WGS: 4, 2 little-endian.
  EXPECT_EQ(compressed[0], 4);
  EXPECT_EQ(compressed[4], 2);
  // Stream (one group, one block, 1x1): element e = k*3 + c. Bits 0, 2, 49.
  EXPECT_EQ(compressed[256 + 0], 0x05);
  EXPECT_EQ(compressed[256 + 6], 0x02); // element 49 = byte 6, bit 1
  EXPECT_EQ(compressed[512 + 0], 0x00);
  EXPECT_EQ(compressed[512 + 1], 0x80);
  EXPECT_EQ(compressed[512 + 2], 0x00);
  EXPECT_EQ(compressed[512 + 3], 0x01);
  EXPECT_EQ(compressed[512 + 4], 0x01);
  EXPECT_EQ(compressed[512 + 5], 0x00);
}

// Separate WGS / WMB / data surfaces (a dla.weight_constant's) of the
// example above: the check says how many data bytes the CDMA reads, the sum
// of the WGS values (4 + 2), which the register plan programs.
TEST(NvdlaWeightCompression, SeparateSurfacesSayTheirDataBytes) {
  auto layout = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Fp16, 17, 3, 1, 1));
  ASSERT_TRUE(layout);
  std::vector<unsigned char> wgs(128, 0), wmb(128, 0), data(128, 0);
  wgs[0] = 4;
  wgs[4] = 2;
  wmb[0] = 0x05;
  wmb[6] = 0x02;
  std::vector<int64_t> used;
  Status s = checkSeparateSurfaces(*layout, 256, wgs.data(), 128, wmb.data(), 128, 128, &used);
  ASSERT_TRUE(s) << s.message();
  EXPECT_EQ(used, (std::vector<int64_t>{6}));
  wgs[4] = 4; // group 1 marks one element (2 bytes), not two
  EXPECT_FALSE(checkSeparateSurfaces(*layout, 256, wgs.data(), 128, wmb.data(), 128, 128));
}

TEST(NvdlaWeightCompression, CorruptInputIsReported) {
  auto layout = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Int8, 40, 10, 1, 1));
  ASSERT_TRUE(layout);
  std::mt19937_64 rng(42);
  std::vector<unsigned char> logical = randomElements(rng, 400, 1, 50);
  std::vector<unsigned char> image = packBytes(*layout, logical);
  auto plan = planCompressedWeights(*layout, image.data(), static_cast<int64_t>(image.size()));
  ASSERT_TRUE(plan);
  std::vector<unsigned char> compressed(static_cast<size_t>(plan->storageBytes));
  ASSERT_TRUE(compressWeights(*layout, image.data(), static_cast<int64_t>(image.size()),
                              compressed.data(), static_cast<int64_t>(compressed.size())));
  std::vector<unsigned char> back(image.size());
  // WGS of group 0 off by one.
  std::vector<unsigned char> bad = compressed;
  bad[0] = static_cast<unsigned char>(bad[0] + 1);
  Status s = decompressWeights(*layout, bad.data(), static_cast<int64_t>(bad.size()), back.data(),
                               static_cast<int64_t>(back.size()));
  EXPECT_FALSE(s);
  // A WMB bit flipped on.
  bad = compressed;
  const int64_t wmb = plan->surfaces[0].wmbOffset;
  for (int64_t i = 0; i < 400; ++i)
    if (!(bad[static_cast<size_t>(wmb + i / 8)] >> (i % 8) & 1)) {
      bad[static_cast<size_t>(wmb + i / 8)] |= static_cast<unsigned char>(1 << (i % 8));
      break;
    }
  s = decompressWeights(*layout, bad.data(), static_cast<int64_t>(bad.size()), back.data(),
                        static_cast<int64_t>(back.size()));
  EXPECT_FALSE(s);
  EXPECT_NE(s.message().find("WMB"), std::string::npos) << s.message();
  // Truncated buffer.
  s = decompressWeights(*layout, compressed.data(), 200, back.data(),
                        static_cast<int64_t>(back.size()));
  EXPECT_FALSE(s);
  // Output too small.
  EXPECT_FALSE(compressWeights(*layout, image.data(), static_cast<int64_t>(image.size()),
                               compressed.data(), plan->storageBytes - 1));
}

} // namespace
