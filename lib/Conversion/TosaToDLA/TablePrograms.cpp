//===- TablePrograms.cpp - An int8 table as X-stage SDP passes ------------===//
//
// The table's piecewise-linear interpolant between knots b_0 = -128 < ...
// < b_K = 127 at the table's own values V_k, in offline SDP passes with
// register operands and X2 reading one map per element (the firmware takes
// a stage's operands from one source: registers in X1, memory alone in X2).
//
// A monotone table (a sigmoid's, a tanh's; a falling one negated, and the
// last pass negates back) is a chain, one pass per segment:
//   X1: ALU adds -b_k, MUL m_k, shift s_k, ReLU:  r_k = max(0, RHA((x - b_k) m_k, s_k))
//   X2: ALU adds the previous pass's map per element (not in pass 0);
//   output converter: offset, saturation at 127.
// Pass k stores P_k + c_k with c_k = 127 - V_k+1 (the last: c = 0), so the
// int8 saturation is the clamp P_k = min(P_k-1 + r_k, V_k+1): below b_k
// the ramp is 0, inside it the interpolant rounded once, past b_k+1 the
// knot (m_k is rounded up where needed so the ramp reaches the rise).
// Stored values stay in int8: P_k - V_k+1 >= V_0 - V_k+1 >= -255.
//
// Any other table is ramps and sums: pass k computes
// r_k = RHA((clamp(x, b_k, b_k+1) - b_k) m_k, s_k) (X1's ALU max, X2's ALU
// min and MUL, the output converter's offset and shift; + V_0 in ramp 0),
// exactly the rise outside its segment (checked), and passes reading each
// ramp per element add them up: only the ramp in progress rounds.
//
// Knots are greedy: each segment the longest whose levels all stay within
// kTableProgramError of the table.
//
//===----------------------------------------------------------------------===//

#include "TablePrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// More segments keep the table on the host (a chain's passes, or twice
/// that less one for ramps).
constexpr size_t kMaxSegments = 16;
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

/// Chain segment [lo, hi] of table t (t[x + 128], non-decreasing).
std::optional<TableSegment> fitChain(ArrayRef<int64_t> t, int64_t lo, int64_t hi) {
  const int64_t from = t[lo + 128], to = t[hi + 128];
  auto ms = multiplier(double(to - from) / double(hi - lo));
  if (!ms)
    return std::nullopt;
  TableSegment s{lo, hi, ms->first, ms->second, from, to};
  const bool last = hi == 127;
  if (!last && from + chainRamp(s, hi) < to && ++s.m > 32767)
    return std::nullopt;
  if (!last && from + chainRamp(s, hi) < to)
    return std::nullopt;
  for (int64_t x = lo; x <= hi; ++x) {
    int64_t p = from + chainRamp(s, x);
    if (!last)
      p = std::min(p, to);
    if (std::abs(p - t[x + 128]) > kTableProgramError)
      return std::nullopt;
  }
  return s;
}

/// Ramp segment [lo, hi] of table t (its base added when `first`).
std::optional<TableSegment> fitRamp(ArrayRef<int64_t> t, int64_t lo, int64_t hi, bool first) {
  const int64_t from = t[lo + 128], to = t[hi + 128], rise = to - from;
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
    if (std::abs(rampValue(s, x) + start - t[x + 128]) > kTableProgramError)
      return std::nullopt;
  return s;
}

/// The program's result at level x, pass by pass as the SDP computes it.
int64_t simulate(const TableProgram &p, int64_t x) {
  const size_t n = p.segments.size();
  if (!p.chain) {
    int64_t sum = 0;
    for (const TableSegment &s : p.segments)
      sum = sat8(sum + sat8(rampValue(s, x)));
    return sum;
  }
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

template <typename Fit>
FailureOr<SmallVector<TableSegment>> greedy(ArrayRef<int64_t> t, Fit fit) {
  SmallVector<TableSegment> segments;
  for (int64_t lo = -128; lo < 127;) {
    std::optional<TableSegment> best;
    for (int64_t hi = lo + 1; hi <= 127; ++hi)
      if (std::optional<TableSegment> s = fit(t, lo, hi, segments.empty()))
        best = s;
    if (!best || segments.size() == kMaxSegments)
      return failure();
    segments.push_back(*best);
    lo = best->hi;
  }
  return segments;
}

} // namespace

