//===- NvdlaCaccLanes.h - CACC's fp16 add on 4 accumulators at once -*- C++ -*-===//
//
// caccAdd (NvdlaConvFp16.cpp, the C model's cacc_fp16_add) restated
// without branches on GCC vectors of four int64 lanes, for convFp16, where
// CACC adds one CMAC word per atom and kernel position to every output (a
// depthwise layer: one per product). Each step is the scalar function's
// line of the same name; both arms of each choice are computed and
// selected. Not for NaN words or accumulators (the caller takes the scalar
// function there). NvdlaConvFp16Test checks it against caccAdd on random
// accumulators and words. Internal to the format library.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_FORMAT_NVDLACACCLANES_H
#define DLA_LIB_FORMAT_NVDLACACCLANES_H

#include <cstdint>

namespace dlaformat::nvdla::cacc_lanes {

typedef int64_t V4 __attribute__((vector_size(32)));
typedef uint64_t U4 __attribute__((vector_size(32)));
typedef double D4 __attribute__((vector_size(32)));

constexpr int64_t kM40 = (int64_t(1) << 40) - 1;

#define DLA_LANES_INLINE __attribute__((always_inline)) inline

/// The low `bits` bits of x as a signed value.
DLA_LANES_INLINE V4 sext(V4 x, int bits) {
  const int64_t mask = (int64_t(1) << bits) - 1, sign = int64_t(1) << (bits - 1);
  return ((x & mask) ^ sign) - sign;
}
/// Bit i of x (0 or 1).
DLA_LANES_INLINE V4 bit(V4 x, int i) { return V4(U4(x) >> i) & 1; }
/// Logical shifts by per-lane counts below 64.
DLA_LANES_INLINE V4 shl(V4 x, V4 n) { return V4(U4(x) << U4(n)); }
DLA_LANES_INLINE V4 shr(V4 x, V4 n) { return V4(U4(x) >> U4(n)); }
/// Arithmetic shift right by per-lane counts below 64.
DLA_LANES_INLINE V4 ashr(V4 x, V4 n) {
  const V4 s = x < 0;
  return shr(x ^ s, n) ^ s;
}
/// topRun: the highest i in [0, start] whose bit of x differs from bit
/// `top`, else -1. The position comes from the exponent of the value as a
/// double (exact below 2^52: 2^52 + v built from its bits, less 2^52).
DLA_LANES_INLINE V4 topRun(V4 x, int top, int start) {
  const V4 differs = (x ^ -bit(x, top)) & ((int64_t(2) << start) - 1);
  const D4 d = D4(U4(differs) | 0x4330000000000000ull) - 0x1p52;
  const V4 position = V4(U4(d) >> 52) - 1023;
  return differs == 0 ? V4{} - 1 : position;
}

/// caccAdd on four lanes where `take` is all ones (elsewhere the
/// accumulator is kept): exponents ae / me, mantissas am (40-bit) / mm
/// (38-bit, non-zero where taken); no NaN (exponents 255 and 63) anywhere
/// taken.
DLA_LANES_INLINE void add(V4 &aeOut, V4 &amOut, V4 me, V4 mmIn, V4 take) {
  const V4 ae = aeOut, am = sext(amOut, 40), mm = sext(mmIn, 38);
  // Normalize the CMAC word left (38 bits).
  const V4 i = bit(mm, 37) == bit(mm, 36) ? topRun(mm, 37, 36) : V4{} + 36;
  const V4 n0 = 36 - i;
  const V4 mreg = sext(shl(mm, n0), 38);
  V4 mext = shl(mreg, V4{} + 2);
  const V4 mexp = (me - n0 + 49) & 255;
  const V4 ae2 = am == 0 ? V4{} : ae;
  V4 aext = am;
  const V4 diff = mexp - ae2;
  const V4 d = diff < 0 ? -diff : diff;
  const V4 dc = d > 40 ? V4{} + 40 : d;
  // shiftOut and shr of the operand with the smaller exponent.
  const V4 shifted = diff > 0 ? aext : mext;
  const V4 low = shl(shifted & (shl(V4{} + 1, dc) - 1), 40 - dc) & kM40;
  V4 outBits = ((diff != 0) & (d <= 40)) ? low : V4{};
  const V4 shiftedRight = d <= 40 ? ashr(shifted, dc) : V4{};
  aext = diff > 0 ? shiftedRight : aext;
  mext = diff < 0 ? shiftedRight : mext;
  const V4 bigger = mexp > ae2 ? mexp : ae2;
  const V4 tmp = sext(aext + mext, 40);
  const V4 ovf = (bit(mext, 39) == bit(aext, 39)) & (bit(mext, 39) != bit(tmp, 39));
  const V4 high1 = bit(tmp, 0);
  const V4 left = ~ovf & (bit(tmp, 38) == bit(tmp, 39));
  // Overflow: shift right one, the sign kept.
  const V4 sOvf = sext(shl(bit(mext, 39), V4{} + 39) | shr(tmp & kM40, V4{} + 1), 40);
  // Left normalization, the shifted-out bits shifted back in.
  const V4 n1 = 38 - topRun(tmp, 39, 38); // 0 to 39
  const V4 sLeft = sext((shl(tmp, n1) & kM40) | shr(outBits, 40 - n1), 40);
  const V4 outLeft = shl(outBits, n1) & kM40;
  const V4 s = ovf ? sOvf : left ? sLeft : tmp;
  outBits = left ? outLeft : outBits;
  V4 rexp = ovf ? bigger + 1 : left ? bigger - n1 : bigger;
  const V4 guard0 = bit(outBits, 39);
  const V4 sticky0 = (outBits & ((int64_t(1) << 39) - 1)) != 0, sticky1 = outBits != 0;
  const V4 neg = bit(s, 39) == 1;
  const V4 rnd = ovf ? (neg ? high1 & -sticky1 : high1) : (neg ? guard0 & -sticky0 : guard0);
  const V4 r = sext(s + rnd, 40);
  const V4 changed = bit(r, 39) != bit(s, 39);
  const V4 fin =
      changed ? sext(shl(bit(s, 39), V4{} + 39) | shr(r & kM40, V4{} + 1), 40) : r;
  rexp = (changed ? rexp + 1 : rexp) & 255;
  rexp = fin == 0 ? V4{} : rexp;
  aeOut = take ? rexp : ae;
  amOut = take ? fin : am;
}

#undef DLA_LANES_INLINE

} // namespace dlaformat::nvdla::cacc_lanes

#endif // DLA_LIB_FORMAT_NVDLACACCLANES_H
