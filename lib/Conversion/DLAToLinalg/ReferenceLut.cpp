//===- ReferenceLut.cpp - The LUT arithmetic of the SDP and the CDP ------===//
//
// Both units index two tables (LE: exponent or linear, LO: linear), report
// under / overflow / hit per table, answer out-of-range values with a slope
// from the edge entry, and choose a table by the same priority rules; they
// differ in index arithmetic and interpolation width. The shared steps
// (table reads, slope shifts, the choice) are written once here; the index
// functions follow their numpy models line by line. dla.lrn executes
// cdpLookup in test/Execution/int-lrn-layers.test; sdpLookup awaits ew.lut
// and was checked by a throw-away hook in the LRN lowering (v =
// wrap32(x * m + a) -> sdpLookup, 3,000 random tables and slopes within
// the CDP's index-select range, both 16-bit halves of each result) against
// int_sdp_lut.sdp_lut, bit-exact.
//
//===----------------------------------------------------------------------===//

#include "ReferenceLut.h"
#include "ReferenceArith.h"

#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/NvdlaLutFloat.h"
#include "ReferenceInts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;

namespace {


/// One table's answer and how the input fell.
struct Outcome {
  Value value, under, over;
};

/// Both units: both under -> uflow priority, both over -> oflow priority,
/// exactly one hit -> that one, else hybrid priority.
Value choose(Ints &m, const Outcome &le, const Outcome &lo, bool uflowLo, bool oflowLo,
             bool hybridLo) {
  Value leHit = m.bnot(m.bor(le.under, le.over)), loHit = m.bnot(m.bor(lo.under, lo.over));
  Value useLo =
      m.sel(m.band(le.under, lo.under), m.flag(uflowLo),
            m.sel(m.band(le.over, lo.over), m.flag(oflowLo),
                  m.sel(m.ne(leHit, loHit), loHit, m.flag(hybridLo))));
  return m.sel(useLo, lo.value, le.value);
}

//===----------------------------------------------------------------------===//
// CDP (int_cdp.py)
//===----------------------------------------------------------------------===//

constexpr unsigned kCdpInterpBits = 56;

/// d * scale in i64, wrapping as the C model's int64_t product does (the
/// exponent underflow's 2^offset bias times a 16-bit slope passes 2^63),
/// then kept within +-2^62: from 2^53 on the result saturates by sign.
Value cdpMul(Ints &m, Value d, int64_t scale) {
  constexpr int64_t limit = int64_t(1) << 62;
  return m.max(m.min(m.mul(d, m.c(scale)), m.c(limit)), m.c(-limit));
}

/// SAT16(T[edge] + SAT56(RHA(d * scale, shift))).
Value cdpEdge(Ints &m, int64_t tableValue, Value d, nv::LutSlope slope) {
  return m.sat(m.add(m.c(tableValue),
                     m.signedShift(cdpMul(m, d, slope.scale), slope.shift, kCdpInterpBits)),
               16);
}

/// SAT16(T[i] + SAT56(RHA((T[i+1] - T[i]) * frac16, 16))).
Value cdpInterp(Ints &m, Value table, int64_t last, Value idx, Value frac16) {
  Value r0 = m.entry(table, idx, last), r1 = m.entry(table, m.add(idx, m.c(1)), last);
  return m.sat(m.add(r0, m.signedShift(m.mul(m.sub(r1, r0), frac16), 16, kCdpInterpBits)), 16);
}

/// LE linear mode or LO (int_cdp._linear); `select` already read at the
/// precision's width.
template <size_t N>
Outcome cdpLinear(Ints &m, Value s, const std::array<int64_t, N> &t, int64_t start, int64_t end,
                  int64_t select, nv::LutSlope uflow, nv::LutSlope oflow) {
  const int64_t n = N - 1;
  Value d = m.sub(s, m.c(start));
  Value idx, frac = m.c(0);
  if (select >= 0) {
    idx = m.shr(d, m.c(select));
    // The C model's `d % (1 << select)` with a 32-bit 1 (count mod 32),
    // then 16 fraction bits.
    Value rest = m.band(d, m.c((int64_t(1) << (select & 31)) - 1));
    frac = select > 16 ? m.shr(rest, m.c(select - 16)) : m.shl(rest, m.c(16 - select));
  } else {
    idx = m.shl(d, m.c((-select) & 63)); // wraps, as the C model's int64 shift
  }
  Outcome o;
  o.under = m.bor(m.lt(idx, m.c(0)), m.le(d, m.c(0)));
  o.over = m.band(m.bnot(o.under), m.ge(idx, m.c(n)));
  Value table = m.table(t);
  o.value = m.sel(o.under, cdpEdge(m, t[0], m.sub(s, m.c(start)), uflow),
                  m.sel(o.over, cdpEdge(m, t[n], m.sub(s, m.c(end)), oflow),
                        cdpInterp(m, table, n, idx, frac)));
  return o;
}

/// LE exponent mode (int_cdp._exponent): index floor(log2(s - start)) -
/// offset; the underflow slope starts at start + 2^offset (offset >= 0).
Outcome cdpExponent(Ints &m, Value s, const nv::LutProgram &lut) {
  const auto &t = lut.le;
  const int64_t n = nv::LutProgram::kLeEntries - 1, offset = lut.leIndexOffset;
  Value d = m.sub(s, m.c(lut.leStart));
  Value positive = m.gt(d, m.c(0));
  Value log = m.sel(positive, m.log2(m.sel(positive, d, m.c(1))), m.c(0));
  Value idx = m.sub(log, m.c(offset));
  Outcome o;
  o.under = m.bor(m.lt(idx, m.c(0)), m.bnot(positive));
  o.over = m.band(m.bnot(o.under), m.ge(idx, m.c(n)));
  const int64_t uoff = offset < 0 ? 0 : int64_t(1) << offset;
  Value rest = m.sub(d, m.shl(m.c(1), log)); // the bits below the leading one
  Value frac = m.sel(m.gt(log, m.c(16)), m.shr(rest, m.max(m.sub(log, m.c(16)), m.c(0))),
                     m.shl(rest, m.max(m.sub(m.c(16), log), m.c(0))));
  Value table = m.table(t);
  o.value = m.sel(o.under, cdpEdge(m, t[0], m.sub(s, m.c(lut.leStart + uoff)), lut.leUflow),
                  m.sel(o.over, cdpEdge(m, t[n], m.sub(s, m.c(lut.leEnd)), lut.leOflow),
                        cdpInterp(m, table, n, idx, frac)));
  return o;
}

/// A select field of `bits` read as two's complement (sign-extended).
int64_t signedField(int64_t v, int bits) {
  const int64_t m = int64_t(1) << bits;
  return ((v + (m >> 1)) & (m - 1)) - (m >> 1);
}

//===----------------------------------------------------------------------===//
// SDP Y stage (int_sdp_lut.py)
//===----------------------------------------------------------------------===//

constexpr int64_t kSdpFracBits = 35; // yLutFracSize
constexpr int64_t kSdpIndexMax = 511;

struct SdpIndex {
  Value idx, frac, under, over;
};

/// int_sdp_lut._linear: index saturated at 511, 35-bit fraction; LE keeps
/// the fraction bits in a signed 32-bit type (`signedRest`).
SdpIndex sdpLinear(Ints &m, Value x, int64_t start, int64_t sel, int64_t depth, bool signedRest) {
  SdpIndex r;
  r.under = m.le(x, m.c(start));
  Value u = m.sel(r.under, m.c(1), m.sub(x, m.c(start))); // 1 .. 2^32 - 1
  if (sel >= 0) {
    r.idx = m.min(m.shr(u, m.c(std::min<int64_t>(sel, 40))), m.c(kSdpIndexMax));
  } else {
    const int64_t k = -sel;
    Value big = k < 40 ? m.gt(u, m.c(kSdpIndexMax >> k)) : m.gt(u, m.c(0));
    r.idx = m.sel(big, m.c(kSdpIndexMax), m.shl(m.sel(big, m.c(0), u), m.c(std::min<int64_t>(k, 40))));
  }
  // (1 << sel) - 1 in ac_int arithmetic: outside 0..63 it masks nothing.
  const int64_t mask = sel >= 0 && sel < 63   ? (int64_t(1) << sel) - 1
                       : sel == 63 ? INT64_MAX
                                   : -1;
  Value dataF = m.band(u, m.c(mask));
  if (signedRest)
    dataF = m.sel(m.ge(dataF, m.c(int64_t(1) << 31)),
                  m.add(dataF, m.c((int64_t(1) << 35) - (int64_t(1) << 32))), dataF);
  if (sel > kSdpFracBits)
    r.frac = sel - kSdpFracBits < 64 ? m.shr(dataF, m.c(sel - kSdpFracBits)) : m.c(0);
  else if (kSdpFracBits - sel < 63)
    r.frac = m.band(m.shl(dataF, m.c(kSdpFracBits - sel)), m.c((int64_t(1) << kSdpFracBits) - 1));
  else
    r.frac = m.c(0);
  r.over = m.band(m.bnot(r.under), m.ge(r.idx, m.c(depth - 1)));
  return r;
}

/// int_sdp_lut._exponent: floor(log2(x - start)) - offset, under also when
/// the logarithm is below the offset.
SdpIndex sdpExponent(Ints &m, Value x, int64_t start, int64_t offset, int64_t depth) {
  SdpIndex r;
  Value under = m.le(x, m.c(start));
  Value u = m.sel(under, m.c(1), m.sub(x, m.c(start)));
  Value log = m.log2(u);
  Value rest = m.sub(u, m.shl(m.c(1), log));
  r.under = m.bor(under, m.lt(log, m.c(offset)));
  r.idx = m.sub(log, m.c(offset));
  r.over = m.band(m.bnot(r.under), m.ge(r.idx, m.c(depth - 1)));
  r.frac = m.shl(rest, m.sub(m.c(kSdpFracBits), log));
  return r;
}

/// int_sdp_lut.sdp_lut's table_value: RHA(T[i] (2^35 - f) + T[i+1] f, 35)
/// saturated to 32 bits on a hit; SAT32(T[edge] + SAT32(RHA((x - edge) *
/// scale, shift))) outside.
template <size_t N>
Outcome sdpTableValue(Ints &m, Value x, const std::array<int64_t, N> &t, const SdpIndex &ix,
                      int64_t start, int64_t end, nv::LutSlope su, nv::LutSlope so, int64_t bias) {
  const int64_t n = N - 1;
  Value table = m.table(t);
  Value i = m.sel(ix.under, m.c(0), m.sel(ix.over, m.c(n), ix.idx));
  Value y0 = m.entry(table, i, n), y1 = m.entry(table, m.add(m.min(m.max(i, m.c(0)), m.c(n)), m.c(1)), n);
  Value hit = m.sub(m.c(int64_t(1) << kSdpFracBits), ix.frac);
  Value interp = m.sat(m.rha(m.add(m.mul(y0, hit), m.mul(y1, ix.frac)), kSdpFracBits), 32);
  // The slope of the chosen side: |x - edge| < 2^34, times 16 bits.
  Value a = m.sub(x, m.sel(ix.over, m.c(end), m.c(start + bias)));
  Value b = m.mul(a, m.sel(ix.over, m.c(so.scale), m.c(su.scale)));
  Value slope = m.sel(ix.over, m.signedShift(b, so.shift, 32), m.signedShift(b, su.shift, 32));
  Value flow = m.sat(m.add(y0, slope), 32);
  return {m.sel(m.bor(ix.under, ix.over), flow, interp), ix.under, ix.over};
}

} // namespace

