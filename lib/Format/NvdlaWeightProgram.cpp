//===- NvdlaWeightProgram.cpp - Copy loops of NVDLA weight streams -------===//

#include "NvdlaWeightProgram.h"

#include <algorithm>
#include <cstring>

using namespace dlaformat;
using namespace dlaformat::nvdla::detail;

void dlaformat::nvdla::detail::appendRun(std::vector<Run> &runs, Run run) {
  if (run.count <= 0)
    return;
  if (!runs.empty()) {
    Run &last = runs.back();
    if (last.isZero() && run.isZero()) {
      last.count += run.count;
      return;
    }
    if (!last.isZero() && !run.isZero()) {
      if (last.count == 1 && run.src > last.src) {
        // A single element continues with any stride.
        if (run.count == 1 || run.stride == run.src - last.src) {
          last.stride = run.src - last.src;
          last.count += run.count;
          return;
        }
      } else if (run.src == last.src + last.count * last.stride &&
                 (run.count == 1 || run.stride == last.stride)) {
        last.count += run.count;
        return;
      }
    }
  }
  runs.push_back(run);
}

void SurfaceProgram::addStep(const std::vector<Run> &stepRuns) {
  Step step;
  step.runBegin = static_cast<int64_t>(runs.size());
  step.atomElements = 0;
  step.prefixElements = elementsPerKernel;
  std::vector<Run> merged;
  for (const Run &run : stepRuns)
    appendRun(merged, run);
  for (const Run &run : merged) {
    runs.push_back(run);
    step.atomElements += run.count;
  }
  step.runEnd = static_cast<int64_t>(runs.size());
  elementsPerKernel += step.atomElements;
  steps.push_back(step);
}

namespace {

// Movers: copy `n` source elements at `stride` (source elements) into
// consecutive storage elements.

template <int W> struct RawMover {
  static constexpr int64_t srcBytes = W;
  static constexpr int64_t dstBytes = W;
  static inline void move(char *dst, const char *src, int64_t stride, int64_t n) {
    if (stride == 1) {
      std::memcpy(dst, src, static_cast<size_t>(n * W));
      return;
    }
    const int64_t step = stride * W;
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      std::memcpy(dst + (i + 0) * W, src + (i + 0) * step, W);
      std::memcpy(dst + (i + 1) * W, src + (i + 1) * step, W);
      std::memcpy(dst + (i + 2) * W, src + (i + 2) * step, W);
      std::memcpy(dst + (i + 3) * W, src + (i + 3) * step, W);
    }
    for (; i < n; ++i)
      std::memcpy(dst + i * W, src + i * step, W);
  }
};

template <Fp16Rounding R> struct Fp32ToFp16Mover {
  static constexpr int64_t srcBytes = 4;
  static constexpr int64_t dstBytes = 2;
  static inline void move(char *dst, const char *src, int64_t stride, int64_t n) {
    const int64_t step = stride * 4;
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, src + i * step, 4);
      const uint16_t h = fp32ToFp16(f, R);
      std::memcpy(dst + i * 2, &h, 2);
    }
  }
};

template <typename M>
int64_t packLoop(const SurfaceProgram &program, const StreamShape &shape, const char *src,
                 char *dst) {
  constexpr int64_t SB = M::srcBytes;
  constexpr int64_t DB = M::dstBytes;
  const int64_t kernelBytes = shape.kernelStride * SB;
  const Run *runs = program.runs.data();
  char *out = dst;
  for (int64_t k0 = 0; k0 < shape.numKernels; k0 += shape.kernelsPerGroup) {
    const int64_t kn = std::min(shape.kernelsPerGroup, shape.numKernels - k0);
    const char *groupBase = src + k0 * kernelBytes;
    for (const Step &step : program.steps) {
      const Run *rb = runs + step.runBegin;
      const Run *re = runs + step.runEnd;
      if (re - rb == 1) {
        // The common case (direct convolution): one run per kernel.
        const Run run = *rb;
        const int64_t bytes = run.count * DB;
        if (run.isZero()) {
          std::memset(out, 0, static_cast<size_t>(kn * bytes));
          out += kn * bytes;
          continue;
        }
        const char *base = groupBase + run.src * SB;
        for (int64_t k = 0; k < kn; ++k) {
          M::move(out, base, run.stride, run.count);
          base += kernelBytes;
          out += bytes;
        }
        continue;
      }
      const char *kernelBase = groupBase;
      for (int64_t k = 0; k < kn; ++k) {
        for (const Run *run = rb; run != re; ++run) {
          const int64_t bytes = run->count * DB;
          if (run->isZero())
            std::memset(out, 0, static_cast<size_t>(bytes));
          else
            M::move(out, kernelBase + run->src * SB, run->stride, run->count);
          out += bytes;
        }
        kernelBase += kernelBytes;
      }
    }
  }
  return out - dst;
}

template <int W>
void unpackLoop(const SurfaceProgram &program, const StreamShape &shape, const char *src,
                char *dst) {
  const int64_t kernelBytes = shape.kernelStride * W;
  const Run *runs = program.runs.data();
  const char *in = src;
  for (int64_t k0 = 0; k0 < shape.numKernels; k0 += shape.kernelsPerGroup) {
    const int64_t kn = std::min(shape.kernelsPerGroup, shape.numKernels - k0);
    char *kernelBase = dst + k0 * kernelBytes;
    for (const Step &step : program.steps) {
      const Run *rb = runs + step.runBegin;
      const Run *re = runs + step.runEnd;
      char *base = kernelBase;
      for (int64_t k = 0; k < kn; ++k, base += kernelBytes) {
        for (const Run *run = rb; run != re; ++run) {
          if (!run->isZero()) {
            char *to = base + run->src * W;
            const int64_t step = run->stride * W;
            if (run->stride == 1)
              std::memcpy(to, in, static_cast<size_t>(run->count * W));
            else
              for (int64_t i = 0; i < run->count; ++i)
                std::memcpy(to + i * step, in + i * W, W);
          }
          in += run->count * W;
        }
      }
    }
  }
}

} // namespace

int64_t dlaformat::nvdla::detail::packSurface(const SurfaceProgram &program,
                                                const StreamShape &shape, SourceKind kind,
                                                const char *src, char *dst) {
  switch (kind) {
  case SourceKind::Raw1:
    return packLoop<RawMover<1>>(program, shape, src, dst);
  case SourceKind::Raw2:
    return packLoop<RawMover<2>>(program, shape, src, dst);
  case SourceKind::Fp32ToFp16TE:
    return packLoop<Fp32ToFp16Mover<Fp16Rounding::TiesToEven>>(program, shape, src, dst);
  case SourceKind::Fp32ToFp16TA:
    return packLoop<Fp32ToFp16Mover<Fp16Rounding::TiesAwayFromZero>>(program, shape, src, dst);
  }
  return 0;
}

void dlaformat::nvdla::detail::unpackSurface(const SurfaceProgram &program,
                                               const StreamShape &shape, int64_t elementBytes,
                                               const char *src, char *dst) {
  if (elementBytes == 1)
    unpackLoop<1>(program, shape, src, dst);
  else
    unpackLoop<2>(program, shape, src, dst);
}
