//===- NvdlaFloat.cpp - NVDLA's float arithmetic (fp32, fp17) ------------===//
//
// Each function is utils/dla-ref/fp_nvdla.py's of the same name, scalar:
// the numpy model is checked bit for bit against the v1 C model, and
// python/tests/test_lut_float.py checks this file against the numpy model
// through the C API. Intermediates fit uint64: the fp32 adder's mantissa
// has 49 bits plus a carry, the fp32 product 48.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaFloat.h"

#include <cstring>

namespace dlaformat::nvdla {
namespace {

using u64 = uint64_t;

struct Parts {
  u64 sign, exponent, mantissa;
};

Parts split(u64 a, FpFormat f) {
  const int e = f.exponentBits, m = f.mantissaBits;
  return {(a >> (e + m)) & 1, (a >> m) & ((u64(1) << e) - 1), a & ((u64(1) << m) - 1)};
}

/// SetToInf<E,M>: the largest finite value (NVDLA saturates).
u64 largest(u64 sign, FpFormat f) {
  const int e = f.exponentBits, m = f.mantissaBits;
  return (sign << (e + m)) | (((u64(1) << e) - 2) << m) | ((u64(1) << m) - 1);
}

int bitLength(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }

u64 shiftRight(u64 v, int64_t n) { return n >= 64 ? 0 : v >> n; }

} // namespace

uint32_t detail::fpAddGeneric(uint32_t a, uint32_t b, FpFormat f) {
  const int E = f.exponentBits, M = f.mantissaBits;
  const Parts pa_ = split(a, f), pb_ = split(b, f);
  const u64 emax = (u64(1) << E) - 1, emax1 = emax - 1;
  if (pa_.exponent == emax && pa_.mantissa != 0)
    return a;
  if (pb_.exponent == emax && pb_.mantissa != 0)
    return b;
  auto withOne = [&](const Parts &p) {
    return p.exponent == 0 && p.mantissa == 0 ? p.mantissa : p.mantissa | (u64(1) << M);
  };
  const u64 pa = withOne(pa_), pb = withOne(pb_);
  const bool aGreater = pa_.exponent > pb_.exponent ||
                        (pa_.exponent == pb_.exponent && pa_.mantissa >= pb_.mantissa);
  int64_t oe = int64_t(aGreater ? pa_.exponent : pb_.exponent);
  const int64_t ra = aGreater ? 0 : int64_t(pb_.exponent) - int64_t(pa_.exponent);
  const int64_t rb = aGreater ? int64_t(pa_.exponent) - int64_t(pb_.exponent) : 0;
  const int G = M + 2, W = 2 * M + 3;
  const u64 mask = (u64(1) << W) - 1;
  // ac_int shift by a signed amount: negative shifts right.
  auto place = [&](u64 p, int64_t r) {
    int64_t ls = G - r;
    return ls >= 0 ? (p << ls) & mask : shiftRight(p, -ls);
  };
  const u64 ia = place(pa, ra), ib = place(pb, rb);
  const u64 sign = aGreater ? pa_.sign : pb_.sign;
  const u64 big = aGreater ? ia : ib, small = aGreater ? ib : ia;
  const u64 s = pa_.sign == pb_.sign ? big + small : big - small;
  const bool carry = (s >> W) & 1;
  bool inf = carry && oe >= int64_t(emax1);
  u64 im = carry ? s >> 1 : s & mask;
  if (carry && oe < int64_t(emax1))
    ++oe;
  // FpNormalize (no carry): zero when the exponent cannot hold the shift.
  bool zero = false;
  if (!carry) {
    const int zc = W - bitLength(im);
    zero = oe <= zc || im == 0;
    if (!zero) {
      im = (im << zc) & mask;
      oe -= zc;
    }
  }
  // FpMantRNE<2M+3, M+1>.
  u64 top = im >> G;
  const u64 guard = (im >> (G - 1)) & 1, sticky = (im & ((u64(1) << (G - 1)) - 1)) != 0;
  const u64 c = guard & (sticky | (top & 1));
  const bool ovf = c == 1 && top == (u64(1) << (M + 1)) - 1;
  top = (top + c) & ((u64(1) << (M + 1)) - 1);
  inf |= ovf && oe >= int64_t(emax1);
  if (ovf && oe < int64_t(emax1))
    ++oe;
  if (inf)
    return uint32_t(largest(sign, f));
  if (zero)
    return uint32_t(sign << (E + M));
  return uint32_t((sign << (E + M)) | (u64(oe) << M) | (top & ((u64(1) << M) - 1)));
}

namespace {
/// The fp32 shortcut of fpAdd and fpMul: where the C model's steps are
/// exactly IEEE single's (normal operands; for a sum, exponents at most 24
/// apart, so the 49-bit alignment drops no bit, and then every bit is kept
/// until one round to nearest even; a result whose exponent field is 2 to
/// 253, so neither flushing, saturation nor the signed zero of x + (-x)
/// is near), the CPU's float operation. Elsewhere the steps themselves.
bool normal32(uint32_t a) { return ((a >> 23) & 255) - 1u < 254u; }
bool clearOfEdges(uint32_t r) { return ((r >> 23) & 255) - 2u < 252u; }
float asFloat(uint32_t a) {
  float x;
  std::memcpy(&x, &a, 4);
  return x;
}
uint32_t asBits(float x) {
  uint32_t a;
  std::memcpy(&a, &x, 4);
  return a;
}
bool isFp32(FpFormat f) { return f.exponentBits == 8 && f.mantissaBits == 23; }
} // namespace

uint32_t fpAdd(uint32_t a, uint32_t b, FpFormat f) {
  // A zero of either sign beside a normal operand: the steps align nothing
  // and round nothing.
  if (isFp32(f) && (a & 0x7fffffffu) == 0 && normal32(b))
    return b;
  if (isFp32(f) && (b & 0x7fffffffu) == 0 && normal32(a))
    return a;
  if (isFp32(f) && normal32(a) && normal32(b)) {
    const int ea = int((a >> 23) & 255), eb = int((b >> 23) & 255);
    if (ea - eb <= 24 && eb - ea <= 24) {
      const uint32_t r = asBits(asFloat(a) + asFloat(b));
      if (clearOfEdges(r))
        return r;
    }
  }
  return detail::fpAddGeneric(a, b, f);
}

uint32_t fpMul(uint32_t a, uint32_t b, FpFormat f) {
  // A zero of either sign times a normal operand: the signed zero.
  if (isFp32(f) && (((a & 0x7fffffffu) == 0 && normal32(b)) ||
                    ((b & 0x7fffffffu) == 0 && normal32(a))))
    return (a ^ b) & 0x80000000u;
  if (isFp32(f) && normal32(a) && normal32(b)) {
    const uint32_t r = asBits(asFloat(a) * asFloat(b));
    if (clearOfEdges(r))
      return r;
  }
  return detail::fpMulGeneric(a, b, f);
}

uint32_t fpSub(uint32_t a, uint32_t b, FpFormat f) {
  return fpAdd(a, b ^ (uint32_t(1) << (f.exponentBits + f.mantissaBits)), f);
}

uint32_t detail::fpMulGeneric(uint32_t a, uint32_t b, FpFormat f) {
  const int E = f.exponentBits, M = f.mantissaBits;
  const Parts A = split(a, f), B = split(b, f);
  const int64_t bias = (int64_t(1) << (E - 1)) - 1, emax = (int64_t(1) << E) - 1;
  if (A.exponent == u64(emax) && A.mantissa != 0)
    return a;
  if (B.exponent == u64(emax) && B.mantissa != 0)
    return b;
  const int P = 2 * M + 1;
  const bool za = A.exponent == 0 && A.mantissa == 0, zb = B.exponent == 0 && B.mantissa == 0;
  const u64 pa = za ? A.mantissa : A.mantissa | (u64(1) << M);
  const u64 pb = zb ? B.mantissa : B.mantissa | (u64(1) << M);
  const u64 p = pa * pb;
  const u64 ps = A.sign ^ B.sign;
  const int64_t esum = int64_t(A.exponent + B.exponent);
  const bool zero = za || zb || esum < bias;
  bool inf = !zero && esum >= emax + bias;
  int64_t pe = zero || inf ? 0 : esum - bias;
  const u64 hi = (p >> P) & 1;
  if (!zero && !inf && hi == 1 && pe >= emax - 1)
    inf = true;
  const u64 pm = hi == 1 ? p & ((u64(1) << P) - 1) : (p << 1) & ((u64(1) << P) - 1);
  if (hi == 1 && pe < emax - 1)
    ++pe;
  // FpMantWidthDec<E,2M+1,M,DENORM_NO>: RNE of 1.pm to M + 1 bits.
  const u64 p1 = pm | (u64(1) << P);
  u64 top = p1 >> (M + 1);
  const u64 guard = (p1 >> M) & 1, sticky = (p1 & ((u64(1) << M) - 1)) != 0;
  const u64 c = guard & (sticky | (top & 1));
  const bool ovf = c == 1 && top == (u64(1) << (M + 1)) - 1;
  top = (top + c) & ((u64(1) << (M + 1)) - 1);
  const u64 oe = u64(pe + (ovf ? 1 : 0)) & u64(emax);
  u64 out = (ps << (E + M)) | (oe << M) | (top & ((u64(1) << M) - 1));
  inf |= ovf && oe == u64(emax);
  if (inf)
    out = largest(ps, f);
  // Zero (SetToZero) last, on the exponent after SetToInf.
  if (zero || (oe == 0 && !inf))
    out = ps << (E + M);
  return uint32_t(out);
}

uint32_t nvdlaFp16ToFp32(uint16_t h) {
  const u64 s = h >> 15, e = (h >> 10) & 31, m = h & 0x3ff;
  if (e == 31)
    return uint32_t(m ? (s << 31) | (u64(255) << 23) | m : largest(s, kFp32));
  if (e == 0 && m == 0)
    return uint32_t(s << 31);
  if (e == 0) {
    const int lz = 10 - bitLength(m);
    return uint32_t((s << 31) | (u64(113 - 1 - lz) << 23) | (((m << (lz + 1)) & 0x3ff) << 13));
  }
  return uint32_t((s << 31) | ((e + 112) << 23) | (m << 13));
}

uint16_t nvdlaFp32ToFp16(uint32_t f) {
  const u64 s = f >> 31, e = (f >> 23) & 255, m = f & 0x7fffff;
  if (e == 255 && m != 0)
    return uint16_t((s << 15) | (31 << 10) | (m & 0x3ff));
  if (e >= 143)
    return uint16_t((s << 15) | 0x7bff);
  if (e < 102)
    return uint16_t(s << 15);
  const u64 p1 = m | (u64(1) << 23);
  if (e <= 112) {
    // FpMantDecShiftRight by 113 - e (1 .. 11).
    const u64 sh = 113 - e;
    const u64 g = (p1 >> (12 + sh)) & 1, st = (p1 & ((u64(1) << (12 + sh)) - 1)) != 0;
    const u64 lb = (p1 >> (13 + sh)) & 1;
    const u64 od = ((p1 >> sh) >> 13) + (g & (st | lb));
    return uint16_t((s << 15) | ((od >> 10) ? u64(1) << 10 : od & 0x3ff));
  }
  const u64 lsb = (p1 >> 13) & 1, guard = (p1 >> 12) & 1, sticky = (p1 & 0xfff) != 0;
  const u64 o = (p1 >> 13) + (guard & (sticky | lsb));
  const u64 oe = e - 112 + (o >> 11);
  if (oe >= 31)
    return uint16_t((s << 15) | 0x7bff);
  return uint16_t((s << 15) | (oe << 10) | (o & 0x3ff));
}

int16_t nvdlaFp16ToInt16(uint16_t h) {
  const u64 s = h >> 15, e = (h >> 10) & 31, m = h & 0x3ff;
  if (e == 31 && m != 0)
    return INT16_MIN;
  // The implicit bit is set for every exponent (FpFloatToInt's i_mant_p1):
  // a denormal reads as 1.m * 2^-15, below one half, so 0 all the same.
  const u64 p1 = m | (u64(1) << 10);
  u64 mag;
  if (e >= 25)
    mag = p1 << (e - 25); // an integer already (infinity: 65536, saturated)
  else {
    const u64 sh = 25 - e;
    // Half away from zero on the magnitude: add the first bit dropped.
    mag = sh > 11 ? 0 : (p1 >> sh) + ((p1 >> (sh - 1)) & 1);
  }
  if (mag > 32767)
    return s ? INT16_MIN : INT16_MAX;
  return int16_t(s ? -int64_t(mag) : int64_t(mag));
}

uint32_t fp16ToFp17(uint16_t h) {
  const u64 s = h >> 15, e = (h >> 10) & 31, m = h & 0x3ff;
  if (e == 31)
    return uint32_t(m ? (s << 16) | (u64(63) << 10) | m : largest(s, kFp17));
  if (e == 0 && m == 0)
    return uint32_t(s << 16);
  if (e == 0) {
    const int lz = 10 - bitLength(m);
    return uint32_t((s << 16) | (u64(16 - lz) << 10) | ((m << (lz + 1)) & 0x3ff));
  }
  return uint32_t((s << 16) | ((e + 16) << 10) | m);
}

uint32_t fp32ToFp17(uint32_t f) {
  const u64 s = f >> 31, e = (f >> 23) & 255, m = f & 0x7fffff;
  if (e == 255 && m != 0)
    return uint32_t((s << 16) | (u64(63) << 10) | (m & 0x3ff));
  if (e >= 159)
    return uint32_t(largest(s, kFp17));
  if (e < 86)
    return uint32_t(s << 16);
  const u64 p1 = m | (u64(1) << 23);
  if (e <= 96) {
    // FpMantDecShiftRight by 97 - e (1 .. 11; the masks are 24 bits wide).
    const u64 sh = 97 - e;
    const u64 g = (p1 >> (12 + sh)) & 1, st = (p1 & ((u64(1) << (12 + sh)) - 1)) != 0;
    const u64 lb = (p1 >> (13 + sh)) & 1;
    const u64 od = ((p1 >> sh) >> 13) + (g & (st | lb));
    return uint32_t((od >> 10) ? (s << 16) | (u64(1) << 10) | (od & 0x3ff) : s << 16);
  }
  const u64 lsb = (p1 >> 13) & 1, guard = (p1 >> 12) & 1, sticky = (p1 & 0xfff) != 0;
  const u64 o = (p1 >> 13) + (guard & (sticky | lsb));
  const u64 oe = e - 96 + (o >> 11);
  if (oe >= 63)
    return uint32_t(largest(s, kFp17));
  return uint32_t((s << 16) | (oe << 10) | (o & 0x3ff));
}

uint32_t fp17ToFp32(uint32_t a) {
  const u64 s = (a >> 16) & 1, e = (a >> 10) & 63, m = a & 0x3ff;
  if (e == 0 && m == 0)
    return uint32_t(s << 31);
  if (e == 63)
    // FpMantWidthInc keeps a NaN's mantissa unshifted: the payload stays low.
    return uint32_t(m ? (s << 31) | (u64(255) << 23) | m : largest(s, kFp32));
  return uint32_t((s << 31) | ((e + 96) << 23) | (m << 13));
}

uint16_t fp17ToFp16(uint32_t a) {
  const u64 s = (a >> 16) & 1, e = (a >> 10) & 63, m = a & 0x3ff;
  if (e == 63 && m != 0)
    return uint16_t((s << 15) | (u64(31) << 10) | m);
  if (e >= 47) // FpExpoWidthDec: SetToInf, the largest finite value
    return uint16_t(largest(s, FpFormat{5, 10}));
  if (e < 6)
    return uint16_t(s << 15);
  if (e <= 16) {
    // FpMantDecShiftRight by 17 - e on 11 bits: at shift 11 the lsb mask
    // is shifted out (reads 0).
    const int sh = int(17 - e);
    const u64 p1 = m | (u64(1) << 10);
    const u64 guard = (p1 >> (sh - 1)) & 1;
    const u64 sticky = (p1 & ((u64(1) << (sh - 1)) - 1)) != 0;
    const u64 least = sh >= 11 ? 0 : (p1 >> sh) & 1;
    const u64 od = (p1 >> sh) + (guard & (sticky | least));
    return uint16_t((s << 15) | (od >> 10 ? u64(1) << 10 : od & 0x3ff));
  }
  return uint16_t((s << 15) | ((e - 16) << 10) | m);
}

namespace {
int widthOf(FpFormat f) { return 1 + f.exponentBits + f.mantissaBits; }
uint32_t magnitudeOf(uint32_t v, FpFormat f) {
  return v & ((uint32_t(1) << (widthOf(f) - 1)) - 1);
}
/// FpCmp's order: positive above negative, then by magnitude (exponent,
/// then mantissa); equal magnitudes are "not greater" (+0 > -0).
bool greaterOf(uint32_t a, uint32_t b, FpFormat f) {
  const bool absGreater = magnitudeOf(a, f) > magnitudeOf(b, f);
  const bool aPos = !(a >> (widthOf(f) - 1)), bPos = !(b >> (widthOf(f) - 1));
  return aPos ? (bPos ? absGreater : true) : (bPos ? false : !absGreater);
}
} // namespace

bool fpIsNan(uint32_t v, FpFormat f) {
  const uint32_t m = magnitudeOf(v, f);
  return m >> f.mantissaBits == (uint32_t(1) << f.exponentBits) - 1 &&
         (m & ((uint32_t(1) << f.mantissaBits) - 1));
}

uint32_t fpMax(uint32_t a, uint32_t b, FpFormat f) {
  if (fpIsNan(a, f))
    return a;
  if (fpIsNan(b, f))
    return b;
  return greaterOf(a, b, f) ? a : b;
}

uint32_t fpMin(uint32_t a, uint32_t b, FpFormat f) {
  if (fpIsNan(a, f))
    return a;
  if (fpIsNan(b, f))
    return b;
  return greaterOf(a, b, f) ? b : a;
}

uint16_t fp16Max(uint16_t a, uint16_t b) { return uint16_t(fpMax(a, b, kFp16)); }
uint16_t fp16Min(uint16_t a, uint16_t b) { return uint16_t(fpMin(a, b, kFp16)); }

uint32_t fractionToFp17(uint64_t f, int width) {
  if (f == 0)
    return 0;
  const int bl = 64 - __builtin_clzll(f);
  const int zc = width - bl;
  const uint64_t sh = (f << (zc + 1)) & ((uint64_t(1) << (width + 1)) - 1);
  const int g = width - 10; // FpMantRNE<width+1,11>: the bits below the 11 kept
  uint64_t top = sh >> g;
  const uint64_t guard = (sh >> (g - 1)) & 1, sticky = (sh & ((uint64_t(1) << (g - 1)) - 1)) != 0;
  const uint64_t c = guard & (sticky | (top & 1));
  const bool ovf = c == 1 && top == (1u << 11) - 1;
  top = (top + c) & ((1u << 11) - 1);
  if (ovf)
    return uint32_t((uint64_t(31 - zc) << 10) | ((top >> 1) & 0x3ff));
  if (31 <= zc + 1)
    return 0;
  return uint32_t((uint64_t(31 - zc - 1) << 10) | (top & 0x3ff));
}

} // namespace dlaformat::nvdla
