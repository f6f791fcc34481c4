//===- NvdlaCdpFp16.h - The CDP's fp16 LRN (nv_full) -------------*- C++ -*-===//
//
// fp16 local response normalization as NVIDIA's v1 C model computes it
// (cmod/cdp/NV_NVDLA_cdp.cpp feeding hls_wrapper/cdp_hls_wrapper.cpp's
// HLS_CDP_lookup_fp16): the input widened to fp17, its square in fp32
// (exact), the square sum over the window in fp32 (FpAdd<8,23>, the
// centre's neighbours pairwise outward), the LE / LO tables in float mode
// (HLS_CDP_lookup_lut: a C-float index, a 16-bit fraction, fp17
// interpolation), the product with the input in fp17 and Fp17ToFp16.
// Channels outside the cube read as +0 (DATIN_OFFSET 0). The numpy model
// this follows is utils/dla-ref/fp_nvdla.py cdp_fp16 (checked against the
// C model's compiled HLS_CDP_lookup_fp16); docs/NvdlaFp16.md "The CDP in
// fp16".
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLACDPFP16_H
#define DLA_FORMAT_NVDLACDPFP16_H

#include "dla/Format/NvdlaLrn.h"

#include <cstdint>

namespace dlaformat::nvdla {

/// The float-mode tables of x (k + alpha / size * S)^-beta (fp16 entries,
/// fp32 starts / ends as in the SDP's float LUT): LE exponent from S = 0,
/// index offset 4 (octaves 2^4 .. 2^68, past any fp16 window's sum); LO
/// linear from S = 0 over [0, 2^e), e the smallest of 4 .. 68 with
/// 2^e >= 16 k / (alpha / size) (where the curve bends), step 2^(e - 8);
/// LO wins where both hit and where both underflow (S = 0: LO[0] =
/// k^-beta), LE where both overflow; slopes 0. Entries f at the nodes,
/// double -> float -> fp16 (Fp32ToFp16, saturating).
LutProgram lrnFloatTables(double alpha, double beta, double k, int64_t size);

/// LRN of `planes` (batch) cubes of channels x pixels fp16 values (bits,
/// NCHW contiguous: channel stride = pixels) over `size` (3, 5, 7, 9)
/// channels with the float-mode `lut`, into `out` (same layout).
void cdpFp16(const uint16_t *x, int64_t planes, int64_t channels, int64_t pixels, int64_t size,
             const LutProgram &lut, uint16_t *out);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLACDPFP16_H
