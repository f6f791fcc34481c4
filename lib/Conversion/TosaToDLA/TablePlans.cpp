//===- TablePlans.cpp - Piecewise-linear plans of monotone tables ---------===//
//
// The knots and multipliers of a table program (TablePrograms.cpp says
// how its passes compute; docs/Activations.md states the error).
//
// Knots are greedy: each segment the longest whose levels all stay within
// their tolerance of the table (kTableProgramError for a tosa.table; per
// level for planChain's callers, e.g. exact where the softmax's values are
// small). A chain runs over any integer domain: an int8 map's levels, or a
// convolution accumulator's values on the fly (the softmax's reciprocal
// over the sum of a row's e, 127..5080).
//
//===----------------------------------------------------------------------===//

#include "TablePlans.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {

/// The finest multiplier shift tried: (x - b) m stays within 32 bits.
constexpr int64_t kMaxShift = 24;

int64_t rha(int64_t v, int64_t shift) {
  if (shift == 0)
    return v;
  const int64_t half = int64_t(1) << (shift - 1);
  return v >= 0 ? (v + half) >> shift : -((-v + half) >> shift);
}

int64_t sat8(int64_t v) { return std::min<int64_t>(127, std::max<int64_t>(-128, v)); }

/// A chain segment's ramp at level x: X1's sum, multiply, shift and ReLU.
int64_t chainRamp(const TableSegment &s, int64_t x) {
  return std::max<int64_t>(0, rha((x - s.lo) * s.m, s.shift));
}

/// A ramp pass's value at level x (its base V_0 in `s.from` for ramp 0
/// only; callers pass from = 0 otherwise).
int64_t rampValue(const TableSegment &s, int64_t x) {
  const int64_t c = std::min(std::max(x, s.lo), s.hi);
  return rha((c - s.lo) * s.m + s.from * (int64_t(1) << s.shift), s.shift);
}

/// The multiplier of a slope at the finest shift whose int16 holds it.
std::optional<std::pair<int64_t, int64_t>> multiplier(double slope) {
  for (int64_t shift = kMaxShift; shift >= 0; --shift) {
    const int64_t m = static_cast<int64_t>(std::llround(std::ldexp(slope, int(shift))));
    if (m >= -32768 && m <= 32767)
      return std::make_pair(m, shift);
  }
  return std::nullopt;
}

/// A non-decreasing table over levels base.., each level's tolerance.
struct Levels {
  ArrayRef<int64_t> t, tol;
  int64_t base;
  int64_t top() const { return base + int64_t(t.size()) - 1; }
  int64_t at(int64_t x) const { return t[x - base]; }
};

/// Chain segment [lo, hi] of the table.
std::optional<TableSegment> fitChain(const Levels &l, int64_t lo, int64_t hi) {
  const int64_t from = l.at(lo), to = l.at(hi);
  auto ms = multiplier(double(to - from) / double(hi - lo));
  if (!ms)
    return std::nullopt;
  TableSegment s{lo, hi, ms->first, ms->second, from, to};
  const bool last = hi == l.top();
  if (!last && from + chainRamp(s, hi) < to && ++s.m > 32767)
    return std::nullopt;
  if (!last && from + chainRamp(s, hi) < to)
    return std::nullopt;
  for (int64_t x = lo; x <= hi; ++x) {
    int64_t p = from + chainRamp(s, x);
    if (!last)
      p = std::min(p, to);
    if (std::abs(p - l.at(x)) > l.tol[x - l.base])
      return std::nullopt;
  }
  return s;
}

/// Ramp segment [lo, hi] of table t (levels -128..127; its base added
/// when `first`).
std::optional<TableSegment> fitRamp(const Levels &l, int64_t lo, int64_t hi, bool first) {
  const int64_t from = l.at(lo), to = l.at(hi), rise = to - from;
  if (!first && (rise < -128 || rise > 127))
    return std::nullopt; // the ramp's own map is int8
  auto ms = multiplier(double(rise) / double(hi - lo));
  if (!ms)
    return std::nullopt;
  TableSegment s{lo, hi, ms->first, ms->second, first ? from : 0, to};
  const int64_t start = first ? 0 : from;
  if (rampValue(s, hi) + start != to)
    return std::nullopt;
  for (int64_t x = lo; x <= hi; ++x)
    if (std::abs(rampValue(s, x) + start - l.at(x)) > l.tol[x - l.base])
      return std::nullopt;
  return s;
}

/// The ramps-and-sums program's result at level x.
int64_t simulateRamps(const TableProgram &p, int64_t x) {
  int64_t sum = 0;
  for (const TableSegment &s : p.segments)
    sum = sat8(sum + sat8(rampValue(s, x)));
  return sum;
}

template <typename Fit>
FailureOr<SmallVector<TableSegment>> greedy(const Levels &l, size_t maxSegments, Fit fit) {
  SmallVector<TableSegment> segments;
  for (int64_t lo = l.base; lo < l.top();) {
    std::optional<TableSegment> best;
    for (int64_t hi = lo + 1; hi <= l.top(); ++hi)
      if (std::optional<TableSegment> s = fit(l, lo, hi, segments.empty()))
        best = s;
    if (!best || segments.size() == maxSegments)
      return failure();
    segments.push_back(*best);
    lo = best->hi;
  }
  return segments;
}

} // namespace

