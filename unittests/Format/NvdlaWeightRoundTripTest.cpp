//===- NvdlaWeightRoundTripTest.cpp - Random shapes, every invertible format ===//

#include "NvdlaWeightTestUtil.h"

#include <gtest/gtest.h>

using namespace nvdla_weight_test;

namespace {

struct RandomCase {
  WeightParams params;
  std::vector<int64_t> map; ///< reference source map of each surface, concatenated
};

int64_t pick(std::mt19937_64 &rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

RandomCase randomCase(std::mt19937_64 &rng, WeightFormat format) {
  const auto &configs = kHardwareConfigs;
  RandomCase t;
  WeightParams &p = t.params;
  p.format = format;
  p.precision = enumValues<Precision>()[static_cast<size_t>(rng() % 3)];
  p.hardware = configs[static_cast<size_t>(rng() % std::size(configs))];
  p.shape = {pick(rng, 1, 70), pick(rng, 1, 150), pick(rng, 1, 7), pick(rng, 1, 7)};
  const int64_t kpg = p.hardware.getKernelsPerGroup(p.precision);
  const int64_t aC = p.hardware.atomicC;
  const WeightShape &s = p.shape;
  switch (format) {
  case WeightFormat::Direct:
    t.map = directReference(s.kernels, s.channels, s.height, s.width, kpg, aC);
    break;
  case WeightFormat::Image: {
    p.shape.channels = pick(rng, 1, 4);
    p.pixelChannels = pick(rng, p.shape.channels, 4);
    p.strideX = pick(rng, 1, 3);
    const int64_t extended = s.width * p.pixelChannels;
    std::vector<PostExtension> legal = {PostExtension::None, PostExtension::Auto};
    if (extended <= aC / 2)
      legal.push_back(PostExtension::Two);
    if (extended <= aC / 4)
      legal.push_back(PostExtension::Four);
    p.postExtension = legal[static_cast<size_t>(rng() % legal.size())];
    int64_t factor = p.postExtension == PostExtension::Two    ? 2
                     : p.postExtension == PostExtension::Four ? 4
                     : p.postExtension == PostExtension::Auto
                         ? selectPostExtensionFactor(p.hardware, p.pixelChannels, s.width, p.strideX)
                         : 1;
    t.map = imageReference(s.kernels, s.channels, s.height, s.width, p.pixelChannels, kpg, aC,
                           factor);
    break;
  }
  case WeightFormat::Deconvolution:
    p.strideX = pick(rng, 1, 3);
    p.strideY = pick(rng, 1, 3);
    for (int64_t y = 0; y < p.strideY; ++y)
      for (int64_t x = 0; x < p.strideX; ++x) {
        std::vector<int64_t> set = deconvolutionSetReference(
            s.kernels, s.channels, s.height, s.width, p.strideY, p.strideX, y, x, kpg, aC);
        t.map.insert(t.map.end(), set.begin(), set.end());
      }
    break;
  case WeightFormat::Winograd:
    break;
  }
  return t;
}

TEST(NvdlaWeightRoundTrip, RandomShapes) {
  std::mt19937_64 rng(51);
  int checked = 0;
  for (int iteration = 0; iteration < 150; ++iteration) {
    for (WeightFormat format :
         {WeightFormat::Direct, WeightFormat::Image, WeightFormat::Deconvolution}) {
      RandomCase t = randomCase(rng, format);
      const WeightParams &p = t.params;
      auto layout = NvdlaWeightLayout::create(p);
      ASSERT_TRUE(layout) << layout.message();
      const int64_t eb = layout->getElementBytes();
      std::vector<unsigned char> logical =
          randomElements(rng, p.shape.getNumElements(), eb, static_cast<int>(rng() % 30));
      std::vector<unsigned char> storage = packBytes(*layout, logical);

      // Expected image: each surface's stream at its offset, zeros elsewhere.
      std::vector<unsigned char> expected(static_cast<size_t>(layout->getStorageBytes()), 0);
      std::vector<unsigned char> streams = applyMap(t.map, logical, eb);
      int64_t consumed = 0;
      for (const WeightSurface &surface : layout->getSurfaces()) {
        std::copy(streams.begin() + consumed, streams.begin() + consumed + surface.dataBytes,
                  expected.begin() + surface.offset);
        consumed += surface.dataBytes;
      }
      ASSERT_EQ(consumed, static_cast<int64_t>(streams.size()));
      ASSERT_EQ(storage, expected) << enumProse(format) << " "
                                   << enumName(p.precision) << " " << p.hardware.name
                                   << " " << p.shape.kernels << "x" << p.shape.channels << "x"
                                   << p.shape.height << "x" << p.shape.width;

      std::vector<unsigned char> back(logical.size(), 0x99);
      ASSERT_TRUE(layout->unpack(storage.data(), static_cast<int64_t>(storage.size()),
                                 back.data(), static_cast<int64_t>(back.size())));
      ASSERT_EQ(back, logical);

      // The BoundLayout view: pack / unpack and a sample of offsets.
      auto bound = createNvdlaWeightBoundLayout(p);
      ASSERT_TRUE(bound);
      std::vector<unsigned char> viaBound(storage.size(), 0x11);
      (*bound)->pack(reinterpret_cast<const char *>(logical.data()),
                     reinterpret_cast<char *>(viaBound.data()));
      ASSERT_EQ(viaBound, storage);
      std::fill(back.begin(), back.end(), 0);
      (*bound)->unpack(reinterpret_cast<const char *>(storage.data()),
                       reinterpret_cast<char *>(back.data()));
      ASSERT_EQ(back, logical);
      for (int sample = 0; sample < 20; ++sample) {
        const int64_t b = pick(rng, 0, layout->getStorageBytes() - 1);
        auto loc = (*bound)->locate(b);
        ASSERT_TRUE(loc);
        if (loc->isPadding) {
          EXPECT_EQ(storage[static_cast<size_t>(b)], 0);
          continue;
        }
        auto offset = (*bound)->getByteOffset(loc->index);
        ASSERT_TRUE(offset);
        EXPECT_EQ(*offset + loc->byteInElement, b);
        const std::vector<int64_t> &i = loc->index;
        const int64_t src =
            kcrs(p.shape.channels, p.shape.height, p.shape.width, i[0], i[1], i[2], i[3]);
        EXPECT_EQ(storage[static_cast<size_t>(b)],
                  logical[static_cast<size_t>(src * eb + loc->byteInElement)]);
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 450);
}

} // namespace
