//===- NvdlaRuntime.cpp - Functions the CPU execution calls ---------------===//

#include "dla/ExecutionRuntime/NvdlaRuntime.h"

#include "dla/Format/NvdlaConvFp16.h"
#include "dla/Format/NvdlaFloat.h"
#include "dla/Format/NvdlaLutFloat.h"
#include "dla/Format/NvdlaCdpFp16.h"
#include "dla/Format/NvdlaPdpFp16.h"

namespace nv = dlaformat::nvdla;

extern "C" {

void dla_nvdla_conv_fp16(uint16_t *, uint16_t *x, int64_t xOffset, int64_t, int64_t,
                         uint16_t *, uint16_t *w, int64_t wOffset, int64_t, int64_t, uint32_t *,
                         uint32_t *out, int64_t outOffset, int64_t, int64_t, int64_t n,
                         int64_t c, int64_t h, int64_t wd, int64_t k, int64_t r, int64_t s,
                         int64_t strideH, int64_t strideW, int64_t padTop, int64_t padBottom,
                         int64_t padLeft, int64_t padRight, int64_t dilationH,
                         int64_t dilationW) {
  nv::ConvFp16Shape shape{c, h, wd, k, r, s};
  shape.strideH = strideH, shape.strideW = strideW;
  shape.padTop = padTop, shape.padBottom = padBottom;
  shape.padLeft = padLeft, shape.padRight = padRight;
  shape.dilationH = dilationH, shape.dilationW = dilationW;
  const int64_t oh = shape.outHeight(), ow = shape.outWidth();
  const nv::View4<const uint16_t> xv{x + xOffset, {c * h * wd, h * wd, wd, 1}};
  const nv::View4<const uint16_t> wv{w + wOffset, {c * r * s, r * s, s, 1}};
  for (int64_t i = 0; i < n; ++i)
    nv::convFp16(xv, i, wv, shape,
                 {out + outOffset + i * k * oh * ow, {0, oh * ow, ow, 1}});
}

void dla_nvdla_conv_wino_fp16(uint16_t *, uint16_t *x, int64_t xOffset, int64_t, int64_t,
                              uint16_t *, uint16_t *taps, int64_t tOffset, int64_t, int64_t,
                              uint32_t *, uint32_t *out, int64_t outOffset, int64_t, int64_t,
                              int64_t n, int64_t c, int64_t h, int64_t wd, int64_t k, int64_t cx,
                              int64_t padTop, int64_t padBottom, int64_t padLeft,
                              int64_t padRight, int64_t padValue) {
  nv::WinoFp16Shape shape{c, h, wd, k, cx};
  shape.padTop = padTop, shape.padBottom = padBottom;
  shape.padLeft = padLeft, shape.padRight = padRight;
  const int64_t oh = shape.outHeight(), ow = shape.outWidth();
  const nv::View4<const uint16_t> xv{x + xOffset, {c * h * wd, h * wd, wd, 1}};
  const nv::View4<const uint16_t> tv{taps + tOffset, {cx * 16, 16, 4, 1}};
  for (int64_t i = 0; i < n; ++i)
    nv::convWinoFp16(xv, i, tv, shape, uint16_t(padValue),
                     {out + outOffset + i * k * oh * ow, {0, oh * ow, ow, 1}});
}

void dla_nvdla_image_conv_fp16(uint16_t *, uint16_t *x, int64_t xOffset, int64_t, int64_t,
                               uint16_t *, uint16_t *w, int64_t wOffset, int64_t, int64_t,
                               uint32_t *, uint32_t *out, int64_t outOffset, int64_t, int64_t,
                               int64_t n, int64_t p, int64_t h, int64_t wd, int64_t k, int64_t c,
                               int64_t r, int64_t s, int64_t strideH, int64_t strideW,
                               int64_t padTop, int64_t padBottom, int64_t padLeft,
                               int64_t padRight, int64_t postExtension) {
  nv::ImageConvFp16Shape shape{p, h, wd, k, c, r, s};
  shape.postExtension = postExtension;
  shape.strideH = strideH, shape.strideW = strideW;
  shape.padTop = padTop, shape.padBottom = padBottom;
  shape.padLeft = padLeft, shape.padRight = padRight;
  const int64_t oh = shape.outHeight(), ow = shape.outWidth();
  for (int64_t i = 0; i < n; ++i)
    nv::imageConvFp16(x + xOffset + i * p * h * wd, w + wOffset, shape,
                      out + outOffset + i * k * oh * ow);
}

void dla_nvdla_pdp_fp16(uint16_t *, uint16_t *x, int64_t xOffset, int64_t, int64_t, uint16_t *,
                        uint16_t *out, int64_t outOffset, int64_t, int64_t, int64_t planes,
                        int64_t h, int64_t w, int64_t kernelH, int64_t kernelW,
                        int64_t strideH, int64_t strideW, int64_t padTop, int64_t padBottom,
                        int64_t padLeft, int64_t padRight, int64_t method) {
  nv::PdpFp16Shape shape{h, w, kernelH, kernelW, strideH, strideW};
  shape.padTop = padTop, shape.padBottom = padBottom;
  shape.padLeft = padLeft, shape.padRight = padRight;
  nv::PdpFp16Registers regs;
  regs.method = method == 0   ? nv::PdpFp16Method::Average
                : method == 1 ? nv::PdpFp16Method::Max
                              : nv::PdpFp16Method::Min;
  regs.recipWidth = nv::pdpRecipFp17(kernelW);
  regs.recipHeight = nv::pdpRecipFp17(kernelH);
  nv::pdpFp16(x + xOffset, planes, shape, regs, out + outOffset);
}

void dla_nvdla_cdp_fp16(uint16_t *, uint16_t *x, int64_t xOffset, int64_t, int64_t, uint16_t *,
                        uint16_t *out, int64_t outOffset, int64_t, int64_t, int64_t *,
                        int64_t *registers, int64_t rOffset, int64_t, int64_t, int64_t planes,
                        int64_t channels, int64_t pixels, int64_t size) {
  nv::cdpFp16(x + xOffset, planes, channels, pixels, size,
              nv::lutFromRegisters(registers + rOffset), out + outOffset);
}

void dla_nvdla_sdp_lut_float_fp16(int64_t *, int64_t *registers, int64_t rOffset, int64_t,
                                  int64_t, uint32_t *, uint32_t *x, int64_t xOffset, int64_t,
                                  int64_t, uint16_t *, uint16_t *out, int64_t outOffset, int64_t,
                                  int64_t, int64_t count) {
  const nv::LutProgram lut = nv::lutFromRegisters(registers + rOffset);
  for (int64_t i = 0; i < count; ++i)
    out[outOffset + i] = nv::sdpLookupFloatToFp16(x[xOffset + i], lut);
}

uint32_t dla_nvdla_fp32_add(uint32_t a, uint32_t b) { return nv::fpAdd(a, b, nv::kFp32); }
uint32_t dla_nvdla_fp32_mul(uint32_t a, uint32_t b) { return nv::fpMul(a, b, nv::kFp32); }
uint32_t dla_nvdla_fp32_max(uint32_t a, uint32_t b) { return nv::fp32Max(a, b); }
uint32_t dla_nvdla_fp32_min(uint32_t a, uint32_t b) { return nv::fp32Min(a, b); }
uint32_t dla_nvdla_fp32_relu(uint32_t a) { return nv::fp32Relu(a); }
uint32_t dla_nvdla_fp16_to_fp32(uint32_t h) { return nv::nvdlaFp16ToFp32(uint16_t(h)); }
uint32_t dla_nvdla_fp32_to_fp16(uint32_t f) { return nv::nvdlaFp32ToFp16(f); }
uint32_t dla_nvdla_fp16_to_int16(uint32_t h) {
  return uint16_t(nv::nvdlaFp16ToInt16(uint16_t(h)));
}
}

