//===- NvdlaLrnTest.cpp - The CDP's integer LRN model and derived tables --===//

#include "dla/Format/NvdlaLrn.h"
#include "dla/Format/NvdlaRegisters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace dlaformat::nvdla;

namespace {

LutProgram stressLut(bool linear, int64_t loSelect) {
  LutProgram lut;
  for (int i = 0; i < LutProgram::kLeEntries; ++i)
    lut.le[i] = (i * 7919) % 65536 - 32768;
  for (int j = 0; j < LutProgram::kLoEntries; ++j)
    lut.lo[j] = (int64_t(j) * 104729) % 65536 - 32768;
  lut.leLinear = linear;
  lut.leIndexOffset = 3;
  lut.leIndexSelect = -2;
  lut.loIndexSelect = loSelect;
  lut.leStart = -100;
  lut.leEnd = 200000;
  lut.loStart = 50;
  lut.loEnd = 3000;
  lut.leUflow = {-300, -3};
  lut.leOflow = {77, 5};
  lut.loUflow = {1234, 7};
  lut.loOflow = {-9, -16};
  lut.uflowLo = true;
  lut.oflowLo = false;
  lut.hybridLo = true;
  return lut;
}

const int64_t kSums[] = {0, 20, 49, 50, 51, 60, 1000, 2999, 3000, 3100, 5000, 70000,
                         int64_t(1) << 33};

// Expected values: utils/dla-ref/int_cdp.py cdp_lut on the same registers.
TEST(NvdlaLrn, LookupMatchesNumpyModel) {
  const int64_t exponent[] = {-4557,  -2082, 207,    269,    -30318, -8272, 556,
                              -17968, -15519, -8130, -25092, 5194,   8194};
  const int64_t linear8[] = {-32768, -32768, -32768, -32768, -32768, -32768, -32768,
                             -32768, -32768, -32768, -32768, -32767, -7068};
  for (int bits : {8, 16})
    for (size_t i = 0; i < std::size(kSums); ++i)
      EXPECT_EQ(cdpLookup(kSums[i], stressLut(false, 4), bits), exponent[i]) << kSums[i];
  for (size_t i = 0; i < std::size(kSums); ++i) {
    EXPECT_EQ(cdpLookup(kSums[i], stressLut(true, 31), 8), linear8[i]) << kSums[i];
    EXPECT_EQ(cdpLookup(kSums[i], stressLut(true, 40), 16), -32768) << kSums[i];
  }
}

// The exponent underflow's (s - start - 2^offset) * slope is the C model's
// int64_t product, which wraps (values of test_int_cdp.py, worked by hand).
TEST(NvdlaLrn, ExponentUnderflowProductWraps) {
  LutProgram lut;
  lut.le[0] = 50;
  lut.leIndexOffset = 53;
  lut.loStart = 1000000;
  lut.loEnd = 1000256;
  lut.leUflow = {2048, 7}; // 2048 * 2^53 wraps to 0: 50 + RHA(3 * 2048, 7)
  EXPECT_EQ(cdpLookup(3, lut, 8), 98);
  lut.leUflow = {-23978, 7}; // wraps to -598 * 2^53 - 71934
  EXPECT_EQ(cdpLookup(3, lut, 8), -32768);
}

// The converters: int8 reads the low 8 / 25 bits of the offsets.
TEST(NvdlaLrn, Converters) {
  EXPECT_EQ(cdpInputConvert(-128, {127, 3, 1}, 8), -256);  // SAT9
  EXPECT_EQ(cdpInputConvert(5, {-3, 5, 2}, 16), 10);       // RHA(40, 2)
  EXPECT_EQ(cdpInputConvert(-5, {3, 5, 3}, 16), -5);       // RHA(-40, 3)
  EXPECT_EQ(cdpOutputConvert(-6, {0, 1, 2}, 8), -2);       // -1.5 away from zero
  EXPECT_EQ(cdpOutputConvert(1 << 20, {0, 1, 0}, 16), 32767);
}

double lrnReference(int64_t x, int64_t s, double alpha, double beta, double k, int64_t size) {
  return double(x) * std::pow(k + alpha / double(size) * double(s), -beta);
}

void expectInRegisters(const LrnTables &t, int bits) {
  LutRegisterFields regs = lutRegisterFields(bits == 8 ? LutUnit::CdpInt8 : LutUnit::CdpInt16);
  for (int64_t v : t.lut.le)
    EXPECT_TRUE(regs.entry.holds(v));
  for (int64_t v : t.lut.lo)
    EXPECT_TRUE(regs.entry.holds(v));
  EXPECT_TRUE(regs.loIndexSelect.holds(t.lut.loIndexSelect));
  EXPECT_TRUE(regs.leEnd.holds(t.lut.leEnd));
  EXPECT_TRUE(regs.loEnd.holds(t.lut.loEnd));
  EXPECT_TRUE(kCdpDatoutShift.holds(t.out.shift));
  EXPECT_TRUE(kCdpDatoutScale.holds(t.out.scale));
}

struct Params {
  double alpha, beta, k;
  int64_t size;
  Precision precision;
  double bound; // LSB of the output
};

// The derived tables against the real-valued LRN: the measured error stays
// within a bound, and an independent sample (the hardware arithmetic on the
// tables, compared with double precision here) agrees with the measurement.
TEST(NvdlaLrn, DerivedTablesAreAccurate) {
  const Params cases[] = {
      // int8: within 0.7 LSB of the real value (0.5 is the output's rounding).
      {1e-4, 0.75, 1.0, 5, Precision::Int8, 0.7}, {1.0, 0.75, 1.0, 3, Precision::Int8, 0.7},
      {0.5, 0.5, 2.0, 9, Precision::Int8, 0.7},
      // int16: 322 entries over square sums up to 2^33 cannot follow the
      // curve everywhere; the bounds pin today's derivation.
      {1e-4, 0.75, 1.0, 5, Precision::Int16, 6.0}, {2e-7, 0.6, 1.5, 7, Precision::Int16, 90.0},
  };
  for (const Params &p : cases) {
    int bits = lrnBits(p.precision);
    LrnTables t = deriveLrnTables(p.alpha, p.beta, p.k, p.size, p.precision);
    expectInRegisters(t, bits);
    // lo[0] answers S = 0: f(0) scaled.
    EXPECT_EQ(t.lut.lo[0], std::llround(std::ldexp(std::pow(p.k, -p.beta), int(t.out.shift))));
    LrnError e = measureLrnError(t, p.alpha, p.beta, p.k, p.size, p.precision);
    EXPECT_LE(e.error, p.bound) << p.alpha << " " << bits << " at x = " << e.x << ", S = "
                                << e.squareSum;
    // An own sample: x at the top of its range with the smallest and
    // largest square sums it allows.
    int64_t top = (int64_t(1) << (bits - 1)) - 1;
    for (int64_t x : {top, -top - 1, top / 3}) {
      for (int64_t s : {x * x, x * x + (p.size - 1) * top * top}) {
        int64_t out = cdpOutputConvert(cdpLookup(s, t.lut, bits) * x, t.out, bits);
        double ref = std::clamp(lrnReference(x, s, p.alpha, p.beta, p.k, p.size),
                                double(-top - 1), double(top));
        EXPECT_LE(std::fabs(double(out) - ref), p.bound) << x << " " << s;
      }
    }
  }
}

// Better than NVIDIA's all-zero int8 tables, which output 0 everywhere.
TEST(NvdlaLrn, DerivedTablesBeatZeroTables) {
  LrnTables zero;
  zero.lut.uflowLo = true;
  LrnError z = measureLrnError(zero, 1e-4, 0.75, 1.0, 5, Precision::Int8);
  LrnError d = measureLrnError(deriveLrnTables(1e-4, 0.75, 1.0, 5, Precision::Int8), 1e-4,
                               0.75, 1.0, 5, Precision::Int8);
  EXPECT_GT(z.error, 100.0);
  EXPECT_LT(d.error, 1.0);
}

// Answers are kept (both computations are exhaustive) but keyed by every
// input: the same question gets the same answer, a changed parameter or
// table a new one.
TEST(NvdlaLrn, KeptAnswersKeyedByEveryInput) {
  LrnTables t = deriveLrnTables(1e-4, 0.75, 1.0, 3, Precision::Int8);
  LrnError e = measureLrnError(t, 1e-4, 0.75, 1.0, 3, Precision::Int8);
  LrnTables again = deriveLrnTables(1e-4, 0.75, 1.0, 3, Precision::Int8);
  EXPECT_EQ(again.lut.lo, t.lut.lo);
  EXPECT_EQ(measureLrnError(again, 1e-4, 0.75, 1.0, 3, Precision::Int8).error, e.error);
  EXPECT_NE(deriveLrnTables(1e-4, 0.5, 1.0, 3, Precision::Int8).lut.lo, t.lut.lo);
  // Outputs halved by the output converter: far from the real LRN.
  LrnTables halved = t;
  halved.out.shift += 1;
  EXPECT_GT(measureLrnError(halved, 1e-4, 0.75, 1.0, 3, Precision::Int8).error, e.error + 10);
  // Against other parameters the same tables are worse.
  EXPECT_GT(measureLrnError(t, 1e-4, 0.75, 2.0, 3, Precision::Int8).error, e.error);
}

} // namespace
