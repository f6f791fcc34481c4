//===- NvdlaPdpFp16.cpp - The PDP's fp16 pooling (nv_full) ----------------===//
//
// fp_nvdla.py pdp_fp16 line by line: the width pass per output column
// (pdp_w_step), the height pass per output row (pdp_h_step), stage 1.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaPdpFp16.h"

#include "dla/Format/NvdlaFloat.h"

#include <vector>

namespace dlaformat::nvdla {

namespace {

/// One visit of an output's window in PoolingStage0SequenceCommon's order:
/// the input index, whether the line buffer starts there, and the padded
/// positions LineOperation / PoolingStage0Calc add before and after.
struct Step {
  int64_t input;
  bool first;
  int nBefore, nAfter;
};

std::vector<Step> windowSteps(int64_t o, int64_t stride, int64_t before, int64_t extent,
                              int64_t kernel) {
  std::vector<Step> steps;
  for (int64_t i = 0; i < extent; ++i) {
    const int64_t k = before + i - o * stride;
    if (k < 0 || k >= kernel)
      continue;
    const bool addBefore =
        i + 1 < kernel && (k + 1 == kernel || (i + 1 == extent && i < k));
    const bool addAfter = !addBefore && i + kernel - k > extent && i + 1 == extent;
    steps.push_back({i, i == 0 || k == 0, addBefore ? int(kernel - (i + 1)) : 0,
                     addAfter ? int(kernel - (k + 1)) : 0});
  }
  return steps;
}

// fp17's width of the kernel (HLS_PDP_PoolingStage0Calc_FP16_H's table).
constexpr uint32_t kKernelWidthFp17[8] = {0x0000, 0x7c00, 0x8000, 0x8200,
                                          0x8400, 0x8500, 0x8600, 0x8700};

} // namespace

void pdpFp16(const uint16_t *x, int64_t planes, const PdpFp16Shape &s,
             const PdpFp16Registers &regs, uint16_t *out) {
  const int64_t oh = s.outHeight(), ow = s.outWidth();
  const bool avg = regs.method == PdpFp16Method::Average;
  const bool isMax = regs.method == PdpFp16Method::Max;
  uint32_t pad[8] = {0};
  for (int n = 1; n <= 7; ++n)
    pad[n] = regs.padValues[n - 1] & 0x1ffff;
  // The height pass adds PAD_VALUE_nX times the kernel width (fp17); a
  // width of 8 (past the C model's table) only with padding values 0, whose
  // product is +0 whatever finite width is read.
  uint32_t padRows[8] = {0};
  if (avg && s.kernelW <= 7)
    for (int n = 0; n <= 7; ++n)
      padRows[n] = fpMul(pad[n], kKernelWidthFp17[s.kernelW], kFp17);
  std::vector<std::vector<Step>> cols(ow), rows(oh);
  for (int64_t o = 0; o < ow; ++o)
    cols[o] = windowSteps(o, s.strideW, s.padLeft, s.width, s.kernelW);
  for (int64_t o = 0; o < oh; ++o)
    rows[o] = windowSteps(o, s.strideH, s.padTop, s.height, s.kernelH);

  auto cmp = [&](uint32_t a, uint32_t b) -> uint32_t {
    return isMax ? fp16Max(uint16_t(a), uint16_t(b)) : fp16Min(uint16_t(a), uint16_t(b));
  };
  std::vector<uint32_t> line(s.height * ow);
  for (int64_t p = 0; p < planes; ++p) {
    const uint16_t *xp = x + p * s.height * s.width;
    auto in = [&](int64_t y, int64_t i) {
      uint16_t v = xp[y * s.width + i];
      return regs.nanToZero && fpIsNan(v, kFp16) ? uint16_t(0) : v;
    };
    // Width pass: one line-operation result per input row and output column.
    for (int64_t y = 0; y < s.height; ++y)
      for (int64_t o = 0; o < ow; ++o) {
        uint32_t acc = 0;
        for (const Step &st : cols[o]) {
          const uint16_t v = in(y, st.input);
          if (!avg) {
            acc = st.first ? v : cmp(acc, v);
            continue;
          }
          const uint32_t b = fp16ToFp17(v);
          acc = st.first ? b : fpAdd(acc, b, kFp17);
          acc = fpAdd(fpAdd(acc, pad[st.nBefore], kFp17), pad[st.nAfter], kFp17);
        }
        line[y * ow + o] = acc;
      }
    // Height pass and stage 1.
    uint16_t *op = out + p * oh * ow;
    for (int64_t o = 0; o < oh; ++o)
      for (int64_t c = 0; c < ow; ++c) {
        uint32_t acc = 0;
        for (const Step &st : rows[o]) {
          const uint32_t r = line[st.input * ow + c];
          if (!avg) {
            acc = st.first ? r : cmp(r, acc);
            continue;
          }
          acc = st.first ? r : fpAdd(r, acc, kFp17);
          acc = fpAdd(fpAdd(acc, padRows[st.nBefore], kFp17), padRows[st.nAfter], kFp17);
        }
        op[o * ow + c] =
            avg ? fp17ToFp16(fpMul(fpMul(acc, regs.recipWidth & 0x1ffff, kFp17),
                                   regs.recipHeight & 0x1ffff, kFp17))
                : uint16_t(acc);
      }
  }
}

} // namespace dlaformat::nvdla
