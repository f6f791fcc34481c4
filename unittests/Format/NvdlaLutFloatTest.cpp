//===- NvdlaLutFloatTest.cpp - NVDLA's fp32 / fp17 arithmetic, float LUT --===//
//
// Values worked by hand from docs/NvdlaFp16.md (the C model's rules); the
// bit-exact comparison with the numpy model over random tables is
// python/tests/test_lut_float.py.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaFloat.h"
#include "dla/Format/NvdlaLutFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace dlaformat::nvdla;

namespace {

uint32_t f32(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

float asFloat(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof(v));
  return v;
}

/// An fp16 value as the table entry a LutProgram holds (int16).
int64_t h16(float v) { return int16_t(nvdlaFp32ToFp16(f32(v))); }

/// Every entry 0; LO linear from 0 with select 0, LE linear from 1000
/// (test_lut_float_ref.base_regs).
LutProgram baseLut() {
  LutProgram p;
  p.leLinear = true;
  p.leStart = int32_t(f32(1000.0f));
  p.leEnd = int32_t(f32(2000.0f));
  p.loStart = int32_t(f32(0.0f));
  p.loEnd = int32_t(f32(256.0f));
  p.uflowLo = p.oflowLo = p.hybridLo = true;
  return p;
}

float lookup(float x, const LutProgram &p) { return asFloat(sdpLookupFloat(f32(x), p)); }

TEST(NvdlaFloat, Fp32Arithmetic) {
  // x + (-x) is zero signed as the first operand on a tie: -1 + 1 = -0.
  EXPECT_EQ(fpAdd(f32(-1.0f), f32(1.0f), kFp32), 0x80000000u);
  EXPECT_EQ(fpAdd(f32(1.0f), f32(-1.0f), kFp32), 0u);
  // Overflow saturates to the largest finite value, not infinity.
  EXPECT_EQ(fpAdd(0x7f7fffffu, 0x7f7fffffu, kFp32), 0x7f7fffffu);
  EXPECT_EQ(fpMul(f32(0x1p100f), f32(0x1p100f), kFp32), 0x7f7fffffu);
  // Below the normal range: zero (2^-100 * 2^-30 = 2^-130 is an IEEE denormal).
  EXPECT_EQ(fpMul(f32(0x1p-100f), f32(0x1p-30f), kFp32), 0u);
  // One rounding to nearest even: 1 + 2^-24 is a tie, stays 1; 1 + 3 * 2^-24
  // rounds up to 1 + 2^-22.
  EXPECT_EQ(fpAdd(f32(1.0f), f32(0x1p-24f), kFp32), f32(1.0f));
  EXPECT_EQ(fpAdd(f32(1.0f), f32(0x3p-24f), kFp32), f32(1.0f + 0x1p-22f));
  // A NaN operand is returned as it is, the first one first.
  EXPECT_EQ(fpAdd(0x7fc00001u, 0x7fc00002u, kFp32), 0x7fc00001u);
  EXPECT_EQ(fpMul(f32(2.0f), 0xffc00003u, kFp32), 0xffc00003u);
  EXPECT_EQ(fpSub(f32(3.0f), f32(5.0f), kFp32), f32(-2.0f));
}

TEST(NvdlaFloat, Fp17) {
  // fp17: sign, 6 exponent bits of bias 31, 10 mantissa bits.
  EXPECT_EQ(fp16ToFp17(0x3c00), 0x7c00u); // 1.0
  EXPECT_EQ(fp16ToFp17(0xc000), 0x18000u); // -2.0
  EXPECT_EQ(fp16ToFp17(0x0001), 0x1c00u);  // 2^-24: exponent 31 - 24 = 7, exact
  EXPECT_EQ(fp16ToFp17(0x7c00), 0xfbffu);  // infinity saturates
  EXPECT_EQ(fp17ToFp32(0x7c00), f32(1.0f));
  EXPECT_EQ(fp17ToFp32(0x1fbff), 0xcf7fe000u); // -(2 - 2^-10) 2^31
  // Fp32ToFp17 rounds to 11 bits, ties to even: 1 + 2^-11 -> 1, 1 + 3 2^-11
  // -> 1 + 2^-9.
  EXPECT_EQ(fp32ToFp17(f32(1.0f + 0x1p-11f)), 0x7c00u);
  EXPECT_EQ(fp32ToFp17(f32(1.0f + 0x3p-11f)), 0x7c02u);
  EXPECT_EQ(fp32ToFp17(f32(0x1p40f)), 0xfbffu); // overflow saturates
  EXPECT_EQ(fp32ToFp17(f32(0x1p-40f)), 0u);     // below 2^-30: zero
  // fp17 arithmetic: 1/3 at 11 bits is 0x1.554p-2; times 3 = 0x1.ffcp-1
  // exactly, rounded to 11 bits (a tie) to even: 1.
  const uint32_t third = fp32ToFp17(f32(1.0f / 3.0f));
  EXPECT_EQ(fp17ToFp32(third), f32(0x1.554p-2f));
  EXPECT_EQ(fp17ToFp32(fpMul(third, fp16ToFp17(0x4200), kFp17)), f32(1.0f));
  // Results saturate at (2 - 2^-10) 2^31.
  EXPECT_EQ(fpAdd(0xfbffu, 0xfbffu, kFp17), 0xfbffu);
}

TEST(NvdlaFloat, OutputConverter) {
  EXPECT_EQ(nvdlaFp32ToFp16(f32(1e6f)), 0x7bffu);   // saturates at 65504
  EXPECT_EQ(nvdlaFp32ToFp16(f32(-1e6f)), 0xfbffu);
  EXPECT_EQ(nvdlaFp32ToFp16(0x00000001u), 0u);        // an fp32 denormal is zero
  EXPECT_EQ(nvdlaFp32ToFp16(f32(0x1p-24f)), 0x0001u); // the smallest fp16 denormal
  EXPECT_EQ(nvdlaFp32ToFp16(f32(1.0f + 0x1p-11f)), 0x3c00u); // a tie to even
  EXPECT_EQ(nvdlaFp16ToFp32(0x7c00), 0x7f7fffffu); // fp16 infinity: the largest fp32
  EXPECT_EQ(nvdlaFp16ToFp32(0x3555), f32(0x1.554p-2f));
}

TEST(NvdlaLutFloat, InterpolationInFp17) {
  LutProgram p = baseLut();
  p.lo[2] = h16(1.0f);
  p.lo[3] = h16(2.0f);
  // LO from 0, select 0: x = 2.25 -> entry 2, fraction 1/4: 0.75 + 0.5.
  EXPECT_EQ(lookup(2.25f, p), 1.25f);
  // Select -2 (4 entries per unit): x = 0.5 is entry 2 exactly.
  p.loIndexSelect = -2;
  EXPECT_EQ(lookup(0.5f, p), 1.0f);
  // The weights and products are rounded to fp17 (11 bits): a third of the
  // way from 1 to 2 is 1.3330078125, not 4/3.
  p.loIndexSelect = 0;
  EXPECT_EQ(lookup(2.0f + 1.0f / 3.0f, p), 1.3330078125f);
}

TEST(NvdlaLutFloat, SlopesFromTheEdges) {
  LutProgram p = baseLut();
  p.lo[0] = h16(0.5f);
  p.loUflow.scale = h16(0.25f);
  // x <= lo_start (0): T[0] + (x - 0) * scale = 0.5 + (-3) 0.25.
  EXPECT_EQ(lookup(-3.0f, p), -0.25f);
  // An LE exponent table from 0, offset -2: 0.125 has exponent -3 < -2, an
  // underflow measured from start + 2^-2: 1 + (0.125 - 0.25) 2 = 0.75 (LO
  // from 1000 underflows too; the underflow priority picks LE).
  LutProgram e = baseLut();
  e.le[0] = h16(1.0f);
  e.leLinear = false;
  e.leStart = int32_t(f32(0.0f));
  e.loStart = int32_t(f32(1000.0f));
  e.leIndexOffset = -2;
  e.leUflow.scale = h16(2.0f);
  e.hybridLo = e.uflowLo = false;
  EXPECT_EQ(lookup(0.125f, e), 0.75f);
  // x = 300: index 300 >= 256 overflows: T[256] + (300 - lo_end 256) 0.5.
  LutProgram o = baseLut();
  o.lo[256] = h16(3.0f);
  o.loOflow.scale = h16(0.5f);
  EXPECT_EQ(lookup(300.0f, o), 25.0f);
}

TEST(NvdlaLutFloat, SigmoidAndTanhPrograms) {
  const std::vector<uint16_t> s = sdpLookupFloatFp16Table(floatLutProgram(FloatLutFunction::Sigmoid));
  const std::vector<uint16_t> t = sdpLookupFloatFp16Table(floatLutProgram(FloatLutFunction::Tanh));
  // Exact at 0 and saturated far out (docs/NvdlaFp16.md).
  EXPECT_EQ(s[0x0000], 0x3800); // sigmoid(0) = 0.5
  EXPECT_EQ(t[0x0000], 0x0000); // tanh(0) = 0
  EXPECT_EQ(s[0x5640], 0x3c00); // sigmoid(100) = 1
  EXPECT_EQ(s[0xd640], 0x0000); // sigmoid(-100) = 0
  EXPECT_EQ(t[0x5640], 0x3c00); // tanh(100) = 1
  EXPECT_EQ(t[0xd640], 0xbc00); // tanh(-100) = -1
  // The errors lut_float_tables.py states, over every finite fp16 input.
  FloatLutError se = measureFloatLutError(FloatLutFunction::Sigmoid);
  FloatLutError te = measureFloatLutError(FloatLutFunction::Tanh);
  EXPECT_NEAR(se.error, 7.04e-4, 0.01e-4);
  EXPECT_NEAR(te.error, 6.69e-4, 0.01e-4);
  EXPECT_EQ(parseFloatLutFunction("tanh"), FloatLutFunction::Tanh);
  EXPECT_FALSE(parseFloatLutFunction("relu"));
}

} // namespace

