//===- NvdlaScale.cpp - Real factors as NVDLA scale / shift pairs ---------===//

#include "dla/Format/NvdlaScale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

std::string describe(double factor) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.17g", factor);
  return buffer;
}

/// NVIDIA's shift for one nonzero finite factor: 15 - numBits, numBits =
/// floor(log2|f|) + 1, which is frexp's exponent.
Expected<unsigned> shiftFor(double factor) {
  if (!std::isfinite(factor))
    return makeError("scale factor " + describe(factor) + " is not finite");
  if (factor == 0)
    return 0u;
  int numBits = 0;
  std::frexp(factor, &numBits);
  if (numBits > 15)
    return makeError("scale factor " + describe(factor) +
                     " is beyond the int16 range (|factor| >= 2^15)");
  int shift = 15 - numBits;
  if (shift > static_cast<int>(kMaxScaleShift))
    return makeError("scale factor " + describe(factor) + " needs a shift of " +
                     std::to_string(shift) + " (> 63): |factor| < 2^-49");
  return static_cast<unsigned>(shift);
}

/// |factor| * 2^shift rounded, with its sign; exact in double (the product
/// is below 2^16 and ldexp is exact).
int64_t rounded(double factor, unsigned shift, ScaleRounding rounding) {
  double magnitude = std::ldexp(std::fabs(factor), static_cast<int>(shift));
  double r = rounding == ScaleRounding::Truncate ? std::trunc(magnitude)
                                                 : std::floor(magnitude + 0.5);
  int64_t value = static_cast<int64_t>(r);
  return factor < 0 ? -value : value;
}

} // namespace

Expected<SharedShiftScales>
dlaformat::nvdla::scalesFromFactors(const std::vector<double> &factors,
                                    ScaleRounding rounding) {
  if (factors.empty())
    return makeError("no scale factors");
  double largest = 0;
  for (double f : factors) {
    if (!std::isfinite(f))
      return makeError("scale factor " + describe(f) + " is not finite");
    largest = std::max(largest, std::fabs(f));
  }
  Expected<unsigned> shift = shiftFor(largest);
  if (!shift)
    return shift.takeError();
  SharedShiftScales result;
  unsigned s = *shift;
  bool clampAtMax = false;
  for (;;) {
    std::vector<int64_t> values;
    int64_t highest = 0;
    for (double f : factors) {
      values.push_back(rounded(f, s, rounding));
      highest = std::max(highest, values.back());
    }
    // Only Nearest can reach +2^15 (-2^15 is an int16): the same values are
    // exact one shift lower, at half the scale.
    if (highest > INT16_MAX && s > 0) {
      --s;
      continue;
    }
    clampAtMax = highest > INT16_MAX;
    for (int64_t v : values)
      result.scales.push_back(static_cast<int16_t>(std::min<int64_t>(v, INT16_MAX)));
    break;
  }
  result.shift = static_cast<uint8_t>(s);
  int boundExponent = rounding == ScaleRounding::Truncate ? -static_cast<int>(s)
                                                          : -static_cast<int>(s) - 1;
  result.errorBound = clampAtMax ? 1.0 : std::ldexp(1.0, boundExponent);
  return result;
}

Expected<ScaleShift> dlaformat::nvdla::scaleFromFactor(double factor,
                                                       ScaleRounding rounding) {
  Expected<SharedShiftScales> shared = scalesFromFactors({factor}, rounding);
  if (!shared)
    return shared.takeError();
  return ScaleShift{shared->scales[0], shared->shift, shared->errorBound};
}

namespace {
/// The int16 pair (a, b), a, b in 1..32767, whose product is nearest to x.
std::pair<int16_t, int16_t> nearestProduct(double x) {
  if (x < 0.5)
    return {0, 0};
  std::pair<int16_t, int16_t> best{1, 1};
  double bestError = INFINITY;
  const int64_t lo = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(x / 32767.0)));
  for (int64_t a = std::min<int64_t>(32767, static_cast<int64_t>(x) + 1); a >= lo; --a) {
    const int64_t b = std::min<int64_t>(32767, std::llround(x / static_cast<double>(a)));
    const double error = std::fabs(static_cast<double>(a * b) - x);
    if (b >= 1 && error < bestError) {
      bestError = error;
      best = {static_cast<int16_t>(a), static_cast<int16_t>(b)};
      if (error == 0)
        break;
    }
  }
  return best;
}
} // namespace

Expected<TwoStageScales>
dlaformat::nvdla::twoStageScalesFromFactors(const std::vector<double> &factors,
                                            unsigned fractionBits) {
  if (factors.empty())
    return makeError("no scale factors");
  double largest = 0;
  for (double f : factors) {
    if (!std::isfinite(f))
      return makeError("scale factor " + describe(f) + " is not finite");
    largest = std::max(largest, std::fabs(f));
  }
  TwoStageScales result;
  if (largest == 0) {
    result.first.assign(factors.size(), 0);
    result.second.assign(factors.size(), 0);
    return result;
  }
  int exponent = 0;
  std::frexp(largest, &exponent); // largest = m 2^exponent, m in [0.5, 1)
  // The largest product target in [2^29, 2^30): a total shift of 30 - exponent.
  int total = 30 - exponent;
  int second = 15, fraction = static_cast<int>(fractionBits);
  int first = total - second - fraction;
  // A large factor: fewer fraction bits, then a smaller second shift.
  if (first < 0) {
    const int take = std::min(fraction, -first);
    fraction -= take;
    first += take;
  }
  if (first < 0) {
    second += first;
    first = 0;
  }
  if (second < 0 || first > static_cast<int>(kMaxScaleShift) ||
      second > static_cast<int>(kMaxScaleShift))
    return makeError("scale factor " + describe(largest) +
                     " is outside what two int16 multipliers and 6-bit shifts hold");
  result.firstShift = static_cast<uint8_t>(first);
  result.secondShift = static_cast<uint8_t>(second);
  result.fractionBits = static_cast<uint8_t>(fraction);
  for (double f : factors) {
    // A negative factor (a batch-norm's negative scale) signs X2's int16.
    auto [a, b] = nearestProduct(std::ldexp(std::fabs(f), first + second + fraction));
    result.first.push_back(a);
    result.second.push_back(static_cast<int16_t>(f < 0 ? -b : b));
  }
  return result;
}

Int16Bias dlaformat::nvdla::biasToInt16(const std::vector<int32_t> &bias,
                                        BiasRounding rounding) {
  auto shifted = [&](int64_t b, unsigned s) -> int64_t {
    if (rounding == BiasRounding::Floor || s == 0)
      return b >> s; // arithmetic: floor
    int64_t magnitude = (std::llabs(b) + (int64_t(1) << (s - 1))) >> s;
    return b < 0 ? -magnitude : magnitude;
  };
  // At shift 17 every int32 fits either way: |b| / 2^17 <= 2^14.
  unsigned s = 0;
  for (; s < 17; ++s) {
    bool fits = std::all_of(bias.begin(), bias.end(), [&](int32_t b) {
      int64_t v = shifted(b, s);
      return v >= INT16_MIN && v <= INT16_MAX;
    });
    if (fits)
      break;
  }
  Int16Bias result;
  result.shift = static_cast<uint8_t>(s);
  for (int32_t b : bias)
    result.values.push_back(static_cast<int16_t>(shifted(b, s)));
  if (rounding == BiasRounding::Floor)
    result.errorBound = (int64_t(1) << s) - 1;
  else
    result.errorBound = s == 0 ? 0 : int64_t(1) << (s - 1);
  return result;
}
