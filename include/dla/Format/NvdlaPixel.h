//===- NvdlaPixel.h - NVDLA pixel (image input) formats ---------*- C++ -*-===//
//
// The "Pixel formats and valid setting" table of the NVDLA in-memory format
// document as data, and the pitch-linear layout of an image in one of them.
//
// Component naming. A format name lists its components from the most to the
// least significant bits of a little-endian word: T_A8B8G8R8 is the 32-bit
// word A[31:24] B[23:16] G[15:8] R[7:0], so memory holds R, G, B, A; in
// T_A2B10G10R10 R is bits 9:0 of the word. The second plane of a semi-planar
// format is one such word per pixel: T_Y8___U8V8_N444 holds V at the lower
// address and U above it. This is NVIDIA's convention (NvKms maps
// Y8___V8U8_N420 to DRM NV12, whose Cb:Cr plane has Cb first) and the one
// the NVDLA image DMA decodes: its register decoder treats A8B8G8R8,
// A16B16G16R16, A2B10G10R10 and Y___V8U8 as the unswizzled order and
// swizzles every other order to it.
//
// Logical tensor: NCHW with N = 1 (the image DMA has no batches) and C the
// format's channel count. Channels are numbered R, G, B, A|X (or Y, U, V,
// A) for four-channel formats, Y, U, V for semi-planar formats, R for
// one-channel formats: the channel order the image DMA hands to the
// convolution, so padding the weights from 3 to 4 channels pads channel 3.
// The X channel of the X formats is stored like alpha (pack stays
// invertible); the hardware ignores it.
//
// Logical element: 1 byte for 8-bit components, 2 bytes for every other
// component (10/12/16-bit integers, fp16). Components of T_R10, T_R12 and
// T_Y10/T_Y12 formats sit in 16-bit containers that the hardware reads
// whole (exactly like the 16-bit formats); the layout copies the container.
// The bit-packed formats (A2B10G10R10 and friends) put each component's low
// `bits` bits at its bit offset; higher bits of the logical element are
// dropped by pack and read back as zero.
//
// Geometry (bpp = bytes per pixel of the plane, x = x offset in pixels):
//   line stride (plane 0)  default roundup((W + x) * bpp0, 32)
//   line stride (UV plane) default roundup((W + x) * bpp1, 32)
//   UV plane offset        default roundup(H * line stride0, 32) from the
//                          start of plane 0 (the start-address alignment)
//   pixel (h, w) of plane p at plane_start + h * stride_p + (x + w) * bpp_p
// x shifts the pixels of both planes; the hardware's plane-1 address is the
// 32-byte aligned atom holding pixel x (x mod 32/bpp1 pixels into it). Every
// byte outside the pixels is zero after pack.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAPIXEL_H
#define DLA_FORMAT_NVDLAPIXEL_H

#include "dla/Format/BoundLayout.h"
#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPrecision.h"
#include "dla/Format/StridedView.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla {

/// The 36 rows of the table, in table order; the value is the hardware's
/// PIXEL_FORMAT register encoding (CDMA_D_DATAIN_FORMAT_0).
enum class PixelFormat : uint8_t {
  T_R8 = 0,
  T_R10,
  T_R12,
  T_R16,
  T_R16_I,
  T_R16_F,
  T_A16B16G16R16,
  T_X16B16G16R16,
  T_A16B16G16R16_F,
  T_A16Y16U16V16,
  T_V16U16Y16A16,
  T_A16Y16U16V16_F,
  T_A8B8G8R8,
  T_A8R8G8B8,
  T_B8G8R8A8,
  T_R8G8B8A8,
  T_X8B8G8R8,
  T_X8R8G8B8,
  T_B8G8R8X8,
  T_R8G8B8X8,
  T_A2B10G10R10,
  T_A2R10G10B10,
  T_B10G10R10A2,
  T_R10G10B10A2,
  T_A2Y10U10V10,
  T_V10U10Y10A2,
  T_A8Y8U8V8,
  T_V8U8Y8A8,
  T_Y8___U8V8_N444,
  T_Y8___V8U8_N444,
  T_Y10___U10V10_N444,
  T_Y10___V10U10_N444,
  T_Y12___U12V12_N444,
  T_Y12___V12U12_N444,
  T_Y16___U16V16_N444,
  T_Y16___V16U16_N444,
  Last = T_Y16___V16U16_N444, ///< the last value: EnumTable.h checks each table's size
};

inline constexpr int kNumPixelFormats = 36;

/// How the hardware interprets a component's bits.
enum class PixelValueType { Unsigned, Signed, Float };

/// One component of a pixel.
struct PixelComponent {
  /// 'R', 'G', 'B', 'A', 'X', 'Y', 'U' or 'V'.
  char letter;
  /// Significant bits (2, 8, 10, 12, 16).
  int8_t bits;
  /// Bits the hardware reads for the component: 8 or 16, or `bits` for the
  /// bit-packed formats.
  int8_t containerBits;
  /// 0, or 1 for the UV plane of semi-planar formats.
  int8_t plane;
  /// Least significant bit within the plane's little-endian pixel word.
  int8_t bitOffset;
  /// Position in memory within the plane's pixel: 0 = lowest address.
  int8_t memoryOrder;
  /// Logical channel (index along C).
  int8_t channel;
};

