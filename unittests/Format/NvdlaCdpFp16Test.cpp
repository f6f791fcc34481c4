//===- NvdlaCdpFp16Test.cpp - The CDP's fp16 LRN, values worked by hand ---===//
//
// Tables whose every entry is one value make the CDP's product exact: with
// alpha 0 the factor (k)^-beta is the same for every square sum, so the
// output is x times it, exactly where that product is an fp16. The
// bit-exact comparison with the numpy model of the C model over random
// layers is test/Execution/fp16-lrn-layers.test; with the v1 C model
// itself, test/NvdlaCModelV1/trace-fp16-cdp.test.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaCdpFp16.h"
#include "dla/Format/NvdlaFloat.h"

#include <gtest/gtest.h>

#include <vector>

using namespace dlaformat::nvdla;

namespace {

TEST(NvdlaCdpFp16, ConstantFactorIsExact) {
  // alpha 0: f = k^-beta everywhere; k = 4, beta = 0.5 -> 0.5.
  const LutProgram lut = lrnFloatTables(0.0, 0.5, 4.0, 5);
  for (int64_t v : lut.le)
    EXPECT_EQ(v, 0x3800);
  for (int64_t v : lut.lo)
    EXPECT_EQ(v, 0x3800);
  // 3 channels x 2 pixels: 1, -3, 1024 / 0.25, +0, -0 and a denormal (2^-23).
  const std::vector<uint16_t> x = {0x3c00, 0x3400, 0xc200, 0x0000, 0x6400, 0x8002};
  std::vector<uint16_t> out(x.size());
  cdpFp16(x.data(), 1, 3, 2, 5, lut, out.data());
  const std::vector<uint16_t> want = {0x3800, 0x3000, 0xbe00, 0x0000, 0x6000, 0x8001};
  EXPECT_EQ(out, want);
}

TEST(NvdlaCdpFp16, TablesCoverTheBend) {
  // alpha / size = 0.2, k = 1: 16 k / a = 80 -> LO over [0, 128), step 1/2;
  // LE exponent octaves from 2^4.
  const LutProgram lut = lrnFloatTables(1.0, 0.75, 1.0, 5);
  EXPECT_FALSE(lut.leLinear);
  EXPECT_EQ(lut.leIndexOffset, 4);
  EXPECT_EQ(lut.loIndexSelect, -1);
  EXPECT_EQ(lut.loEnd, 0x43000000); // 128.0f
  EXPECT_EQ(lut.lo[0], 0x3c00);     // f(0) = 1
  EXPECT_TRUE(lut.uflowLo && lut.hybridLo && !lut.oflowLo);
}

TEST(NvdlaFloat, FractionToFp17Widths) {
  // 1/2 and 1/4 at the CDP's 16 bits and the SDP's 35.
  EXPECT_EQ(fractionToFp17(0x8000, 16), 0x7800u);
  EXPECT_EQ(fractionToFp17(0x4000, 16), 0x7400u);
  EXPECT_EQ(fractionToFp17(uint64_t(1) << 34, 35), 0x7800u);
  EXPECT_EQ(fractionToFp17(0, 16), 0u);
}

} // namespace
