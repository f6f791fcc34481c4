//===- NvdlaConvFp16.h - NVDLA's fp16 direct convolution --------*- C++ -*-===//
//
// What nv_full's convolution pipeline computes in fp16 (docs/NvdlaFp16.md
// "The convolution pipeline"), on bit patterns: CMAC's block-floating-point
// dot product of one channel atom, CACC's 48-bit accumulator and the fp32 it
// hands the SDP, a whole direct convolution in CSC's order, Winograd's
// fp16 steps (CSC's PRA, CMAC's Winograd cell, a 3x3 stride-1 layer), and
// one SDP X stage at precision FP16. Each function is utils/dla-ref/fp_nvdla.py's of
// the same name (that numpy model is checked against NVIDIA's v1 C model;
// python/tests/test_conv_fp16.py checks this file against it). The CPU
// execution of an fp16 convolution on nv_full runs this code (the
// `dla_nvdla_*` runtime functions, lib/ExecutionRuntime).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLACONVFP16_H
#define DLA_FORMAT_NVDLACONVFP16_H

#include <cstdint>

namespace dlaformat::nvdla {

/// Channels of one CMAC atom in fp16: a convolution-buffer entry (128 B on
/// nv_full, cmod/csc PARALLEL_CHANNEL_NUM) of 2-byte values, 64 channels;
/// each MAC cell has 64 fp16 multipliers. nv_full is the only configuration
/// with fp16 (NvdlaHardware.h), whose atomic-C this equals.
inline constexpr int kFp16MacAtomChannels = 64;

/// A CMAC result word: value mantissa * 2^(exponent - 50), the mantissa a
/// 38-bit two's complement integer, the exponent 6 bits (63: NaN).
struct CmacWord {
  int64_t exponent = 0, mantissa = 0;
};

/// CACC's fp16 accumulator: value mantissa * 2^(exponent - 101), the
/// mantissa 40-bit two's complement, the exponent 8 bits (255: NaN).
struct CaccAccumulator {
  int64_t exponent = 0, mantissa = 0;
};

/// NvdlaMacCell::calculation_fp16 (direct mode) on `n` <= 64 channels of
/// one atom (the channels beyond `n` are zeros): the products aligned to
/// the atom's largest exponent group and truncated there (a radix-4 Booth
/// multiplier, its two carry-save vectors truncated separately), summed
/// exactly. A channel takes part only where data and weight are non-zero;
/// the first NaN weight, else the first NaN data value, makes a NaN word.
CmacWord cmacFp16(const uint16_t *data, const uint16_t *weight, int n);

/// cacc_fp16_add: the accumulator plus a CMAC word, normalized and rounded
/// to 40 bits (positive sums half up, negative ones only above half).
CaccAccumulator caccAdd(CaccAccumulator acc, CmacWord word);

/// cacc_fp48_to_fp32: the fp32 bits CACC hands the SDP (sign and magnitude,
/// rounded half away from zero on the next bit alone).
uint32_t caccToFp32(CaccAccumulator acc);

/// A direct convolution's geometry (NCHW input, KCRS weights).
struct ConvFp16Shape {
  int64_t channels, height, width;        ///< C, H, W of one image
  int64_t kernels, kernelH, kernelW;      ///< K, R, S
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t dilationH = 1, dilationW = 1;
  int64_t outHeight() const {
    return (height + padTop + padBottom - ((kernelH - 1) * dilationH + 1)) / strideH + 1;
  }
  int64_t outWidth() const {
    return (width + padLeft + padRight - ((kernelW - 1) * dilationW + 1)) / strideW + 1;
  }
};

/// A strided view of one 4-d array (element strides, any order).
template <typename T> struct View4 {
  T *data;
  int64_t strides[4];
  T &at(int64_t a, int64_t b, int64_t c, int64_t d) const {
    return data[a * strides[0] + b * strides[1] + c * strides[2] + d * strides[3]];
  }
};

/// conv_fp16 on one image (index 0 of each view's first dimension is the
/// image, the kernel for the weights): for each output, CACC adds the
/// CMAC words of channel atoms (outer), kernel rows, kernel columns, from
/// +0; zero padding (CDMA's converter off). `out` (K x OH x OW of fp32
/// bits) receives what CACC hands the SDP.
void convFp16(View4<const uint16_t> x, int64_t image, View4<const uint16_t> w,
              const ConvFp16Shape &shape, View4<uint32_t> out);

/// NvdlaMacCell::calculation_fp16 in Winograd mode (cmac_wino_fp16): 64
/// values, value 4 * p + c the transformed position p = 4 * row + column
/// and channel c of a group of four. The products aligned to the cell's
/// largest exponent group (as cmacFp16's), summed per position, then
/// A^T M A on those integers; `out` receives the outputs (0,0), (0,1),
/// (1,0), (1,1) of the 2x2 tile, all with the cell's exponent (a NaN: its
/// word in all four).
void cmacWinoFp16(const uint16_t *data, const uint16_t *weight, CmacWord out[4]);

/// CSC's PRA at precision FP16 (csc_pra_fp16): a 4x4 tile (4 * y + x) of
/// one channel to C^T d C, each step FpAdd / FpSub<6,10> on fp17, then
/// Fp17ToFp16.
void cscPraFp16(const uint16_t in[16], uint16_t out[16]);

/// A 3x3 stride-1 Winograd convolution's geometry: C, H, W of one image,
/// K kernels of C' >= C transformed channels (4x4 taps each), padding.
struct WinoFp16Shape {
  int64_t channels, height, width, kernels, tapChannels;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t outHeight() const { return height + padTop + padBottom - 2; }
  int64_t outWidth() const { return width + padLeft + padRight - 2; }
};

/// conv_wino_fp16 on one image: padding with `padValue` (fp16 bits; also
/// beyond the bottom / right edge up to whole 2x2 tiles), channels beyond
/// C zero; per 2x2 output tile, each group of four channels (ascending)
/// through the PRA and one Winograd MAC cell, CACC adding its four words
/// from +0. `taps` is K x C' x 4 x 4 (the stored transformed weights);
/// `out` (K x OH x OW of fp32 bits) receives what CACC hands the SDP.
void convWinoFp16(View4<const uint16_t> x, int64_t image, View4<const uint16_t> taps,
                  const WinoFp16Shape &shape, uint16_t padValue, View4<uint32_t> out);
/// An image convolution's geometry: the converted pixels (P components,
/// fp16) and the kernel (R x S over C <= P components; the others meet zero
/// weights).
struct ImageConvFp16Shape {
  int64_t components, height, width;      ///< P, H, W
  int64_t kernels, channels, kernelH, kernelW; ///< K, C, R, S
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t postExtension = 1;              ///< 1, 2 or 4 kernel rows per atom
  int64_t outHeight() const { return (height + padTop + padBottom - kernelH) / strideH + 1; }
  int64_t outWidth() const { return (width + padLeft + padRight - kernelW) / strideW + 1; }
};

/// An image convolution in fp16 as the v1 C model computes it
/// (utils/dla-ref/fp_nvdla.image_conv_fp16): CDMA writes each line
/// pre-extended (pixel x's P components at x * P, left / right padding 0),
/// CSC feeds CMAC per output and kernel row atoms of 64 consecutive
/// elements from ox * strideW * P on (super channels of the S * P extended
/// kernel; one atom holds several kernel columns), super channels outer,
/// kernel rows inner, each word added by CACC: convFp16 on the pre-extended
/// cube (S * P channels, width OW, kernel R x 1). A post-extension of E
/// puts E kernel rows in one atom (E * S * P <= 64): channels (e, s, p),
/// kernel ceil(R / E) x 1 at row dilation E; the last group's rows beyond
/// R are zeros, not the image's rows (CSC's memset: a NaN pixel there
/// takes no part). `x` one image's P x H x W fp16 bits,
/// `w` K x C x R x S; `out` K x OH x OW fp32 bits.
void imageConvFp16(const uint16_t *x, const uint16_t *w, const ImageConvFp16Shape &shape,
                   uint32_t *out);

/// One X stage (BS or BN) of the SDP at precision FP16 (sdp_x_fp16).
enum class SdpAluAlgo { Max = 0, Min = 1, Sum = 2 };
struct SdpXFp16 {
  bool aluBypass = true;
  SdpAluAlgo aluAlgo = SdpAluAlgo::Sum;
  bool mulBypass = true, mulPrelu = false, reluBypass = true, nanToZero = false;
};
/// The stage on fp32 bits `x` with fp16 operands (widened exactly; a NaN
/// operand +0 under nanToZero): ALU in fp32, then FpMul (PReLU passes
/// non-negative values), then ReLU. The shift fields are not used in fp16.
uint32_t sdpXFp16(uint32_t x, const SdpXFp16 &stage, uint16_t aluOperand, uint16_t mulOperand);

namespace detail {
/// cal_fp16_booth itself (cmacFp16 takes shortcuts where it is exact):
/// radix-4 Booth partial products of wt * dat, reduced by carry-save
/// adders to two vectors, each truncated `shift` bits right, plus the sign
/// compensation. For tests.
int64_t boothFp16(uint64_t sign, uint64_t wt, uint64_t dat, int64_t shift);
/// The same product as convFp16 computes it (lib/Format/NvdlaBoothFp16.h:
/// wt * dat, minus the carry the separate truncation loses, from the
/// carry-save tree on wt decoded once), shift 0 to 28. For tests.
int64_t boothFp16Decoded(uint64_t sign, uint64_t wt, uint64_t dat, int64_t shift);
/// caccAdd as convFp16 computes it, four accumulators at once (no NaN
/// words or accumulators; a zero word leaves its accumulator). For tests.
void caccAddLanes4(CaccAccumulator *acc, const CmacWord *word);
} // namespace detail

/// FpMax / FpMin <8,23> (by sign, exponent, mantissa; +0 > -0; a NaN
/// operand returned, a's first) and FpRelu (negatives and -0 to +0, NaN
/// kept).
uint32_t fp32Max(uint32_t a, uint32_t b);
uint32_t fp32Min(uint32_t a, uint32_t b);
uint32_t fp32Relu(uint32_t a);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLACONVFP16_H
