//===- NvdlaRuntime.h - Functions the CPU execution calls -------*- C++ -*-===//
//
// What the lowered code of an fp16 layer on nv_full calls, when the
// hardware's arithmetic is asked for (--dla-lower-to-reference
// fp16-arithmetic=hardware, the default): the format library's
// NvdlaConvFp16.h / NvdlaPdpFp16.h / NvdlaFloat.h behind a C ABI, so that the arithmetic
// lives once (docs/NvdlaFp16.md "The CPU execution"). The JIT of the C API
// (dlaExecutionEngineCreate) resolves these symbols itself; mlir-runner
// loads libDLARuntime.so (-shared-libs).
//
// Calling convention: MLIR's default for func.call (no C interface
// wrapper): a 1-d memref is five arguments (allocated and aligned pointer,
// offset, size, stride), scalars are i32 / i64. fp16 and fp32 values
// travel as their bit patterns in i32.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_EXECUTIONRUNTIME_NVDLARUNTIME_H
#define DLA_EXECUTIONRUNTIME_NVDLARUNTIME_H

#include <cstdint>

namespace dla::runtime {

/// The symbol names, for the lowering and the JIT.
inline constexpr const char *kConvFp16 = "dla_nvdla_conv_fp16";
inline constexpr const char *kConvWinoFp16 = "dla_nvdla_conv_wino_fp16";
inline constexpr const char *kImageConvFp16 = "dla_nvdla_image_conv_fp16";
inline constexpr const char *kPdpFp16 = "dla_nvdla_pdp_fp16";
inline constexpr const char *kCdpFp16 = "dla_nvdla_cdp_fp16";
inline constexpr const char *kSdpLutFloatFp16 = "dla_nvdla_sdp_lut_float_fp16";
inline constexpr const char *kFp32Add = "dla_nvdla_fp32_add";
inline constexpr const char *kFp32Mul = "dla_nvdla_fp32_mul";
inline constexpr const char *kFp32Max = "dla_nvdla_fp32_max";
inline constexpr const char *kFp32Min = "dla_nvdla_fp32_min";
inline constexpr const char *kFp32Relu = "dla_nvdla_fp32_relu";
inline constexpr const char *kFp16ToFp32 = "dla_nvdla_fp16_to_fp32";
inline constexpr const char *kFp32ToFp16 = "dla_nvdla_fp32_to_fp16";
inline constexpr const char *kFp16ToInt16 = "dla_nvdla_fp16_to_int16";

/// Calls `fn(name, address)` for every function of this header.
void forEachSymbol(void (*fn)(const char *name, void *address, void *user), void *user);

} // namespace dla::runtime