FailureOr<TableProgram> tosa_to_dla::planTableProgram(ArrayRef<int64_t> entries,
                                                      std::string &why) {
  TableProgram p;
  bool rising = true, falling = true;
  for (size_t i = 1; i < entries.size(); ++i) {
    rising &= entries[i] >= entries[i - 1];
    falling &= entries[i] <= entries[i - 1];
  }
  FailureOr<SmallVector<TableSegment>> segments = failure();
  if (rising || falling) {
    SmallVector<int64_t> t(entries.begin(), entries.end());
    if (!rising)
      for (int64_t &v : t)
        v = -v;
    segments = greedy(t, [](ArrayRef<int64_t> t, int64_t lo, int64_t hi, bool) {
      return fitChain(t, lo, hi);
    });
    p.chain = true;
    p.falling = !rising;
  } else {
    segments = greedy(entries, fitRamp);
  }
  if (succeeded(segments)) {
    p.segments = std::move(*segments);
    bool within = true;
    for (int64_t x = -128; x <= 127; ++x)
      within &= std::abs(simulate(p, x) - entries[x + 128]) <= kTableProgramError;
    if (within)
      return p;
  }
  why = "the target has no SDP lookup table (SDP_LUT_ENABLE: the Y stage) and its table is no "
        "interpolant of " + std::to_string(kMaxSegments) + " segments within " +
        std::to_string(kTableProgramError) + " output step";
  return failure();
}

Value tosa_to_dla::emitTableProgram(PatternRewriter &rewriter, Location loc, Value x,
                                    const TableProgram &p) {
  MLIRContext *ctx = rewriter.getContext();
  auto reg = [](int64_t v) { return SdpOperand::ofRegister(v); };
  const SdpOperand eltwise = SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise);
  auto addInX2 = [&](SdpOp sdp, Value operand) {
    sdp.getEltwiseMutable().assign(operand);
    sdp.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Sum, eltwise, 0, SdpOperand(), 0, false,
                                false));
  };
  const size_t n = p.segments.size();
  Value last;
  int64_t carry = 0;
  for (size_t k = 0; k < n; ++k) {
    const TableSegment &s = p.segments[k];
    auto pass = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
    if (p.chain) {
      // The ramp, then the previous pass added; saturation clamps at the knot.
      pass.setBsAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Sum, reg(-s.lo), 0, reg(s.m), s.shift,
                                   false, /*relu=*/true));
      if (k > 0)
        addInX2(pass, last);
      const int64_t c = k + 1 < n ? 127 - s.to : 0;
      const int64_t offset = k == 0 ? -(s.from + c) : carry - c;
      const int64_t scale = k + 1 == n && p.falling ? -1 : 1;
      if (offset != 0 || scale != 1)
        pass.setOutCvtAttr(CvtAttr::get(ctx, offset, scale, 0));
      carry = c;
      last = pass;
      continue;
    }
    pass.setBsAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Max, reg(s.lo), 0, SdpOperand(), 0, false,
                                 false));
    pass.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Min, reg(s.hi), 0, reg(s.m), 0, false,
                                 false));
    pass.setOutCvtAttr(
        CvtAttr::get(ctx, s.lo * s.m - s.from * (int64_t(1) << s.shift), 1, s.shift));
    if (!last) {
      last = pass;
      continue;
    }
    auto add = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, last);
    addInX2(add, pass);
    last = add;
  }
  return last;
}
