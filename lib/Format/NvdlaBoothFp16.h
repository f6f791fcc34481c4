//===- NvdlaBoothFp16.h - CMAC's Booth product, weight decoded once -*- C++ -*-===//
//
// cal_fp16_booth (detail::boothFp16, the C model's partial products and
// carry-save tree) restated so that a convolution decodes each weight once
// and then pays per product only what depends on the data. Internal to the
// format library (NvdlaConvFp16.cpp); docs/NvdlaFp16.md "Speed" explains it.
//
// The carry-save vectors c0, c1 sum (mod 2^32) to the product P plus the
// rows' sign markers K = 0x55550000, which the compensation constant
// removes; each vector truncated `shift` bits right gives
//   floor((P + (K mod 2^shift)) / 2^shift) - carry,
// carry = 1 when the two vectors' low `shift` bits sum past 2^shift (the
// unit the separate truncation loses). So the product is an integer
// multiply, and only the carry needs the carry-save tree, whose inputs are
// the weight's Booth rows: each row is (dat << s) & a ^ b, and the product's
// sign flips the non-zero rows (^ t).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_FORMAT_NVDLABOOTHFP16_H
#define DLA_LIB_FORMAT_NVDLABOOTHFP16_H

#include <cstdint>

namespace dlaformat::nvdla {

/// One weight operand (the 11-bit mantissa shifted by its exponent's low
/// bits: up to 14 bits) decoded into cal_fp16_booth's ten carry-save
/// inputs, for a positive product; a negative product XORs `t` in.
struct BoothWeight {
  uint32_t wt;
  uint32_t a[10], b[10], t[10];
  uint8_t s[10];
};

inline BoothWeight decodeBoothWeight(uint32_t wt) {
  BoothWeight d{};
  d.wt = wt;
  // Row i (Booth digit i of wt, bits 2i-1..2i+1) goes into carry-save input
  // kRow[i], its negation's carry-in bit (bit 2i) into kInv[i]: the C
  // model's c[0..9] (NV_NVDLA_cmac.h cal_fp16_booth).
  static constexpr int kRow[8] = {0, 1, 2, 3, 5, 6, 7, 8};
  static constexpr int kInv[8] = {1, 2, 3, 4, 6, 7, 8, 9};
  const uint32_t w = wt << 1;
  for (int i = 0; i < 8; ++i) {
    const uint32_t code = (w >> (2 * i)) & 7;
    const bool negative = code >= 4 && code <= 6, zero = code == 0 || code == 7;
    const bool twice = code == 3 || code == 4;
    // Positive: dat (or 2 dat) | 0x10000; negative: ~(dat) & 0xffff, carry
    // in 1; zero: 0x10000. Negating a non-zero row flips its 17 bits and
    // its carry-in.
    const int r = kRow[i], v = kInv[i];
    d.s[r] = uint8_t((twice ? 1 : 0) + 2 * i);
    d.a[r] = zero ? 0 : 0xffffu << (2 * i);
    d.b[r] |= (negative ? 0xffffu : 0x10000u) << (2 * i);
    d.t[r] |= zero ? 0 : 0x1ffffu << (2 * i);
    d.b[v] |= uint32_t(negative) << (2 * i);
    d.t[v] |= uint32_t(!zero) << (2 * i);
  }
  return d;
}

/// The products cal_fp16_booth gives for the decoded weight and `dat` (up
/// to 14 bits), negated where flip is all ones, at shifts of 0 to 31: int32
/// values (what the C model's sum of the truncated vectors is). U is
/// uint32_t or a GCC vector of them, I the matching int32 type (the same
/// code for one product and for a vector of them).
template <typename U, typename I>
__attribute__((always_inline)) inline I boothProduct(const BoothWeight &w, U dat, U flip,
                                                     U shift) {
  U c[10];
  for (int j = 0; j < 10; ++j)
    c[j] = ((dat << w.s[j]) & w.a[j]) ^ w.b[j] ^ (flip & w.t[j]);
  auto csa = [](U &x, U &y, U z) {
    const U p = x ^ y;
    const U cy = ((x & y) | (z & p)) << 1;
    x = p ^ z;
    y = cy;
  };
  csa(c[0], c[1], c[2]);
  csa(c[0], c[1], c[3]);
  csa(c[0], c[1], c[4]);
  csa(c[5], c[6], c[7]);
  csa(c[5], c[6], c[8]);
  csa(c[5], c[6], c[9]);
  csa(c[0], c[1], c[5]);
  csa(c[0], c[1], c[6]);
  const U one = dat * 0 + 1;
  const U low = (one << shift) - 1;
  const U carry = ((c[0] & low) + (c[1] & low)) >> shift;
  const I p = I(((dat * w.wt) ^ flip) - flip);
  return ((p + I(low & 0x55550000u)) >> I(shift)) - I(carry);
}

} // namespace dlaformat::nvdla

#endif // DLA_LIB_FORMAT_NVDLABOOTHFP16_H