int64_t tosa_to_dla::simulateChain(const TableProgram &p, int64_t x) {
  const size_t n = p.segments.size();
  int64_t stored = 0, carry = 0; // the previous pass's map and its c
  for (size_t k = 0; k < n; ++k) {
    const TableSegment &s = p.segments[k];
    const int64_t c = k + 1 < n ? 127 - s.to : 0;
    const int64_t offset = k == 0 ? -(s.from + c) : carry - c;
    const int64_t v = chainRamp(s, x) + (k == 0 ? 0 : stored);
    stored = sat8((v - offset) * (k + 1 == n && p.falling ? -1 : 1));
    carry = c;
  }
  return stored;
}

FailureOr<TableProgram> tosa_to_dla::planChain(ArrayRef<int64_t> table, int64_t base,
                                               ArrayRef<int64_t> tolerance,
                                               size_t maxSegments) {
  if (table.size() < 2 || tolerance.size() != table.size())
    return failure();
  bool rising = true, falling = true;
  for (size_t i = 1; i < table.size(); ++i) {
    rising &= table[i] >= table[i - 1];
    falling &= table[i] <= table[i - 1];
  }
  if (!rising && !falling)
    return failure();
  SmallVector<int64_t> t(table.begin(), table.end());
  if (!rising)
    for (int64_t &v : t)
      v = -v;
  FailureOr<SmallVector<TableSegment>> segments =
      greedy(Levels{t, tolerance, base}, maxSegments,
             [](const Levels &l, int64_t lo, int64_t hi, bool) { return fitChain(l, lo, hi); });
  if (failed(segments))
    return failure();
  TableProgram p;
  p.chain = true;
  p.falling = !rising;
  p.segments = std::move(*segments);
  // The passes' own arithmetic, level by level (the clamps and offsets
  // the fit did not model).
  for (size_t i = 0; i < table.size(); ++i)
    if (std::abs(simulateChain(p, base + int64_t(i)) - table[i]) > tolerance[i])
      return failure();
  return p;
}

namespace {

/// The program of the 256 entries with every level within `error` of its
/// entry: a chain of at most `chainSegments` passes when the table is
/// monotone, else ramps and sums of at most `rampSegments` ramps.
FailureOr<TableProgram> planWithin(ArrayRef<int64_t> entries, int64_t error,
                                   size_t chainSegments, size_t rampSegments) {
  const SmallVector<int64_t> tolerance(entries.size(), error);
  bool rising = true, falling = true;
  for (size_t i = 1; i < entries.size(); ++i) {
    rising &= entries[i] >= entries[i - 1];
    falling &= entries[i] <= entries[i - 1];
  }
  if (rising || falling)
    return planChain(entries, -128, tolerance, chainSegments);
  FailureOr<SmallVector<TableSegment>> segments =
      greedy(Levels{entries, tolerance, -128}, rampSegments, fitRamp);
  if (failed(segments))
    return failure();
  TableProgram r;
  r.segments = std::move(*segments);
  for (int64_t x = -128; x <= 127; ++x)
    if (std::abs(simulateRamps(r, x) - entries[x + 128]) > error)
      return failure();
  return r;
}

} // namespace

FailureOr<TableProgram> tosa_to_dla::planTableProgram(ArrayRef<int64_t> entries,
                                                      std::string &why) {
  // Exact first, as the LUT (and TOSA on the host) answers: a level one
  // step off moves what reads it (a swish's gate by 1/127 of x, a
  // LayerNorm's 1 / sqrt by up to a few percent of the row), and the
  // passes run on the maps a table reads, which are small next to the
  // convolutions'.
  if (FailureOr<TableProgram> p = planWithin(entries, 0, kMaxExactTablePasses,
                                             (kMaxExactTablePasses + 1) / 2);
      succeeded(p))
    return p;
  if (FailureOr<TableProgram> p =
          planWithin(entries, kTableProgramError, kMaxTableSegments, kMaxTableSegments);
      succeeded(p))
    return p;
  why = "the target has no SDP lookup table (SDP_LUT_ENABLE: the Y stage) and its table is no "
        "interpolant of " + std::to_string(kMaxTableSegments) + " segments within " +
        std::to_string(kTableProgramError) + " output step";
  return failure();
}

SmallVector<int64_t> tosa_to_dla::centredTable(ArrayRef<double> values, int64_t exactBelow) {
  SmallVector<int64_t> t;
  t.reserve(values.size());
  // nearbyint: half to even, as numpy's rint.
  for (double v : values) {
    const double r = std::nearbyint(v);
    t.push_back(static_cast<int64_t>(r < double(exactBelow) ? r : std::nearbyint(v - 0.5)));
  }
  return t;
}

SmallVector<int64_t> tosa_to_dla::centredTolerance(ArrayRef<int64_t> table, int64_t exactBelow) {
  SmallVector<int64_t> tol;
  tol.reserve(table.size());
  for (int64_t v : table)
    tol.push_back(std::abs(v) < exactBelow ? 0 : kTableProgramError);
  return tol;
}
