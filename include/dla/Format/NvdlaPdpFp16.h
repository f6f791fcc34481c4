//===- NvdlaPdpFp16.h - The PDP's fp16 pooling (nv_full) ---------*- C++ -*-===//
//
// fp16 max / min / average pooling as NVIDIA's v1 C model computes it
// (cmod/pdp/NV_NVDLA_pdp.cpp's order, hls_wrapper/pdp_hls_wrapper.cpp's
// arithmetic): max / min compare fp16 bits (FpMax / FpMin<5,10>) and ignore
// padded positions; the average sums in fp17 (FpAdd<6,10>, rounded after
// every addition: a window row's columns in increasing order, then the rows
// in increasing order, each sum followed by the padding registers' adds),
// multiplies by the two fp17 reciprocal registers and rounds to fp16
// (Fp17ToFp16). The numpy model this follows step by step is
// utils/dla-ref/fp_nvdla.py pdp_fp16 (checked against the C model's own
// functions); docs/NvdlaFp16.md "The PDP in fp16".
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAPDPFP16_H
#define DLA_FORMAT_NVDLAPDPFP16_H

#include <cstdint>

namespace dlaformat::nvdla {

enum class PdpFp16Method { Average, Max, Min };

/// RECIP_KERNEL_WIDTH / _HEIGHT for fp16 as NVIDIA's firmware writes them
/// (recip_kernel_size[1], kmd/firmware/pdp.c): 1/k in fp17, k = 1..8 (each
/// 1/k rounded to nearest).
inline constexpr uint32_t kPdpRecipFp17[8] = {0x7c00, 0x7800, 0x7555, 0x7400,
                                              0x7266, 0x7155, 0x7092, 0x7000};
constexpr uint32_t pdpRecipFp17(int64_t k) { return kPdpRecipFp17[k - 1]; }

struct PdpFp16Shape {
  int64_t height, width, kernelH, kernelW, strideH, strideW;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t outHeight() const { return (height + padTop + padBottom - kernelH) / strideH + 1; }
  int64_t outWidth() const { return (width + padLeft + padRight - kernelW) / strideW + 1; }
};

struct PdpFp16Registers {
  PdpFp16Method method = PdpFp16Method::Max;
  uint32_t recipWidth = 0x7c00, recipHeight = 0x7c00; // fp17 bits
  // PAD_VALUE_1X..7X, fp17 bits. With a kernel width of 8 they must be 0:
  // the C model multiplies them by the width from a table of 0..7, which it
  // reads past (fp_nvdla.PDP_KERNEL_WIDTH_FP17); 0 times what it reads is 0.
  uint32_t padValues[7] = {};
  bool nanToZero = false;                              // offline input NaNs to +0
};

/// Pools `planes` planes of height x width fp16 values (bits), contiguous,
/// into `out` (planes x outHeight x outWidth).
void pdpFp16(const uint16_t *x, int64_t planes, const PdpFp16Shape &shape,
             const PdpFp16Registers &regs, uint16_t *out);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAPDPFP16_H
