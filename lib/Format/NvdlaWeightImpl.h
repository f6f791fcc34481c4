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
#include <string>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla::detail {

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

/// What a format's plan decides about the stream beyond the common rules.
struct WeightGeometry {
  /// Elements of one kernel in one surface.
  int64_t kernelElements = 0;
  /// Surfaces: one, or one per deconvolution set (y outer, x inner).
  int64_t setsY = 1;
  int64_t setsX = 1;
  /// End-of-surface padding; 0 means a whole weight-buffer entry.
  int64_t endAlignment = 0;
};

/// Everything format-specific about a weight format; one instance per
/// format, defined in the format's file and registered by its row in
/// weightFormatTable() (NvdlaWeightFormats.cpp).
struct WeightFormatOps {
  /// Whether pixelChannels and post-extension apply (image input only).
  bool imageParams = false;
  /// Whether the stride shapes the stream; a format that takes none rejects
  /// a stride other than 1.
  bool usesStride = false;
  /// Empty for invertible formats; otherwise why no element has a byte
  /// offset (messages: "<Format> weights have no per-element byte offset: ...").
  std::string_view notInvertible;
  /// The format's own shape-independent rules (validateWeightOptions); null
  /// when it has none.
  Status (*checkOptions)(const WeightParams &params) = nullptr;
  /// Checks what the common rules (shape, hardware, options) leave and
  /// computes the geometry; may set kernelsPerGroup, postExtensionFactor and
  /// the format's own fields of `impl`.
  Expected<WeightGeometry> (*plan)(const WeightParams &params, WeightLayoutImpl &impl);
  /// The copy program of one surface; null when the format has none
  /// (Winograd computes its values).
  SurfaceProgram (*program)(const WeightLayoutImpl &impl, const WeightSurface &surface) = nullptr;
  /// A dedicated packer of the data bytes of every surface; null: the
  /// programs, through the generic packSurface.
  void (*pack)(const WeightLayoutImpl &impl, SourceKind kind, const char *src, char *dst,
               Fp16Rounding rounding) = nullptr;
};

inline const WeightFormatOps &getWeightFormatOps(WeightFormat format) {
  return *weightFormatTable()[static_cast<size_t>(format)].ops;
}

/// "direct int8 weights 4x3x3x3 (KCRS)".
std::string describe(const WeightParams &params);
/// "storage size of <describe> overflows a 64-bit integer".
Error overflow(const WeightParams &params);
/// "<Format> weights <what>: <notInvertible>" for a format that is not
/// invertible.
std::string notInvertibleMessage(const WeightLayoutImpl &impl, std::string_view what);

/// The ops of each format, defined in its file and registered by its row.
extern const WeightFormatOps kDirectWeightOps;        // NvdlaWeightDirect.cpp
extern const WeightFormatOps kImageWeightOps;         // NvdlaWeightImage.cpp
extern const WeightFormatOps kWinogradWeightOps;      // NvdlaWeightWinograd.cpp
extern const WeightFormatOps kDeconvolutionWeightOps; // NvdlaWeightDeconv.cpp

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

/// Kernel groups [g0, g1) of the direct stream (one thread): `out` receives
/// the bytes of group g0 onwards, as packDirectStream would write them from
/// g0's offset. For packers that take the stream a piece at a time.
void packDirectGroupRange(const WeightLayoutImpl &impl, SourceKind kind, const char *src,
                          int64_t g0, int64_t g1, char *out);

/// True when pack3x3BlockAvx512 can take channel blocks of `cn` elements of
/// `elementBytes` (1 or 2, cn * elementBytes a multiple of 64) on this CPU.
bool canPack3x3BlockAvx512(int64_t elementBytes, int64_t cn);
/// One channel block of a 3x3 direct stream (NvdlaWeightDirect3x3.cpp): for
/// kn kernels, kernel k's cn x 9 source elements at src + k * kernelStride,
/// writes out[(rs * kn + k) * cn + c] = source_k[c * 9 + rs]; prefetches
/// `prefetchBytes` of each kernel's next block. `streaming`: non-temporal
/// stores (used when `out` is 64-byte aligned).
void pack3x3BlockAvx512(int64_t elementBytes, const char *src, int64_t kernelStride, int64_t kn,
                        int64_t cn, int64_t prefetchBytes, char *out, bool streaming);

/// The Winograd packer: writes the data bytes of the Winograd stream.
/// `srcBytes` is 1 / 2 (raw int8 / int16 / fp16 source of the precision) or 4
/// (fp32 source, fp16 precision).
void packWinogradStream(const WeightLayoutImpl &impl, const char *src, int64_t srcBytes,
                        char *dst, Fp16Rounding rounding);

} // namespace dlaformat::nvdla::detail

#endif // DLA_LIB_FORMAT_NVDLAWEIGHTIMPL_H
