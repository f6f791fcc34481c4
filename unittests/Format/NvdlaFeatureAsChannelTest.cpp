//===- NvdlaFeatureAsChannelTest.cpp - A 1x1xC cube read per channel ------===//
//
// bindFeatureAsPerChannel (issue 45: a squeeze-excitation's gate read in
// place): a packed 1x1xC feature cube packs to the bytes of the per-channel
// run the format document describes ("a continuous 1x1xC space", zero to a
// whole atom), written here as a loop from that sentence; any other cube
// is refused.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaFeature.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

std::unique_ptr<FeatureBoundLayout> feature(Precision p, HardwareKind hw,
                                            std::vector<int64_t> shape,
                                            std::optional<int64_t> surfaceStride = {}) {
  FeatureConfig c;
  c.precision = p;
  c.hardware = hw;
  c.surfaceStride = surfaceStride;
  auto b = FeatureBoundLayout::bind(c, shape);
  EXPECT_TRUE(bool(b)) << (b ? "" : b.message());
  return b ? std::move(*b) : nullptr;
}

TEST(NvdlaFeatureAsChannel, PackedCubeIsTheRun) {
  std::mt19937 rng(45);
  for (HardwareKind hw : {HardwareKind::NvSmall, HardwareKind::NvLarge, HardwareKind::NvFull})
    for (Precision p : {Precision::Int8, Precision::Int16})
      for (int64_t c : {1, 3, 8, 9, 16, 31, 32, 40, 72, 96}) {
        auto f = feature(p, hw, {1, c, 1, 1});
        ASSERT_TRUE(f);
        auto run = bindFeatureAsPerChannel(*f, AuxKind::PReLU);
        ASSERT_TRUE(bool(run)) << run.message();
        const int64_t eb = getBytesPerElement(p);
        std::vector<char> logical(static_cast<size_t>(c * eb));
        for (char &v : logical)
          v = static_cast<char>(rng());
        std::vector<char> cube(static_cast<size_t>(f->getStorageBytes()), 0x55);
        f->pack(logical.data(), cube.data());
        // The document's run: element k at bytes [k eb, (k + 1) eb), zero
        // to the end of its atom.
        const int64_t atom = getHardwareConfig(hw).caps.memoryAtomBytes;
        std::vector<char> want(static_cast<size_t>((c * eb + atom - 1) / atom * atom), 0);
        std::memcpy(want.data(), logical.data(), logical.size());
        ASSERT_EQ((*run)->getStorageBytes(), static_cast<int64_t>(want.size()));
        ASSERT_LE(want.size(), cube.size());
        EXPECT_EQ(std::vector<char>(cube.begin(), cube.begin() + want.size()), want)
            << "C = " << c << ", " << enumName(p) << ", " << getHardwareConfig(hw).name;
        std::vector<char> packed((*run)->getStorageBytes(), 0x55);
        (*run)->pack(logical.data(), packed.data());
        EXPECT_EQ(packed, want);
      }
}

TEST(NvdlaFeatureAsChannel, OtherCubesRefused) {
  auto spatial = feature(Precision::Int8, HardwareKind::NvSmall, {1, 16, 2, 1});
  auto batch = feature(Precision::Int8, HardwareKind::NvSmall, {2, 16, 1, 1});
  auto gaps = feature(Precision::Int8, HardwareKind::NvSmall, {1, 16, 1, 1}, 16);
  ASSERT_TRUE(spatial && batch && gaps);
  auto a = bindFeatureAsPerChannel(*spatial, AuxKind::PReLU);
  ASSERT_FALSE(bool(a));
  EXPECT_EQ(a.message(),
            "feature data read per channel must be one 1x1 cube (1xCx1x1), got 1x16x2x1");
  EXPECT_FALSE(bool(bindFeatureAsPerChannel(*batch, AuxKind::PReLU)));
  auto g = bindFeatureAsPerChannel(*gaps, AuxKind::PReLU);
  ASSERT_FALSE(bool(g));
  EXPECT_EQ(g.message(), "feature data read per channel must be surface-packed (line and surface "
                         "stride one atom, 8 bytes): the SDP reads its channels as one run, and "
                         "this cube's surface stride is 16 bytes");
}

} // namespace