Value reference::cdpLookup(OpBuilder &b, Location loc, Value s, const nv::LutProgram &lut,
                           int bits) {
  Ints m{b, loc};
  // int8 reads the 8-bit index selects sign-extended from bit 5, int16
  // from bit 6.
  const int selBits = bits == 8 ? 6 : 7;
  Outcome le = lut.leLinear ? cdpLinear(m, s, lut.le, lut.leStart, lut.leEnd,
                                        signedField(lut.leIndexSelect, selBits), lut.leUflow,
                                        lut.leOflow)
                            : cdpExponent(m, s, lut);
  Outcome lo = cdpLinear(m, s, lut.lo, lut.loStart, lut.loEnd,
                         signedField(lut.loIndexSelect, selBits), lut.loUflow, lut.loOflow);
  return choose(m, le, lo, lut.uflowLo, lut.oflowLo, lut.hybridLo);
}

Value reference::sdpLookup(OpBuilder &b, Location loc, Value v, LutAttr attr) {
  Ints m{b, loc};
  const nv::LutProgram lut = getLutProgram(attr);
  constexpr int64_t leDepth = nv::LutProgram::kLeEntries, loDepth = nv::LutProgram::kLoEntries;
  SdpIndex le = lut.leLinear
                    ? sdpLinear(m, v, lut.leStart, lut.leIndexSelect, leDepth, /*signedRest=*/true)
                    : sdpExponent(m, v, lut.leStart, lut.leIndexOffset, leDepth);
  SdpIndex lo = sdpLinear(m, v, lut.loStart, lut.loIndexSelect, loDepth, /*signedRest=*/false);
  // The wrapper's exponent underflow bias: a uint32 shift by the offset.
  const int64_t bias =
      !lut.leLinear && lut.leIndexOffset > 0 ? int64_t(1) << (lut.leIndexOffset & 31) : 0;
  Outcome leOut = sdpTableValue(m, v, lut.le, le, lut.leStart, lut.leEnd, lut.leUflow,
                                lut.leOflow, bias);
  Outcome loOut =
      sdpTableValue(m, v, lut.lo, lo, lut.loStart, lut.loEnd, lut.loUflow, lut.loOflow, 0);
  return choose(m, leOut, loOut, lut.uflowLo, lut.oflowLo, lut.hybridLo);
}

Value reference::sdpLookupFloatFp16(OpBuilder &b, Location loc, Value h, LutAttr lut) {
  const std::vector<uint16_t> answers = nv::sdpLookupFloatFp16Table(getLutProgram(lut));
  SmallVector<int16_t> entries(answers.begin(), answers.end());
  auto type = RankedTensorType::get({int64_t(entries.size())}, b.getI16Type());
  Value table = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(type, ArrayRef<int16_t>(entries)));
  Value bits = arith::BitcastOp::create(b, loc, b.getI16Type(), h);
  Value index = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), bits);
  Value out = tensor::ExtractOp::create(b, loc, table, ValueRange{index});
  return arith::BitcastOp::create(b, loc, b.getF16Type(), out);
}
