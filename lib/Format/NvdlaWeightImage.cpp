//===- NvdlaWeightImage.cpp - Image-input weight stream ------------------===//
//
// Image-input weights (format document, "Basic Weight for image input" and
// "Weight Channel Post-extension"; format_dc_channel_extension_for_image_for_
// weight.png, format_weight_channel_post_extension_2.png):
//
//  1. zero-pad C to the pixel format's channel count P;
//  2. pre-extension: K x P x R x S -> K x (S*P) x R x 1, c' = s*P + c
//     (all weights of one kernel row become the channels of one position);
//  3. without post-extension: the direct layout of the pre-extended kernel;
//     with post-extension by f: in each kernel group, for each group of f
//     rows (a last group of R mod f rows, not zero-filled), for each kernel,
//     the S*P channels of each row of the group.
//
//===----------------------------------------------------------------------===//

#include "NvdlaWeightImpl.h"

#include "dla/Format/CheckedMath.h"

#include <algorithm>

using namespace dlaformat;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::detail;

namespace {

/// Runs for pre-extended channels [first, first + count) of kernel row r.
void appendImageChannels(std::vector<Run> &runs, int64_t C, int64_t R, int64_t S, int64_t P,
                         int64_t r, int64_t first, int64_t count) {
  const int64_t RS = R * S;
  for (int64_t cp = first, end = first + count; cp < end;) {
    const int64_t s = cp / P;
    const int64_t c = cp % P;
    const int64_t n = std::min(end - cp, P - c); // channels left at this s
    const int64_t real = std::max<int64_t>(0, std::min(n, C - c));
    if (real > 0)
      appendRun(runs, Run{c * RS + r * S + s, RS, real});
    appendRun(runs, Run{-1, 0, n - real});
    cp += n;
  }
}

} // namespace

SurfaceProgram dlaformat::nvdla::detail::buildImageProgram(int64_t C, int64_t R, int64_t S,
                                                             int64_t pixelChannels,
                                                             int64_t atomicC, int64_t factor) {
  SurfaceProgram program;
  const int64_t P = pixelChannels;
  const int64_t extended = S * P;
  if (factor <= 1) {
    for (int64_t c0 = 0; c0 < extended; c0 += atomicC) {
      const int64_t cn = std::min(atomicC, extended - c0);
      for (int64_t r = 0; r < R; ++r) {
        std::vector<Run> runs;
        appendImageChannels(runs, C, R, S, P, r, c0, cn);
        program.addStep(runs);
      }
    }
    return program;
  }
  for (int64_t r0 = 0; r0 < R; r0 += factor) {
    std::vector<Run> runs;
    for (int64_t r = r0; r < std::min(R, r0 + factor); ++r)
      appendImageChannels(runs, C, R, S, P, r, 0, extended);
    program.addStep(runs);
  }
  return program;
}

int64_t dlaformat::nvdla::selectPostExtensionFactor(const HardwareConfig &hardware,
                                                      int64_t pixelChannels,
                                                      int64_t kernelWidth, int64_t strideX) {
  if (strideX > kernelWidth || strideX <= 0 || pixelChannels <= 0)
    return 1;
  const int64_t atomicC = hardware.atomicC;
  std::optional<int64_t> extended = checkedMul(kernelWidth, pixelChannels);
  if (!extended)
    return 1; // far wider than any atom
  // Size tests first: pixelChannels * strideX <= extended (strideX <= S), so
  // the products after them stay below 4 atoms and cannot overflow.
  if (*extended <= atomicC / 4 && pixelChannels * strideX * 3 + *extended <= atomicC)
    return 4;
  if (*extended <= atomicC / 2 && pixelChannels * strideX + *extended <= atomicC)
    return 2;
  return 1;
}

//===----------------------------------------------------------------------===//
// Registration (the image row of weightFormatTable)
//===----------------------------------------------------------------------===//

namespace {
std::string str(int64_t v) { return std::to_string(v); }

/// The post-extension factor of image-input weights, or an error.
Expected<int64_t> resolvePostExtension(const WeightParams &p) {
  const int64_t extended = p.shape.width * p.pixelChannels;
  const int64_t atomicC = p.hardware.atomicC;
  int64_t factor = 1;
  switch (p.postExtension) {
  case PostExtension::None:
    return int64_t(1);
  case PostExtension::Auto:
    return selectPostExtensionFactor(p.hardware, p.pixelChannels, p.shape.width, p.strideX);
  case PostExtension::Two:
    factor = 2;
    break;
  case PostExtension::Four:
    factor = 4;
    break;
  }
  if (extended > atomicC / factor)
    return makeError("channel post-extension " + str(factor) + " combines " + str(factor) +
                     " kernel rows into one channel cube, so it needs S * pixelChannels <= "
                     "atomic-C / " +
                     str(factor) + " = " + str(atomicC / factor) + " on " +
                     std::string(p.hardware.name) + "; got S * pixelChannels = " +
                     str(p.shape.width) + " * " + str(p.pixelChannels) + " = " + str(extended));
  return factor;
}

Status checkImageOptions(const WeightParams &params) {
  if (params.pixelChannels <= 0)
    return makeError("image-input weights need the pixel format's channel count "
                     "(pixelChannels, e.g. 4 for T_A8B8G8R8), got " +
                     str(params.pixelChannels));
  return Status::success();
}

Expected<WeightGeometry> planImage(const WeightParams &params, WeightLayoutImpl &impl) {
  const WeightShape &shape = params.shape;
  if (params.pixelChannels < shape.channels)
    return makeError("image-input weights have C = " + str(shape.channels) +
                     " channels but the pixel format has only " + str(params.pixelChannels) +
                     "; C is zero-padded up to the pixel format's channel count, never cut");
  std::optional<int64_t> extended = checkedMul(shape.width, params.pixelChannels);
  if (!extended)
    return overflow(params);
  impl.imageChannels = *extended;
  Expected<int64_t> factor = resolvePostExtension(params);
  if (!factor)
    return factor.takeError();
  impl.postExtensionFactor = *factor;
  std::optional<int64_t> kernelElements = checkedMul(*extended, shape.height);
  if (!kernelElements)
    return overflow(params);
  WeightGeometry geometry;
  geometry.kernelElements = *kernelElements;
  return geometry;
}

SurfaceProgram imageProgram(const WeightLayoutImpl &impl, const WeightSurface &) {
  const WeightParams &p = impl.params;
  return buildImageProgram(p.shape.channels, p.shape.height, p.shape.width, p.pixelChannels,
                           p.hardware.atomicC, impl.postExtensionFactor);
}
} // namespace

const WeightFormatOps dlaformat::nvdla::detail::kImageWeightOps = {
    /*imageParams=*/true, /*usesStride=*/true, /*notInvertible=*/{}, checkImageOptions, planImage,
    imageProgram, /*pack=*/nullptr};