struct PixelFormatInfo {
  PixelFormat format;
  /// Exact spelling of the table, e.g. "T_Y8___U8V8_N444".
  std::string_view name;
  int8_t numPlanes;
  /// "Valid channel size setting": 1, 3 or 4.
  int8_t numChannels;
  /// "Valid input precision setting". T_R16_F is fp16 here although the
  /// document's table lists int16 (erratum 5): its name marks it float, the
  /// image DMA decodes it with the fp16 pixel precision like
  /// T_A16B16G16R16_F, and NVIDIA's compiler classifies it IEEE float.
  Precision inputPrecision;
  PixelValueType valueType;
  /// "Valid X offset range" is 0 .. maxXOffset.
  int8_t maxXOffset;
  /// Bytes per pixel of plane 0 and plane 1 (0 when absent).
  std::array<int8_t, 2> bytesPerPixel;
  /// Components are bit fields of a 32-bit word rather than whole bytes.
  bool bitPacked;
  int8_t numComponents;
  /// In channel order (component i has channel i).
  std::array<PixelComponent, 4> components;
};

/// The table; entry i describes PixelFormat(i). It is also the name table
/// (enumName, parseEnum: the exact spelling, "T_A8B8G8R8").
const std::array<PixelFormatInfo, kNumPixelFormats> &pixelFormatTable();
inline const auto &enumEntries(PixelFormat) { return pixelFormatTable(); }
const PixelFormatInfo &getPixelFormatInfo(PixelFormat format);
/// Bytes of one logical element: 1 for 8-bit components, 2 otherwise.
int64_t getPixelElementBytes(PixelFormat format);
bool isSemiPlanar(PixelFormat format);

struct PixelConfig {
  PixelFormat format = PixelFormat::T_R8;
  /// First pixel of each line, in pixels from the line start.
  int64_t xOffset = 0;
  /// Plane-0 line stride in bytes; the default when absent.
  std::optional<int64_t> lineStride;
  /// Semi-planar only: UV-plane line stride in bytes.
  std::optional<int64_t> uvLineStride;
  /// Semi-planar only: byte offset of the UV plane from plane 0's start.
  std::optional<int64_t> uvPlaneOffset;
  /// When given, must equal the format's valid input precision.
  std::optional<Precision> inputPrecision;
  /// The configuration whose memory atom the line stride is aligned to.
  HardwareKind hardware = HardwareKind::NvFull;
};

class PixelBoundLayout final : public BoundLayout {
public:
  /// `shape` is NCHW with N = 1 and C = the format's channel count.
  static Expected<std::unique_ptr<PixelBoundLayout>> bind(const PixelConfig &config,
                                                          const std::vector<int64_t> &shape);
  static Status validate(const PixelConfig &config, const std::vector<int64_t> &shape);

  const PixelConfig &getConfig() const { return config; }
  const PixelFormatInfo &getInfo() const { return *info; }
  int64_t getLineStride(int plane = 0) const { return lineStride[plane]; }
  /// Byte offset of the plane's start (0 for plane 0).
  int64_t getPlaneOffset(int plane) const { return planeOffset[plane]; }

  int64_t getStorageBytes() const override { return storageBytes; }
  /// For bit-packed formats: the byte holding the component's lowest bit.
  Expected<int64_t> getByteOffset(const std::vector<int64_t> &index) const override;
  /// For bit-packed formats a byte shared by two components belongs to the
  /// one holding its lowest bit; byteInElement counts bytes of that
  /// component's value (bit 8k..8k+7 of the value is byte k).
  Expected<StorageLocation> locate(int64_t byteOffset) const override;
  /// A view for single-plane, byte-aligned formats whose components lie in
  /// channel order (R8, R16..., A8B8G8R8, A16B16G16R16, X8B8G8R8, ...).
  std::optional<StridedView> getStridedView() const override { return view; }
  LogicalOrder getLogicalOrder() const override { return LogicalOrder::NCHW; }
  /// The pitch-linear row of the alignment table.
  int64_t getStorageAlignment() const override;
  /// The strided view when there is one; otherwise one view per component
  /// at its plane's offset (semi-planar: Y, then U and V), or, for
  /// bit-packed formats, the 32-bit pixel words with their bit fields.
  StorageDescription describeStorage() const override;
  void pack(const char *logical, char *storage) const override;
  void unpack(const char *storage, char *logical) const override;

private:
  PixelBoundLayout(const PixelConfig &config, std::vector<int64_t> shape, int64_t elementBytes,
                   int64_t numElements)
      : BoundLayout(std::move(shape), elementBytes, numElements), config(config) {}
  template <bool Pack> void copy(const char *src, char *dst) const;

  PixelConfig config;
  const PixelFormatInfo *info = nullptr;
  std::array<int64_t, 2> lineStride = {0, 0};
  std::array<int64_t, 2> planeOffset = {0, 0};
  int64_t storageBytes = 0;
  std::optional<StridedView> view;
};

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAPIXEL_H
