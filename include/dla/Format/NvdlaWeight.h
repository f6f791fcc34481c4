//===- NvdlaWeight.h - NVDLA convolution weight formats ---------*- C++ -*-===//
//
// Packs logical KCRS weights (K kernels, C channels, R rows, S columns,
// row-major) into the byte image NVDLA's convolution core reads, and back.
// The rules are the "Weight Format" section of the NVDLA in-memory format
// document, with what it leaves open settled by NVIDIA's compiler (nvdla/sw):
//
// Direct convolution. Kernel groups of getKernelsPerGroup() kernels (the last
//   may be short); in a group, channel blocks of atomic-C channels (full
//   blocks, then one short block of C mod atomic-C); in a block, r, then s,
//   then the kernels of the group, then the channels of the block. No gaps;
//   the stream is zero-padded at the end to a whole weight-buffer entry.
//
// Image input. C is zero-padded to the pixel format's channel count P, then
//   pre-extended: K x P x R x S becomes K x (S*P) x R x 1 with channel
//   c' = s*P + c; then the direct layout. Optional channel post-extension by
//   2 or 4 (image input only) replaces the channel blocks by row groups:
//   in a kernel group, for each group of `factor` kernel rows (the last group
//   holds R mod factor rows, not zero-filled), for each kernel, the rows of the
//   group one after the other, each S*P channels.
//
// Winograd. Stride x must equal stride y; C is zero-padded to 32 bytes
//   (32 int8 / 16 int16 or fp16 channels) to Cp; for stride > 1 the kernel is
//   channel-extended to ceil(R/stride) x ceil(S/stride) with channel
//   c' = (dy*stride + dx)*Cp + c; the result must be 3x3. Each 3x3 plane g
//   becomes G g G^T (4x4), computed in fp32 without a scaling factor and
//   converted once to the precision. Layout: groups of 32 (int8) or 16
//   kernels, for each block of 4 channels, for each kernel, a 4x4x4 cube in
//   r, s, c order (c fastest). Zero-padded at the end to 128 bytes. Not
//   invertible.
//
// Deconvolution. stride_x * stride_y sets, y outer and x inner; set (y, x) is
//   K x C x ceil(R/sy) x ceil(S/sx) with set[k,c,r,s] = W[k,c,y+r*sy,x+s*sx]
//   (zero out of range), laid out as direct convolution with both R and S
//   scanned in reverse. Each set is a weight surface of its own: padded at the
//   end like a direct stream, and starting at a 256-byte aligned offset.
//
// Every format is a list of WeightSurface (one, or one per deconvolution
// set); sparse compression (NvdlaWeightCompression.h) works surface by
// surface and kernel group by kernel group.
//
// Alignments (256-byte start, 128-byte data size) come from NvdlaAlignment.h;
// atomic-C / atomic-K / entry width from NvdlaHardware.h.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAWEIGHT_H
#define DLA_FORMAT_NVDLAWEIGHT_H

#include "dla/Format/BoundLayout.h"
#include "dla/Format/EnumTable.h"
#include "dla/Format/Expected.h"
#include "dla/Format/Fp16.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPrecision.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla {

enum class WeightFormat { Direct, Image, Winograd, Deconvolution, Last = Deconvolution };
inline constexpr size_t kNumWeightFormats = 4;

namespace detail {
struct WeightFormatOps;
}

/// The registration row of a weight format (lib/Format/NvdlaWeightFormats.cpp,
/// indexed by WeightFormat): its keyword (`#dla.weight<deconv, ...>`), how
/// messages name it ("deconvolution"), and its rules, geometry and programs
/// (detail::WeightFormatOps, defined in the format's own file). A new weight
/// format is an enumerator, a row and that file.
struct WeightFormatInfo {
  WeightFormat value;
  std::string_view name;
  std::string_view prose;
  const detail::WeightFormatOps *ops;
};
const std::array<WeightFormatInfo, kNumWeightFormats> &weightFormatTable();
inline const auto &enumEntries(WeightFormat) { return weightFormatTable(); }

