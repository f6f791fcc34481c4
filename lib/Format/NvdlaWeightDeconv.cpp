//===- NvdlaWeightDeconv.cpp - Deconvolution weight sets -----------------===//
//
// A deconvolution with strides (sx, sy) runs as sx*sy convolutions. Set
// (y, x) (y outer, x inner) is K x C x ceil(R/sy) x ceil(S/sx) with
// set[k,c,r,s] = W[k,c, y + r*sy, x + s*sx], zero out of range, and is laid
// out as direct convolution with R and S both scanned in reverse (the kernel
// rotated by 180 degrees).
//
//===----------------------------------------------------------------------===//

#include "NvdlaWeightImpl.h"

#include "dla/Format/CheckedMath.h"
#include "dla/Format/Window.h"

#include <algorithm>

using namespace dlaformat;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::detail;

SurfaceProgram dlaformat::nvdla::detail::buildDeconvolutionProgram(
    int64_t C, int64_t R, int64_t S, int64_t sy, int64_t sx, int64_t y, int64_t x,
    int64_t atomicC) {
  SurfaceProgram program;
  const int64_t RS = R * S;
  const int64_t setR = (R + sy - 1) / sy;
  const int64_t setS = (S + sx - 1) / sx;
  for (int64_t c0 = 0; c0 < C; c0 += atomicC) {
    const int64_t cn = std::min(atomicC, C - c0);
    for (int64_t i = setR - 1; i >= 0; --i) {
      for (int64_t j = setS - 1; j >= 0; --j) {
        const int64_t r = y + i * sy;
        const int64_t s = x + j * sx;
        if (r < R && s < S)
          program.addStep({Run{c0 * RS + r * S + s, RS, cn}});
        else
          program.addStep({Run{-1, 0, cn}});
      }
    }
  }
  return program;
}

//===----------------------------------------------------------------------===//
// Registration (the deconvolution row of weightFormatTable)
//===----------------------------------------------------------------------===//

namespace {
Expected<WeightGeometry> planDeconvolution(const WeightParams &params, WeightLayoutImpl &) {
  const WeightShape &shape = params.shape;
  const int64_t setR = strideExtendedExtent(shape.height, params.strideY);
  const int64_t setS = strideExtendedExtent(shape.width, params.strideX);
  std::optional<int64_t> taps = checkedMul(setR, setS);
  std::optional<int64_t> kernelElements;
  if (taps)
    kernelElements = checkedMul(shape.channels, *taps);
  std::optional<int64_t> sets = checkedMul(params.strideX, params.strideY);
  if (!kernelElements || !sets)
    return overflow(params);
  if (*sets > (int64_t(1) << 20))
    return makeError("deconvolution strides " + std::to_string(params.strideX) + " x " +
                     std::to_string(params.strideY) + " give " + std::to_string(*sets) +
                     " weight sets; too many");
  WeightGeometry geometry;
  geometry.kernelElements = *kernelElements;
  geometry.setsY = params.strideY;
  geometry.setsX = params.strideX;
  return geometry;
}

SurfaceProgram deconvolutionProgram(const WeightLayoutImpl &impl, const WeightSurface &set) {
  const WeightParams &p = impl.params;
  return buildDeconvolutionProgram(p.shape.channels, p.shape.height, p.shape.width, p.strideY,
                                   p.strideX, set.setY, set.setX, p.hardware.atomicC);
}
} // namespace

const WeightFormatOps dlaformat::nvdla::detail::kDeconvolutionWeightOps = {
    /*imageParams=*/false, /*usesStride=*/true, /*notInvertible=*/{}, /*checkOptions=*/nullptr,
    planDeconvolution, deconvolutionProgram, /*pack=*/nullptr};
