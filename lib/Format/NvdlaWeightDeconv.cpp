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

#include <algorithm>

using namespace dla::format;
using namespace dla::format::nvdla;
using namespace dla::format::nvdla::detail;

SurfaceProgram dla::format::nvdla::detail::buildDeconvolutionProgram(
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