/// Channel post-extension request. Only image-input weights support Two and
/// Four; Auto applies NVIDIA's selection rule (selectPostExtensionFactor) and
/// is None for every other format.
enum class PostExtension { None, Auto, Two, Four, Last = Four };

inline constexpr EnumEntry<PostExtension> kPostExtensionNames[] = {
    {PostExtension::None, "none"},
    {PostExtension::Auto, "auto"},
    {PostExtension::Two, "2"},
    {PostExtension::Four, "4"}};
constexpr const auto &enumEntries(PostExtension) { return kPostExtensionNames; }
static_assert(isInDeclarationOrder(kPostExtensionNames, &EnumEntry<PostExtension>::value));

/// The logical weight shape, KCRS.
struct WeightShape {
  int64_t kernels = 0;  ///< K, output channels
  int64_t channels = 0; ///< C, input channels
  int64_t height = 0;   ///< R, kernel rows
  int64_t width = 0;    ///< S, kernel columns
  int64_t getNumElements() const { return kernels * channels * height * width; }
};

struct WeightParams {
  WeightFormat format = WeightFormat::Direct;
  Precision precision = Precision::Fp16;
  HardwareConfig hardware = getDefaultHardwareConfig();
  WeightShape shape;
  /// Convolution stride (image input: the automatic post-extension choice;
  /// Winograd: the channel extension) or deconvolution stride (the sets).
  /// Ignored by direct convolution.
  int64_t strideX = 1;
  int64_t strideY = 1;
  /// Image input only: the channel count of the pixel format (e.g. 4 for
  /// T_A8B8G8R8, 3 for the N444 formats, 1 for T_R8); C is zero-padded to it.
  int64_t pixelChannels = 0;
  PostExtension postExtension = PostExtension::None;
  /// Winograd int8 / int16 only: the stored taps are round(T / scale),
  /// T = G g G^T of the source values in fp32, the quotient in double,
  /// rounded half away from zero once and saturated (the project's choice:
  /// NVIDIA's compiler has no integer Winograd). 0: no scale (round(T)).
  double scale = 0;
};

/// The rules on a format's parameters that do not depend on the shape:
/// positive strides (and none for a format that takes no stride), pixel
/// channels and post-extension for image input only, the format's own rules
/// (Winograd: equal strides; image input: a channel count), a
/// `rounding` other than kDefaultWeightRounding for fp16 only, and a `scale` (positive, finite)
/// for int8 / int16 Winograd weights only. NvdlaWeightLayout::create runs them
/// too; `#dla.weight`'s verifier runs only these.
Status validateWeightOptions(const WeightParams &params,
                             Fp16Rounding rounding = kDefaultWeightRounding);

/// Why integer weights `q` (KCRS, `shape`) would not be stored exactly as
/// Winograd taps without a scale, or empty: every channel-extended 3x3
/// plane's G q G^T must be integral and within `precision`'s range (else
/// round(G q G^T) rounds the weights a second time or saturates). Computed
/// exactly, as (2G) q (2G)^T / 4.
std::string whyWinogradTapsInexact(const int64_t *q, const WeightShape &shape, int64_t stride,
                                   Precision precision);

/// NVIDIA's choice of the post-extension factor for image input, with
/// C' = kernelWidth * pixelChannels: 1 (none) when strideX > kernelWidth;
/// else 4 when pixelChannels*strideX*3 + C' <= atomic-C and C' <= atomic-C/4;
/// else 2 when pixelChannels*strideX + C' <= atomic-C and C' <= atomic-C/2;
/// else 1.
int64_t selectPostExtensionFactor(const HardwareConfig &hardware, int64_t pixelChannels,
                                  int64_t kernelWidth, int64_t strideX);

/// One weight surface of the storage image: the whole stream, or one
/// deconvolution set. Its kernel groups are the unit of sparse compression.
struct WeightSurface {
  int64_t offset = 0;      ///< byte offset in the storage image
  int64_t dataBytes = 0;   ///< bytes of mapped weights (no end padding)
  int64_t paddedBytes = 0; ///< dataBytes after the end-of-stream zero padding
  int64_t numKernels = 0;
  int64_t kernelsPerGroup = 0;
  int64_t bytesPerKernel = 0; ///< bytes of one kernel in this surface
  int64_t setY = 0;           ///< deconvolution set; 0 otherwise
  int64_t setX = 0;