void dla::runtime::forEachSymbol(void (*fn)(const char *, void *, void *), void *user) {
  fn(kConvFp16, reinterpret_cast<void *>(&dla_nvdla_conv_fp16), user);
  fn(kConvWinoFp16, reinterpret_cast<void *>(&dla_nvdla_conv_wino_fp16), user);
  fn(kImageConvFp16, reinterpret_cast<void *>(&dla_nvdla_image_conv_fp16), user);
  fn(kPdpFp16, reinterpret_cast<void *>(&dla_nvdla_pdp_fp16), user);
  fn(kCdpFp16, reinterpret_cast<void *>(&dla_nvdla_cdp_fp16), user);
  fn(kSdpLutFloatFp16, reinterpret_cast<void *>(&dla_nvdla_sdp_lut_float_fp16), user);
  fn(kFp32Add, reinterpret_cast<void *>(&dla_nvdla_fp32_add), user);
  fn(kFp32Mul, reinterpret_cast<void *>(&dla_nvdla_fp32_mul), user);
  fn(kFp32Max, reinterpret_cast<void *>(&dla_nvdla_fp32_max), user);
  fn(kFp32Min, reinterpret_cast<void *>(&dla_nvdla_fp32_min), user);
  fn(kFp32Relu, reinterpret_cast<void *>(&dla_nvdla_fp32_relu), user);
  fn(kFp16ToFp32, reinterpret_cast<void *>(&dla_nvdla_fp16_to_fp32), user);
  fn(kFp32ToFp16, reinterpret_cast<void *>(&dla_nvdla_fp32_to_fp16), user);
  fn(kFp16ToInt16, reinterpret_cast<void *>(&dla_nvdla_fp16_to_int16), user);
}
