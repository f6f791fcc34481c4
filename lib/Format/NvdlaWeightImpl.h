//===- NvdlaWeightImpl.h - Private state of NVDLA weight layouts -*- C++ -*-===//
//
// Private to lib/Format/NvdlaWeight*.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_FORMAT_NVDLAWEIGHTIMPL_H
#define DLA_LIB_FORMAT_NVDLAWEIGHTIMPL_H

#include "NvdlaWeightProgram.h"

#include "dla/Format/NvdlaWeight.h"

#include <mutex>
#include <vector>

namespace dla::format::nvdla::detail {

struct WeightLayoutImpl {
  WeightParams params;
  int64_t elementBytes = 0;
  int64_t kernelsPerGroup = 0;
  int64_t postExtensionFactor = 1;
  int64_t numLogicalElements = 0;
  std::vector<WeightSurface> surfaces;
  int64_t storageBytes = 0;

  // Image input: C' = S * pixelChannels.
  int64_t imageChannels = 0;
  // Winograd: channels after zero padding (Cp) and after extension (C').
  int64_t winogradPaddedChannels = 0;
  int64_t winogradChannels = 0;

private:
  mutable std::once_flag programsOnce;
  mutable std::vector<SurfaceProgram> programs;
public:

  /// One copy program per surface (none for Winograd). Built on first use:
  /// a layout created only to answer size queries never pays for it.
  const std::vector<SurfaceProgram> &getPrograms() const;

  static NvdlaWeightLayout wrap(std::shared_ptr<const WeightLayoutImpl> impl) {
    return NvdlaWeightLayout(std::move(impl));
  }
  static const WeightLayoutImpl &get(const NvdlaWeightLayout &layout) { return *layout.impl; }
};

// Program builders (one per format family).

/// Direct convolution of a K x C x R x S kernel.
SurfaceProgram buildDirectProgram(int64_t C, int64_t R, int64_t S, int64_t atomicC);
/// Image input: pad C to `pixelChannels`, pre-extend, then the direct layout
/// (factor 1) or post-extension row groups (factor 2 or 4).
SurfaceProgram buildImageProgram(int64_t C, int64_t R, int64_t S, int64_t pixelChannels,
                                 int64_t atomicC, int64_t factor);
/// Deconvolution set (y, x) for strides (sy, sx).
SurfaceProgram buildDeconvolutionProgram(int64_t C, int64_t R, int64_t S, int64_t sy,
                                         int64_t sx, int64_t y, int64_t x, int64_t atomicC);

/// The fast direct-convolution packer: writes the data bytes of the direct
/// stream of `src` (KCRS) to `dst`.
void packDirectStream(const WeightLayoutImpl &impl, SourceKind kind, const char *src,
                      char *dst);

/// The Winograd packer: writes the data bytes of the Winograd stream.
/// `srcBytes` is 1 / 2 (raw int8 / int16 / fp16 source of the precision) or 4
/// (fp32 source, fp16 precision).
void packWinogradStream(const WeightLayoutImpl &impl, const char *src, int64_t srcBytes,
                        char *dst, Fp16Rounding rounding);

} // namespace dla::format::nvdla::detail

#endif // DLA_LIB_FORMAT_NVDLAWEIGHTIMPL_H