extern "C" {
/// conv_fp16 of a batch: x (N x C x H x W), w (K x C x R x S), out (N x K x
/// OH x OW, fp32 bits), each a contiguous 1-d memref of its elements.
/// geometry: N, C, H, W, K, R, S, stride H / W, padding top / bottom / left
/// / right, dilation H / W.
void dla_nvdla_conv_fp16(uint16_t *xAllocated, uint16_t *x, int64_t xOffset, int64_t xSize,
                         int64_t xStride, uint16_t *wAllocated, uint16_t *w, int64_t wOffset,
                         int64_t wSize, int64_t wStride, uint32_t *outAllocated, uint32_t *out,
                         int64_t outOffset, int64_t outSize, int64_t outStride, int64_t n,
                         int64_t c, int64_t h, int64_t wd, int64_t k, int64_t r, int64_t s,
                         int64_t strideH, int64_t strideW, int64_t padTop, int64_t padBottom,
                         int64_t padLeft, int64_t padRight, int64_t dilationH,
                         int64_t dilationW);
/// conv_wino_fp16 of a batch (NvdlaConvFp16.h convWinoFp16): x (N x C x H
/// x W), taps (K x C' x 4 x 4, the stored transformed weights), out (N x K
/// x OH x OW, fp32 bits), contiguous 1-d memrefs. geometry: N, C, H, W, K,
/// C', padding top / bottom / left / right, the padding value's fp16 bits.
void dla_nvdla_conv_wino_fp16(uint16_t *xAllocated, uint16_t *x, int64_t xOffset, int64_t xSize,
                              int64_t xStride, uint16_t *tAllocated, uint16_t *taps,
                              int64_t tOffset, int64_t tSize, int64_t tStride,
                              uint32_t *outAllocated, uint32_t *out, int64_t outOffset,
                              int64_t outSize, int64_t outStride, int64_t n, int64_t c, int64_t h,
                              int64_t wd, int64_t k, int64_t cx, int64_t padTop,
                              int64_t padBottom, int64_t padLeft, int64_t padRight,
                              int64_t padValue);
/// imageConvFp16 (NvdlaConvFp16.h) of a batch: x (N x P x H x W, the
/// converted pixels' fp16 bits), w (K x C x R x S), out (N x K x OH x OW,
/// fp32 bits), contiguous 1-d memrefs. geometry: N, P, H, W, K, C, R, S,
/// stride H / W, padding top / bottom / left / right, post-extension (1, 2
/// or 4 kernel rows per atom).
void dla_nvdla_image_conv_fp16(uint16_t *xAllocated, uint16_t *x, int64_t xOffset, int64_t xSize,
                               int64_t xStride, uint16_t *wAllocated, uint16_t *w,
                               int64_t wOffset, int64_t wSize, int64_t wStride,
                               uint32_t *outAllocated, uint32_t *out, int64_t outOffset,
                               int64_t outSize, int64_t outStride, int64_t n, int64_t p,
                               int64_t h, int64_t wd, int64_t k, int64_t c, int64_t r, int64_t s,
                               int64_t strideH, int64_t strideW, int64_t padTop,
                               int64_t padBottom, int64_t padLeft, int64_t padRight,
                               int64_t postExtension);
/// The PDP's fp16 pooling (NvdlaPdpFp16.h) of `planes` planes: x (planes x
/// H x W fp16 bits), out (planes x OH x OW), contiguous 1-d memrefs.
/// geometry: planes, H, W, kernel H / W, stride H / W, padding top /
/// bottom / left / right; method 0 average, 1 max, 2 min. The registers
/// are the firmware's (reciprocals 1/k in fp17, padding values 0, no NaN
/// flush), as the register plan programs them.
void dla_nvdla_pdp_fp16(uint16_t *xAllocated, uint16_t *x, int64_t xOffset, int64_t xSize,
                        int64_t xStride, uint16_t *outAllocated, uint16_t *out,
                        int64_t outOffset, int64_t outSize, int64_t outStride, int64_t planes,
                        int64_t h, int64_t w, int64_t kernelH, int64_t kernelW,
                        int64_t strideH, int64_t strideW, int64_t padTop, int64_t padBottom,
                        int64_t padLeft, int64_t padRight, int64_t method);
/// The CDP's fp16 LRN (NvdlaCdpFp16.h) of `planes` cubes: x and out
/// (planes x channels x pixels fp16 bits), the float-mode tables as the
/// register plan programs them (getLrnTables: stated, or lrnFloatTables';
/// kLutRegisters int64 in lutFromRegisters' order), contiguous 1-d
/// memrefs; the window `size`.
void dla_nvdla_cdp_fp16(uint16_t *xAllocated, uint16_t *x, int64_t xOffset, int64_t xSize,
                        int64_t xStride, uint16_t *outAllocated, uint16_t *out,
                        int64_t outOffset, int64_t outSize, int64_t outStride,
                        int64_t *rAllocated, int64_t *registers, int64_t rOffset, int64_t rSize,
                        int64_t rStride, int64_t planes, int64_t channels, int64_t pixels,
                        int64_t size);
/// The SDP Y stage's LUT in float mode, then the output converter
/// (NvdlaLutFloat.h sdpLookupFloatToFp16), on `count` fp32 values: the
/// registers (kLutRegisters int64, NvdlaLrn.h lutFromRegisters' order), x
/// (the fp32 bits the stages before the LUT computed), out (fp16 bits),
/// contiguous 1-d memrefs. The LUT sees the stage's fp32 value, not an
/// fp16 one, so it cannot be tabulated per input as the LUT alone is.
void dla_nvdla_sdp_lut_float_fp16(int64_t *rAllocated, int64_t *registers, int64_t rOffset,
                                  int64_t rSize, int64_t rStride, uint32_t *xAllocated,
                                  uint32_t *x, int64_t xOffset, int64_t xSize, int64_t xStride,
                                  uint16_t *outAllocated, uint16_t *out, int64_t outOffset,
                                  int64_t outSize, int64_t outStride, int64_t count);
/// FpAdd<8,23>, FpMul<8,23>, FpMax, FpMin, FpRelu on fp32 bits.
uint32_t dla_nvdla_fp32_add(uint32_t a, uint32_t b);
uint32_t dla_nvdla_fp32_mul(uint32_t a, uint32_t b);
uint32_t dla_nvdla_fp32_max(uint32_t a, uint32_t b);
uint32_t dla_nvdla_fp32_min(uint32_t a, uint32_t b);
uint32_t dla_nvdla_fp32_relu(uint32_t a);
/// Fp16ToFp32 (the SDP's operands widened) and Fp32ToFp16 (the output
/// converter): fp16 bits in the low 16 bits.
uint32_t dla_nvdla_fp16_to_fp32(uint32_t h);
uint32_t dla_nvdla_fp32_to_fp16(uint32_t f);
/// Fp16ToInt16 (an fp16 pipeline's SDP writing int16, after Fp32ToFp16):
/// the int16 in the low 16 bits.
uint32_t dla_nvdla_fp16_to_int16(uint32_t h);
}

#endif // DLA_EXECUTIONRUNTIME_NVDLARUNTIME_H