TEST(NvdlaLutFloat, LutOnTheStagesFp32) {
  // After the Y multiplier / ALU the LUT reads their fp32 value, which no
  // fp16 need hold: 2 + 2^-11 (fp16's spacing at 2 is 2^-9) is entry 2
  // with fraction 2^-11, 0 + 1024 * 2^-11 = 0.5 (fp16 0x3800); rounded to
  // fp16 first (a table per fp16 input) it would be entry 2 exactly, 0.
  LutProgram p = baseLut();
  p.lo[3] = h16(1024.0f);
  const uint32_t x = f32(2.0f + 0x1p-11f);
  EXPECT_EQ(sdpLookupFloatToFp16(x, p), 0x3800);
  EXPECT_EQ(sdpLookupFloatToFp16(nvdlaFp16ToFp32(nvdlaFp32ToFp16(x)), p), 0);
}

TEST(NvdlaLutFloat, RegisterArray) {
  // The C API's / the runtime's order (NvdlaLrn.h kLutRegisters): le, lo,
  // le_linear, the edges, offset and selects, the slopes, the priorities.
  LutProgram p = baseLut();
  p.le[64] = 7;
  p.lo[0] = -3;
  p.leIndexOffset = -5;
  p.loOflow.scale = 11;
  p.loOflow.shift = 2;
  p.oflowLo = false;
  std::vector<int64_t> r(kLutRegisters);
  lutToRegisters(p, r.data());
  ASSERT_EQ(kLutRegisters, 341);
  EXPECT_EQ(r[64], 7);
  EXPECT_EQ(r[65], -3);
  EXPECT_EQ(r[322], 1); // le_linear
  EXPECT_EQ(r[323], int32_t(f32(1000.0f)));
  EXPECT_EQ(r[327], -5); // le_index_offset
  EXPECT_EQ(r[336], 11);
  EXPECT_EQ(r[337], 2);
  EXPECT_EQ(r[338], 1);
  EXPECT_EQ(r[339], 0);
  EXPECT_EQ(r[340], 1);
  // Back and forth: every register lands where it came from.
  std::vector<int64_t> again(kLutRegisters);
  lutToRegisters(lutFromRegisters(r.data()), again.data());
  EXPECT_EQ(again, r);
}