  int64_t getNumGroups() const {
    return (numKernels + kernelsPerGroup - 1) / kernelsPerGroup;
  }
  int64_t getGroupKernels(int64_t group) const {
    int64_t left = numKernels - group * kernelsPerGroup;
    return left < kernelsPerGroup ? left : kernelsPerGroup;
  }
  int64_t getGroupBytes(int64_t group) const { return getGroupKernels(group) * bytesPerKernel; }
  /// Byte offset of a group relative to the surface (earlier groups are full).
  int64_t getGroupOffset(int64_t group) const {
    return group * kernelsPerGroup * bytesPerKernel;
  }
};

namespace detail {
struct WeightLayoutImpl;
}

/// A weight format bound to its parameters. Cheap to copy (shared, immutable).
class NvdlaWeightLayout {
public:
  /// Validates `params`; every illegal combination is reported with a message.
  static Expected<NvdlaWeightLayout> create(const WeightParams &params);

  const WeightParams &getParams() const;
  /// Storage bytes per element: 1 for int8, 2 for int16 / fp16.
  int64_t getElementBytes() const;
  /// Kernels per group (Winograd: 32 for int8, 16 otherwise).
  int64_t getKernelsPerGroup() const;
  /// The resolved post-extension factor: 1 (none), 2 or 4.
  int64_t getPostExtensionFactor() const;
  /// K*C*R*S.
  int64_t getNumLogicalElements() const;
  /// True for every format but Winograd.
  bool isInvertible() const;

  const std::vector<WeightSurface> &getSurfaces() const;
  /// Bytes of the whole uncompressed storage image, padding included.
  int64_t getStorageBytes() const;
  /// Offset of deconvolution set (y, x) in the storage image.
  Expected<int64_t> getDeconvolutionSetOffset(int64_t y, int64_t x) const;

  /// Packs KCRS `logical` data of getElementBytes() per element (int8 /
  /// int16 two's complement or fp16 bits, host byte order). `rounding` is
  /// used by Winograd fp16 only (the one fp32 -> fp16 conversion); Winograd
  /// int8 / int16 round half away from zero and saturate. Every byte of
  /// `storage` is written.
  Status pack(const void *logical, int64_t logicalBytes, void *storage, int64_t storageBytes,
              Fp16Rounding rounding = kDefaultWeightRounding) const;
  /// fp16 weights from fp32 KCRS data, converted on the fly with `rounding`
  /// (Winograd: transformed in fp32 first, then converted once); by default
  /// as NVIDIA's compiler converts f32 weights in every format.
  Status packFp32(const float *logical, int64_t numElements, void *storage,
                  int64_t storageBytes, Fp16Rounding rounding = kDefaultWeightRounding) const;
  /// The exact inverse of pack for every invertible format.
  Status unpack(const void *storage, int64_t storageBytes, void *logical,
                int64_t logicalBytes) const;

  /// Byte offset of logical element (k, c, r, s) (invertible formats).
  Expected<int64_t> getByteOffset(int64_t k, int64_t c, int64_t r, int64_t s) const;
  /// Which logical element a storage byte holds (invertible formats); index
  /// is {k, c, r, s}.
  Expected<StorageLocation> locate(int64_t byteOffset) const;

private:
  explicit NvdlaWeightLayout(std::shared_ptr<const detail::WeightLayoutImpl> impl)
      : impl(std::move(impl)) {}
  std::shared_ptr<const detail::WeightLayoutImpl> impl;
  friend struct detail::WeightLayoutImpl;
};

/// The layout as a BoundLayout over shape {K, C, R, S} (invertible formats;
/// the storage is the uncompressed image). A direct-convolution layout is
/// also a strided view when no kernel group and no channel block is partial
/// (or there is only one of them).
Expected<std::unique_ptr<BoundLayout>> createNvdlaWeightBoundLayout(const WeightParams &params);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAWEIGHT_H
