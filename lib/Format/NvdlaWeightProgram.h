//===- NvdlaWeightProgram.h - Copy programs of NVDLA weight streams -*- C++ -*-===//
//
// Private to the NVDLA weight packers. Every invertible weight format (direct
// convolution, image input with or without post-extension, each set of a
// deconvolution) is the same loop nest over a different "program":
//
//   for each kernel group g (kernelsPerGroup kernels, the last may be short)
//     for each step (a channel cube position, or a post-extension row group)
//       for each kernel k of the group
//         for each run of the step: `count` elements, read from the KCRS
//         source at k * C*R*S + src + i * stride (or `count` zeros)
//
// The steps and runs are computed once when the layout is created; the copy
// loops never decompose an index and make no virtual call.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_FORMAT_NVDLAWEIGHTPROGRAM_H
#define DLA_LIB_FORMAT_NVDLAWEIGHTPROGRAM_H

#include "dla/Format/Fp16.h"

#include <cstdint>
#include <vector>

namespace dlaformat::nvdla::detail {

/// `count` consecutive stream elements. A zero run (src < 0) is padding.
struct Run {
  int64_t src;    ///< element offset within the source kernel (-1: zeros)
  int64_t stride; ///< source element stride between consecutive elements
  int64_t count;
  bool isZero() const { return src < 0; }
};

/// One atom position: per kernel of a group, the runs [runBegin, runEnd).
struct Step {
  int64_t runBegin;
  int64_t runEnd;
  int64_t atomElements;  ///< elements per kernel in this step
  int64_t prefixElements; ///< sum of atomElements of the earlier steps
};

/// The program of one weight surface (the whole stream, or a deconvolution set).
struct SurfaceProgram {
  std::vector<Step> steps;
  std::vector<Run> runs;
  int64_t elementsPerKernel = 0; ///< sum of atomElements over all steps

  void addStep(const std::vector<Run> &stepRuns);
};

/// Appends a run, merging it with the previous one when they are contiguous
/// (two zero runs, or equal strides continuing each other).
void appendRun(std::vector<Run> &runs, Run run);

/// How source elements become storage elements.
enum class SourceKind {
  Raw1,         ///< 1-byte elements, copied
  Raw2,         ///< 2-byte elements, copied
  Fp32ToFp16TE, ///< float source, fp16 storage, ties to even
  Fp32ToFp16TA, ///< float source, fp16 storage, ties away from zero
};

/// Geometry shared by the copy loops.
struct StreamShape {
  int64_t numKernels;
  int64_t kernelsPerGroup;
  int64_t kernelStride; ///< source elements per kernel (C*R*S)
};

/// Writes one surface of `program` (data only, no end padding) to `dst` from
/// `src` (the KCRS source, elements of the kind's source width). Returns the
/// number of bytes written.
int64_t packSurface(const SurfaceProgram &program, const StreamShape &shape, SourceKind kind,
                    const char *src, char *dst);

/// The inverse of packSurface for Raw1 / Raw2: scatters the stream back into
/// the KCRS array `dst`. Zero runs are skipped.
void unpackSurface(const SurfaceProgram &program, const StreamShape &shape,
                   int64_t elementBytes, const char *src, char *dst);

} // namespace dlaformat::nvdla::detail

#endif // DLA_LIB_FORMAT_NVDLAWEIGHTPROGRAM_H
