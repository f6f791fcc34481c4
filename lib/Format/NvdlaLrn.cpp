//===- NvdlaLrn.cpp - The CDP's integer LRN: tables, converters, error ---===//
//
// The scalar arithmetic follows utils/dla-ref/int_cdp.py line by line (that
// model is checked against NVIDIA's C model); values stay below 2^62.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaLrn.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <vector>

namespace dlaformat::nvdla {
namespace {

constexpr int64_t kLimit = int64_t(1) << 62;
constexpr int kInterpBits = 56;

int64_t rha(int64_t v, int64_t shift) {
  if (shift == 0)
    return v;
  int64_t a = v < 0 ? -v : v, q;
  if (shift >= 63)
    q = (a >= kLimit && shift == 63) ? 1 : 0;
  else
    q = (a + (int64_t(1) << (shift - 1))) >> shift;
  return v < 0 ? -q : q;
}

int64_t sat(int64_t v, int bits) {
  const int64_t hi = (int64_t(1) << (bits - 1)) - 1, lo = -(int64_t(1) << (bits - 1));
  return std::clamp(v, lo, hi);
}

int64_t wrap(int64_t v, int bits) {
  const uint64_t m = uint64_t(1) << bits;
  return int64_t((uint64_t(v) + (m >> 1)) & (m - 1)) - int64_t(m >> 1);
}

int64_t shl(int64_t v, int64_t shift, int bits) {
  int64_t s = std::min<int64_t>(shift, 62);
  int64_t a = v < 0 ? -v : v;
  if (a > (kLimit >> s))
    return sat(v < 0 ? -kLimit : kLimit, bits);
  return sat(v * (int64_t(1) << s), bits);
}

// NV_NVDLA_cdp::convert(v, shift, 56, true).
int64_t convert(int64_t v, int64_t shift) {
  return shift >= 0 ? sat(rha(v, shift), kInterpBits) : shl(v, -shift, kInterpBits);
}

// The C model's int64 product, which wraps (the exponent underflow's
// 2^offset bias times a 16-bit slope passes 2^63), kept within 2^62: from
// 2^53 on the slope shift (at most 15) leaves more than 16 bits, so the
// result saturates by sign whatever the magnitude.
int64_t mulWrapped(int64_t a, int64_t b) {
  return std::clamp(int64_t(uint64_t(a) * uint64_t(b)), -kLimit, kLimit);
}

int64_t edge(int64_t tableValue, int64_t d, LutSlope slope) {
  return sat(tableValue + convert(mulWrapped(d, slope.scale), slope.shift), 16);
}

template <size_t N> int64_t interp(const std::array<int64_t, N> &t, int64_t idx, int64_t frac16) {
  int64_t r0 = t[idx], r1 = t[std::min<int64_t>(idx + 1, N - 1)];
  return sat(r0 + convert((r1 - r0) * frac16, 16), 16);
}

struct TableResult {
  int64_t value;
  bool under, over;
  bool hit() const { return !under && !over; }
};

int64_t to16(int64_t frac, int64_t bits) {
  return bits > 16 ? frac >> (bits - 16) : frac << (16 - bits);
}

template <size_t N>
TableResult linear(int64_t s, const std::array<int64_t, N> &t, int64_t start, int64_t end,
                   int64_t select, LutSlope uflow, LutSlope oflow) {
  const int64_t n = N - 1, d = s - start;
  int64_t idx, frac = 0;
  if (select >= 0) {
    idx = d >> select;
    // The C model's `d % (1 << select)` with a 32-bit 1 (count mod 32).
    frac = to16(d & ((int64_t(1) << (select & 31)) - 1), select);
  } else {
    // int64 `d << -select` wraps (count mod 64).
    idx = int64_t(uint64_t(d) << ((-select) & 63));
  }
  TableResult r;
  r.under = idx < 0 || d <= 0;
  r.over = !r.under && idx >= n;
  r.value = r.under  ? edge(t[0], s - start, uflow)
            : r.over ? edge(t[n], s - end, oflow)
                     : interp(t, idx, frac);
  return r;
}

template <size_t N>
TableResult exponent(int64_t s, const std::array<int64_t, N> &t, int64_t start, int64_t end,
                     int64_t offset, LutSlope uflow, LutSlope oflow) {
  const int64_t d = s - start;
  int64_t log = d > 0 ? 63 - __builtin_clzll(uint64_t(d)) : 0;
  int64_t idx = log - offset;
  TableResult r;
  r.under = idx < 0 || d <= 0;
  r.over = !r.under && idx >= int64_t(N) - 1;
  int64_t uoff = offset < 0 ? 0 : int64_t(1) << offset;
  if (r.under) {
    r.value = edge(t[0], s - start - uoff, uflow);
  } else if (r.over) {
    r.value = edge(t[N - 1], s - end, oflow);
  } else {
    int64_t rest = d - (int64_t(1) << log);
    int64_t frac = log > 16 ? rest >> (log - 16) : rest << (16 - log);
    r.value = interp(t, idx, frac);
  }
  return r;
}

double lrnFactor(double alpha, double beta, double k, int64_t size, double s) {
  return std::pow(k + alpha / double(size) * s, -beta);
}

int64_t roundEntry(double v) {
  double r = std::floor(v + 0.5);
  return int64_t(std::clamp(r, -32768.0, 32767.0));
}

} // namespace

int lrnBits(Precision precision) { return precision == Precision::Int16 ? 16 : 8; }

int64_t cdpInputConvert(int64_t x, const CvtRegisters &in, int bits) {
  int64_t off = bits == 8 ? wrap(in.offset, 8) : in.offset;
  return sat(rha((x - off) * in.scale, in.shift), bits + 1);
}

int64_t cdpOutputConvert(int64_t v, const CvtRegisters &out, int bits) {
  int64_t off = bits == 8 ? wrap(out.offset, 25) : out.offset;
  return sat(rha((v - off) * out.scale, out.shift), bits);
}

int64_t cdpLookup(int64_t s, const LutProgram &lut, int bits) {
  // int8 reads the index selects sign-extended from bit 5, int16 from bit 6.
  const int selBits = bits == 8 ? 6 : 7;
  auto field = [&](int64_t v) { return wrap(v, selBits); };
  TableResult le = lut.leLinear ? linear(s, lut.le, lut.leStart, lut.leEnd,
                                         field(lut.leIndexSelect), lut.leUflow, lut.leOflow)
                                : exponent(s, lut.le, lut.leStart, lut.leEnd, lut.leIndexOffset,
                                           lut.leUflow, lut.leOflow);
  TableResult lo = linear(s, lut.lo, lut.loStart, lut.loEnd, field(lut.loIndexSelect),
                          lut.loUflow, lut.loOflow);
  return lutChoosesLo(lut, le.under, le.over, lo.under, lo.over) ? lo.value : le.value;
}

namespace {

/// kLutRegisters' order <-> LutProgram; the flags as int64 copies.
template <typename Visit>
void visitLutRegisters(LutProgram &lut, int64_t &leLinear, int64_t &uflowLo, int64_t &oflowLo,
                       int64_t &hybridLo, Visit visit) {
  for (int64_t &v : lut.le)
    visit(v);
  for (int64_t &v : lut.lo)
    visit(v);
  for (int64_t *v : {&leLinear, &lut.leStart, &lut.leEnd, &lut.loStart, &lut.loEnd,
                     &lut.leIndexOffset, &lut.leIndexSelect, &lut.loIndexSelect,
                     &lut.leUflow.scale, &lut.leUflow.shift, &lut.leOflow.scale,
                     &lut.leOflow.shift, &lut.loUflow.scale, &lut.loUflow.shift,
                     &lut.loOflow.scale, &lut.loOflow.shift, &uflowLo, &oflowLo, &hybridLo})
    visit(*v);
}

} // namespace

LutProgram lutFromRegisters(const int64_t *registers) {
  LutProgram lut;
  int64_t leLinear, uflowLo, oflowLo, hybridLo;
  size_t i = 0;
  visitLutRegisters(lut, leLinear, uflowLo, oflowLo, hybridLo,
                    [&](int64_t &v) { v = registers[i++]; });
  lut.leLinear = leLinear != 0;
  lut.uflowLo = uflowLo != 0;
  lut.oflowLo = oflowLo != 0;
  lut.hybridLo = hybridLo != 0;
  return lut;
}

void lutToRegisters(const LutProgram &program, int64_t *registers) {
  LutProgram lut = program;
  int64_t leLinear = lut.leLinear, uflowLo = lut.uflowLo, oflowLo = lut.oflowLo,
          hybridLo = lut.hybridLo;
  size_t i = 0;
  visitLutRegisters(lut, leLinear, uflowLo, oflowLo, hybridLo,
                    [&](int64_t &v) { registers[i++] = v; });
}

bool lutChoosesLo(const LutProgram &lut, bool leUnder, bool leOver, bool loUnder, bool loOver) {
  const bool leHit = !leUnder && !leOver, loHit = !loUnder && !loOver;
  if (leUnder && loUnder)
    return lut.uflowLo;
  if (leOver && loOver)
    return lut.oflowLo;
  if (leHit != loHit)
    return loHit;
  return lut.hybridLo;
}

namespace {

/// The error of one output against the real-valued LRN, saturated.
double outputError(int64_t out, int64_t x, double f, int bits) {
  double hi = double((int64_t(1) << (bits - 1)) - 1), lo = -double(int64_t(1) << (bits - 1));
  double ref = std::clamp(double(x) * f, lo, hi);
  return std::fabs(double(out) - ref);
}

/// The selection metric of deriveLrnTables: at square sum S the largest
/// input (floor(sqrt S), capped) meets the table's error times the
/// converter's scale. Written so that utils/dla-ref/int_cases_lrn.py
/// computes the same doubles.
double tableError(const LrnTables &t, double f, int64_t s, int bits) {
  int64_t xm = std::min<int64_t>(int64_t(std::sqrt(double(s))), int64_t(1) << (bits - 1));
  double r = double(cdpLookup(s, t.lut, bits) * t.out.scale);
  return double(xm) * std::fabs(std::ldexp(r, -int(t.out.shift)) - f);
}

LrnTables deriveUncached(double alpha, double beta, double k, int64_t size,
                         Precision precision) {
  const int bits = lrnBits(precision);
  const int64_t xmax = int64_t(1) << (bits - 1);
  const int64_t smax = size * xmax * xmax;
  auto f = [&](double s) { return lrnFactor(alpha, beta, k, size, s); };
  LrnTables t;
  // Entries f(S) 2^e, e the largest keeping the largest entry in int16; a
  // negative e is a scale of the output converter.
  double fmax = std::max(f(0), f(double(smax)));
  int e = std::isfinite(fmax) && fmax > 0 ? int(std::floor(std::log2(32767.0 / fmax))) : 0;
  e = std::clamp(e, -15, 63);
  t.out = e >= 0 ? CvtRegisters{0, 1, e} : CvtRegisters{0, int64_t(1) << -e, 0};
  auto entry = [&](double s) { return roundEntry(std::ldexp(f(s), e)); };

  LutProgram &lut = t.lut;
  lut.leLinear = false;
  lut.leIndexOffset = 0;
  lut.leStart = 0;
  int leTop = 0;
  while ((int64_t(1) << leTop) < smax)
    ++leTop;
  lut.leEnd = int64_t(1) << leTop;
  for (int i = 0; i < LutProgram::kLeEntries; ++i)
    lut.le[i] = entry(std::ldexp(1.0, i));
  lut.loStart = 0;
  lut.uflowLo = true;  // S = 0: LO's underflow answers lo[0] = f(0)
  lut.oflowLo = false; // LE reaches 2^64
  lut.hybridLo = true; // LO's step is finer than LE's octaves

  // Metric points: every square sum for int8, a grid for int16.
  std::vector<int64_t> points;
  if (bits == 8) {
    for (int64_t s = 0; s <= smax; ++s)
      points.push_back(s);
  } else {
    for (int64_t s = 0; s <= 65536; ++s)
      points.push_back(s);
    for (int i = 0; i <= 20000; ++i)
      points.push_back(65536 + int64_t(double(smax - 65536) * (double(i) / 20000.0) *
                                       (double(i) / 20000.0)));
  }
  std::vector<double> fs(points.size());
  for (size_t i = 0; i < points.size(); ++i)
    fs[i] = f(double(points[i]));

  int selMax = 0;
  while ((int64_t(256) << selMax) < smax)
    ++selMax;
  const int selLimit = bits == 8 ? 31 : 63;
  selMax = std::min(selMax, selLimit);
  double best = INFINITY;
  LutProgram bestLut = lut;
  for (int sel = 0; sel <= selMax; ++sel) {
    lut.loIndexSelect = sel;
    lut.loEnd = int64_t(256) << sel;
    for (int j = 0; j < LutProgram::kLoEntries; ++j)
      lut.lo[j] = entry(std::ldexp(double(j), sel));
    double worst = 0;
    for (size_t i = 0; i < points.size(); ++i)
      worst = std::max(worst, tableError(t, fs[i], points[i], bits));
    if (worst < best) {
      best = worst;
      bestLut = lut;
    }
  }
  lut = bestLut;
  return t;
}

LrnError measureUncached(const LrnTables &t, double alpha, double beta, double k, int64_t size,
                         Precision precision) {
  const int bits = lrnBits(precision);
  const int64_t xmin = -(int64_t(1) << (bits - 1)), xmax = (int64_t(1) << (bits - 1)) - 1;
  auto f = [&](double s) { return lrnFactor(alpha, beta, k, size, s); };
  auto xc = [&](int64_t x) { return cdpInputConvert(x, t.in, bits); };
  LrnError worst{-1, 0, 0};
  auto consider = [&](int64_t x, int64_t rawSum, int64_t s) {
    int64_t c = xc(x);
    int64_t out = cdpOutputConvert(cdpLookup(s, t.lut, bits) * c, t.out, bits);
    double err = outputError(out, x, f(double(rawSum)), bits);
    if (err > worst.error)
      worst = {err, x, rawSum};
  };
  if (bits == 8) {
    // Sums of size - 1 squares of int8 values, each with one witness (the
    // last value added) so that a stated input converter sees real inputs.
    const int64_t top = (size - 1) * 128 * 128;
    std::vector<std::vector<int16_t>> last(size, std::vector<int16_t>(top + 1, -1));
    last[0][0] = 0;
    for (int64_t level = 1; level < size; ++level)
      for (int64_t prev = 0; prev <= top; ++prev) {
        if (last[level - 1][prev] < 0)
          continue;
        for (int64_t v = 0; v <= 128 && prev + v * v <= top; ++v)
          if (last[level][prev + v * v] < 0)
            last[level][prev + v * v] = int16_t(v);
      }
    // Converted square sum of each attainable T's witness (128 is -128).
    std::vector<int64_t> neighbours(top + 1, -1);
    for (int64_t sum = 0; sum <= top; ++sum) {
      if (last[size - 1][sum] < 0)
        continue;
      int64_t rest = sum, conv = 0;
      for (int64_t level = size - 1; level > 0; --level) {
        int64_t v = last[level][rest];
        int64_t c = xc(v == 128 ? -128 : v);
        conv += c * c;
        rest -= v * v;
      }
      neighbours[sum] = conv;
    }
    std::vector<double> fs(128 * 128 + top + 1);
    for (size_t s = 0; s < fs.size(); ++s)
      fs[s] = f(double(s));
    // r for every converted square sum (|xc| <= 256).
    const int64_t sTop = size * 256 * 256;
    std::vector<int64_t> r(sTop + 1);
    for (int64_t s = 0; s <= sTop; ++s)
      r[s] = cdpLookup(s, t.lut, bits);
    for (int64_t x = xmin; x <= xmax; ++x) {
      int64_t c = xc(x);
      for (int64_t sum = 0; sum <= top; ++sum) {
        if (neighbours[sum] < 0)
          continue;
        int64_t out = cdpOutputConvert(r[c * c + neighbours[sum]] * c, t.out, bits);
        double err = outputError(out, x, fs[x * x + sum], bits);
        if (err > worst.error)
          worst = {err, x, x * x + sum};
      }
    }
    return worst;
  }
  // int16: windows whose neighbours have random magnitudes (a random right
  // shift) so that small and large square sums both occur.
  std::mt19937_64 rng(21);
  std::uniform_int_distribution<int64_t> value(xmin, xmax);
  std::uniform_int_distribution<int> shift(0, 15);
  for (int i = 0; i < (1 << 20); ++i) {
    int64_t x = value(rng) >> shift(rng), raw = x * x, c = xc(x), s = c * c;
    for (int64_t j = 1; j < size; ++j) {
      int64_t v = value(rng) >> shift(rng), cv = xc(v);
      raw += v * v;
      s += cv * cv;
    }
    consider(x, raw, s);
  }
  return worst;
}

/// Both computations are exhaustive (a tenth of a second for an int8 LRN
/// of size 9), and the checks, the lowering and the register writer of one
/// pipeline, the layers of a network and a fuzzer's inputs ask for the same
/// few parameter sets again and again: answers are kept, keyed by every
/// input (doubles by their bits), at most kCacheEntries of each.
constexpr size_t kCacheEntries = 256;
using Key = std::vector<int64_t>;

Key parameterKey(double alpha, double beta, double k, int64_t size, Precision precision) {
  Key key{size, int64_t(precision)};
  for (double d : {alpha, beta, k}) {
    int64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    key.push_back(bits);
  }
  return key;
}

void appendTables(Key &key, const LrnTables &t) {
  const LutProgram &l = t.lut;
  key.insert(key.end(), l.le.begin(), l.le.end());
  key.insert(key.end(), l.lo.begin(), l.lo.end());
  key.insert(key.end(), {l.leLinear, l.leStart, l.leEnd, l.loStart, l.loEnd, l.leIndexOffset,
                         l.leIndexSelect, l.loIndexSelect, l.leUflow.scale, l.leUflow.shift,
                         l.leOflow.scale, l.leOflow.shift, l.loUflow.scale, l.loUflow.shift,
                         l.loOflow.scale, l.loOflow.shift, l.uflowLo, l.oflowLo, l.hybridLo,
                         t.in.offset, t.in.scale, t.in.shift, t.out.offset, t.out.scale,
                         t.out.shift});
}

template <typename T> class Memo {
public:
  template <typename F> T get(const Key &key, F compute) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = entries.find(key);
      if (it != entries.end())
        return it->second;
    }
    T value = compute(); // unlocked: other threads may compute other keys
    std::lock_guard<std::mutex> lock(mutex);
    if (entries.size() >= kCacheEntries)
      entries.clear();
    entries.emplace(key, value);
    return value;
  }

private:
  std::mutex mutex;
  std::map<Key, T> entries;
};

} // namespace

LrnTables deriveLrnTables(double alpha, double beta, double k, int64_t size,
                          Precision precision) {
  static Memo<LrnTables> memo;
  return memo.get(parameterKey(alpha, beta, k, size, precision),
                  [&] { return deriveUncached(alpha, beta, k, size, precision); });
}

LrnError measureLrnError(const LrnTables &tables, double alpha, double beta, double k,
                         int64_t size, Precision precision) {
  static Memo<LrnError> memo;
  Key key = parameterKey(alpha, beta, k, size, precision);
  appendTables(key, tables);
  return memo.get(key, [&] { return measureUncached(tables, alpha, beta, k, size, precision); });
}

} // namespace dlaformat::nvdla
