//===- NvdlaPixel.cpp - NVDLA pixel (image input) formats ----------------===//

#include "dla/Format/NvdlaPixel.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/StridedCopy.h"

#include <cstring>
#include <string>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

using F = PixelFormat;
using P = Precision;
using V = PixelValueType;

/// A component: letter, significant bits, container bits, plane, bit offset
/// in the plane's word, memory order, channel.
constexpr PixelComponent comp(char letter, int bits, int container, int plane, int bitOffset,
                              int memoryOrder, int channel) {
  return {letter,
          static_cast<int8_t>(bits),
          static_cast<int8_t>(container),
          static_cast<int8_t>(plane),
          static_cast<int8_t>(bitOffset),
          static_cast<int8_t>(memoryOrder),
          static_cast<int8_t>(channel)};
}

constexpr PixelComponent kNone = {0, 0, 0, 0, 0, 0, 0};

/// Byte-aligned component of `bits` significant bits in a `container`-bit
/// slot `slot` (0 = lowest address) of the plane word.
constexpr PixelComponent slot(char letter, int bits, int container, int plane, int slotIndex,
                              int channel) {
  return comp(letter, bits, container, plane, slotIndex * container, slotIndex, channel);
}

/// Bit field of a 32-bit word; memory order is the rank of the bit offset.
constexpr PixelComponent field(char letter, int bits, int bitOffset, int memoryOrder, int channel) {
  return comp(letter, bits, bits, 0, bitOffset, memoryOrder, channel);
}

constexpr PixelFormatInfo row(F f, std::string_view name, int planes, int channels, P precision,
                              V type, int maxX, int bpp0, int bpp1, bool packed,
                              std::array<PixelComponent, 4> c) {
  int n = 0;
  for (const PixelComponent &x : c)
    n += x.letter != 0;
  return {f,
          name,
          static_cast<int8_t>(planes),
          static_cast<int8_t>(channels),
          precision,
          type,
          static_cast<int8_t>(maxX),
          {static_cast<int8_t>(bpp0), static_cast<int8_t>(bpp1)},
          packed,
          static_cast<int8_t>(n),
          c};
}

/// Four 8-bit components: `slots` gives, in channel order, each channel's
/// byte within the 32-bit word.
constexpr std::array<PixelComponent, 4> bytes4(const char *letters, int s0, int s1, int s2,
                                               int s3) {
  return {slot(letters[0], 8, 8, 0, s0, 0), slot(letters[1], 8, 8, 0, s1, 1),
          slot(letters[2], 8, 8, 0, s2, 2), slot(letters[3], 8, 8, 0, s3, 3)};
}
/// Four 16-bit components of a 64-bit word.
constexpr std::array<PixelComponent, 4> halves4(const char *letters, int s0, int s1, int s2,
                                                int s3) {
  return {slot(letters[0], 16, 16, 0, s0, 0), slot(letters[1], 16, 16, 0, s1, 1),
          slot(letters[2], 16, 16, 0, s2, 2), slot(letters[3], 16, 16, 0, s3, 3)};
}
/// Three 10-bit fields and a 2-bit alpha field of a 32-bit word, in channel
/// order (R, G, B, A or Y, U, V, A): bit offsets and memory orders.
constexpr std::array<PixelComponent, 4> packed10(const char *letters, int o0, int o1, int o2,
                                                 int o3, int m0, int m1, int m2, int m3) {
  return {field(letters[0], 10, o0, m0, 0), field(letters[1], 10, o1, m1, 1),
          field(letters[2], 10, o2, m2, 2), field(letters[3], 2, o3, m3, 3)};
}
/// Semi-planar: Y in plane 0, U and V in plane 1 (`uSlot` is U's slot).
constexpr std::array<PixelComponent, 4> semi(int bits, int container, int uSlot) {
  return {slot('Y', bits, container, 0, 0, 0), slot('U', bits, container, 1, uSlot, 1),
          slot('V', bits, container, 1, 1 - uSlot, 2), kNone};
}
constexpr std::array<PixelComponent, 4> single(int bits, int container) {
  return {slot('R', bits, container, 0, 0, 0), kNone, kNone, kNone};
}

// The table of the document, row by row. Columns: format, name, planes,
// channels, valid input precision, value type, max x offset, bytes per pixel
// of plane 0 and 1, bit-packed, components in channel order.
constexpr std::array<PixelFormatInfo, kNumPixelFormats> kTable = {{
    row(F::T_R8, "T_R8", 1, 1, P::Int8, V::Unsigned, 31, 1, 0, false, single(8, 8)),
    row(F::T_R10, "T_R10", 1, 1, P::Int16, V::Unsigned, 15, 2, 0, false, single(10, 16)),
    row(F::T_R12, "T_R12", 1, 1, P::Int16, V::Unsigned, 15, 2, 0, false, single(12, 16)),
    row(F::T_R16, "T_R16", 1, 1, P::Int16, V::Unsigned, 15, 2, 0, false, single(16, 16)),
    row(F::T_R16_I, "T_R16_I", 1, 1, P::Int16, V::Signed, 15, 2, 0, false, single(16, 16)),
    // Erratum 5: the document lists int16; fp16 is the consistent meaning.
    row(F::T_R16_F, "T_R16_F", 1, 1, P::Fp16, V::Float, 15, 2, 0, false, single(16, 16)),
    // 64-bit words, components named from bit 63 down.
    row(F::T_A16B16G16R16, "T_A16B16G16R16", 1, 4, P::Int16, V::Unsigned, 3, 8, 0, false,
        halves4("RGBA", 0, 1, 2, 3)),
    row(F::T_X16B16G16R16, "T_X16B16G16R16", 1, 4, P::Int16, V::Unsigned, 3, 8, 0, false,
        halves4("RGBX", 0, 1, 2, 3)),
    row(F::T_A16B16G16R16_F, "T_A16B16G16R16_F", 1, 4, P::Fp16, V::Float, 3, 8, 0, false,
        halves4("RGBA", 0, 1, 2, 3)),
    row(F::T_A16Y16U16V16, "T_A16Y16U16V16", 1, 4, P::Int16, V::Unsigned, 3, 8, 0, false,
        halves4("YUVA", 2, 1, 0, 3)),
    row(F::T_V16U16Y16A16, "T_V16U16Y16A16", 1, 4, P::Int16, V::Unsigned, 3, 8, 0, false,
        halves4("YUVA", 1, 2, 3, 0)),
    row(F::T_A16Y16U16V16_F, "T_A16Y16U16V16_F", 1, 4, P::Fp16, V::Float, 3, 8, 0, false,
        halves4("YUVA", 2, 1, 0, 3)),
    // 32-bit words of 8-bit components.
    row(F::T_A8B8G8R8, "T_A8B8G8R8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBA", 0, 1, 2, 3)),
    row(F::T_A8R8G8B8, "T_A8R8G8B8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBA", 2, 1, 0, 3)),
    row(F::T_B8G8R8A8, "T_B8G8R8A8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBA", 1, 2, 3, 0)),
    row(F::T_R8G8B8A8, "T_R8G8B8A8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBA", 3, 2, 1, 0)),
    row(F::T_X8B8G8R8, "T_X8B8G8R8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBX", 0, 1, 2, 3)),
    row(F::T_X8R8G8B8, "T_X8R8G8B8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBX", 2, 1, 0, 3)),
    row(F::T_B8G8R8X8, "T_B8G8R8X8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBX", 1, 2, 3, 0)),
    row(F::T_R8G8B8X8, "T_R8G8B8X8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("RGBX", 3, 2, 1, 0)),
    // 32-bit words of 10-bit fields and a 2-bit alpha.
    row(F::T_A2B10G10R10, "T_A2B10G10R10", 1, 4, P::Int16, V::Unsigned, 7, 4, 0, true,
        packed10("RGBA", 0, 10, 20, 30, 0, 1, 2, 3)),
    row(F::T_A2R10G10B10, "T_A2R10G10B10", 1, 4, P::Int16, V::Unsigned, 7, 4, 0, true,
        packed10("RGBA", 20, 10, 0, 30, 2, 1, 0, 3)),
    row(F::T_B10G10R10A2, "T_B10G10R10A2", 1, 4, P::Int16, V::Unsigned, 7, 4, 0, true,
        packed10("RGBA", 2, 12, 22, 0, 1, 2, 3, 0)),
    row(F::T_R10G10B10A2, "T_R10G10B10A2", 1, 4, P::Int16, V::Unsigned, 7, 4, 0, true,
        packed10("RGBA", 22, 12, 2, 0, 3, 2, 1, 0)),
    row(F::T_A2Y10U10V10, "T_A2Y10U10V10", 1, 4, P::Int16, V::Unsigned, 7, 4, 0, true,
        packed10("YUVA", 20, 10, 0, 30, 2, 1, 0, 3)),
    row(F::T_V10U10Y10A2, "T_V10U10Y10A2", 1, 4, P::Int16, V::Unsigned, 7, 4, 0, true,
        packed10("YUVA", 2, 12, 22, 0, 1, 2, 3, 0)),
    row(F::T_A8Y8U8V8, "T_A8Y8U8V8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("YUVA", 2, 1, 0, 3)),
    row(F::T_V8U8Y8A8, "T_V8U8Y8A8", 1, 4, P::Int8, V::Unsigned, 7, 4, 0, false,
        bytes4("YUVA", 1, 2, 3, 0)),
    // Semi-planar: a Y plane and a UV plane of two-component words.
    row(F::T_Y8___U8V8_N444, "T_Y8___U8V8_N444", 2, 3, P::Int8, V::Unsigned, 31, 1, 2, false,
        semi(8, 8, 1)),
    row(F::T_Y8___V8U8_N444, "T_Y8___V8U8_N444", 2, 3, P::Int8, V::Unsigned, 31, 1, 2, false,
        semi(8, 8, 0)),
    row(F::T_Y10___U10V10_N444, "T_Y10___U10V10_N444", 2, 3, P::Int16, V::Unsigned, 15, 2, 4, false,
        semi(10, 16, 1)),
    row(F::T_Y10___V10U10_N444, "T_Y10___V10U10_N444", 2, 3, P::Int16, V::Unsigned, 15, 2, 4, false,
        semi(10, 16, 0)),
    row(F::T_Y12___U12V12_N444, "T_Y12___U12V12_N444", 2, 3, P::Int16, V::Unsigned, 15, 2, 4, false,
        semi(12, 16, 1)),
    row(F::T_Y12___V12U12_N444, "T_Y12___V12U12_N444", 2, 3, P::Int16, V::Unsigned, 15, 2, 4, false,
        semi(12, 16, 0)),
    row(F::T_Y16___U16V16_N444, "T_Y16___U16V16_N444", 2, 3, P::Int16, V::Unsigned, 15, 2, 4, false,
        semi(16, 16, 1)),
    row(F::T_Y16___V16U16_N444, "T_Y16___V16U16_N444", 2, 3, P::Int16, V::Unsigned, 15, 2, 4, false,
        semi(16, 16, 0)),
}};
static_assert(isInDeclarationOrder(kTable, &PixelFormatInfo::format));

constexpr bool tableIsInOrder() {
  for (int i = 0; i < kNumPixelFormats; ++i)
    if (static_cast<int>(kTable[i].format) != i)
      return false;
  return true;
}
static_assert(tableIsInOrder(), "pixel table rows must follow the PixelFormat encoding");

std::string str(int64_t v) { return std::to_string(v); }

} // namespace

const std::array<PixelFormatInfo, kNumPixelFormats> &dlaformat::nvdla::pixelFormatTable() {
  return kTable;
}

const PixelFormatInfo &dlaformat::nvdla::getPixelFormatInfo(PixelFormat format) {
  return kTable[static_cast<size_t>(format)];
}

int64_t dlaformat::nvdla::getPixelElementBytes(PixelFormat format) {
  const PixelFormatInfo &i = getPixelFormatInfo(format);
  return i.components[0].bits > 8 ? 2 : 1;
}

bool dlaformat::nvdla::isSemiPlanar(PixelFormat format) {
  return getPixelFormatInfo(format).numPlanes == 2;
}

//===----------------------------------------------------------------------===//
// PixelBoundLayout
//===----------------------------------------------------------------------===//

namespace {
/// An explicit stride or offset: non-negative, aligned, at least `minimum`.
Status checkGiven(const std::string &what, const char *name, int64_t v, int64_t alignment,
                  const char *alignmentWhat, int64_t minimum, const std::string &minimumWhat) {
  if (v < 0)
    return makeError(what + ": " + name + " must not be negative, got " + str(v));
  if (alignment > 1 && v % alignment != 0)
    return makeError(what + ": " + name + " " + str(v) + " bytes is not a multiple of " +
                     str(alignment) + " bytes, the alignment the NVDLA document requires of " +
                     alignmentWhat);
  if (v < minimum)
    return makeError(what + ": " + name + " " + str(v) + " bytes is smaller than " + minimumWhat +
                     " (" + str(minimum) + " bytes)");
  return Status::success();
}
} // namespace

Status PixelBoundLayout::validate(const PixelConfig &config, const std::vector<int64_t> &shape) {
  Expected<std::unique_ptr<PixelBoundLayout>> b = bind(config, shape);
  if (!b)
    return b.takeError();
  return Status::success();
}

Expected<std::unique_ptr<PixelBoundLayout>>
PixelBoundLayout::bind(const PixelConfig &config, const std::vector<int64_t> &shape) {
  const PixelFormatInfo &info = getPixelFormatInfo(config.format);
  const std::string what(info.name);
  if (shape.size() != 4)
    return makeError(what + ": pixel data needs a logical NCHW shape (rank 4), got shape " +
                     formatShape(shape));
  const int64_t eb = getPixelElementBytes(config.format);
  Expected<int64_t> numElements = checkShape(shape, eb);
  if (!numElements)
    return numElements.takeError();
  if (shape[0] != 1)
    return makeError(what + ": pixel data holds one image, N must be 1, got " + str(shape[0]));
  if (shape[1] != info.numChannels)
    return makeError(what + " has " + str(info.numChannels) +
                     " channels, the logical shape has C = " + str(shape[1]));
  if (config.inputPrecision && *config.inputPrecision != info.inputPrecision)
    return makeError(what + " takes " + std::string(enumName(info.inputPrecision)) +
                     " input precision, not " +
                     std::string(enumName(*config.inputPrecision)));
  if (config.xOffset < 0 || config.xOffset > info.maxXOffset)
    return makeError(what + ": x offset " + str(config.xOffset) +
                     " is outside the valid range 0.." + str(info.maxXOffset));
  if (info.numPlanes == 1 && (config.uvLineStride || config.uvPlaneOffset))
    return makeError(what + " has one plane; a UV line stride or UV plane offset applies to "
                            "semi-planar formats only");

  // On nv_small the line-stride requirement is its 8-byte memory atom, and
  // the default stride is rounded to it. (NVIDIA's compiler rounds to 32 on
  // every configuration, a stride nv_small accepts too: `line_stride`.)
  const AlignmentRule rule = getAlignment(
      AlignedData::PitchLinearPixel, getHardwareConfig(config.hardware).caps.memoryAtomBytes);
  const int64_t height = shape[2], width = shape[3];
  std::unique_ptr<PixelBoundLayout> b(new PixelBoundLayout(config, shape, eb, *numElements));
  b->info = &info;

  int64_t planeBytes[2] = {0, 0};
  for (int p = 0; p < info.numPlanes; ++p) {
    const int64_t bpp = info.bytesPerPixel[p];
    const char *strideName = p == 0 ? "line stride" : "UV line stride";
    auto pixels = checkedAdd(width, config.xOffset);
    auto minimum = pixels ? checkedMul(*pixels, bpp) : std::nullopt;
    if (!minimum)
      return makeError(what + ": a line of " + str(width) + " pixels overflows a 64-bit integer");
    std::optional<int64_t> given = p == 0 ? config.lineStride : config.uvLineStride;
    int64_t stride;
    if (given) {
      Status s = checkGiven(
          what, strideName, *given, rule.lineStride, "pitch linear pixel line strides", *minimum,
          str(config.xOffset) + " + " + str(width) + " pixels of " + str(bpp) + " bytes");
      if (!s)
        return s.takeError();
      stride = *given;
    } else {
      auto s = checkedRoundUp(*minimum, rule.lineStride > 1 ? rule.lineStride : 1);
      if (!s)
        return makeError(what + ": " + strideName + " overflows a 64-bit integer");
      stride = *s;
    }
    auto bytes = checkedMul(height, stride);
    if (!bytes)
      return makeError(what + ": a plane of " + str(height) + " lines of " + str(stride) +
                       " bytes overflows a 64-bit integer");
    b->lineStride[p] = stride;
    planeBytes[p] = *bytes;
  }

  int64_t total = planeBytes[0];
  if (info.numPlanes == 2) {
    int64_t offset;
    if (config.uvPlaneOffset) {
      Status s = checkGiven(what, "UV plane offset", *config.uvPlaneOffset, rule.startAddress,
                            "pitch linear pixel start addresses", planeBytes[0],
                            "the Y plane of " + str(height) + " lines of " + str(b->lineStride[0]) +
                                " bytes");
      if (!s)
        return s.takeError();
      offset = *config.uvPlaneOffset;
    } else {
      auto o = checkedRoundUp(planeBytes[0], rule.startAddress > 1 ? rule.startAddress : 1);
      if (!o)
        return makeError(what + ": UV plane offset overflows a 64-bit integer");
      offset = *o;
    }
    auto t = checkedAdd(offset, planeBytes[1]);
    if (!t)
      return makeError(what + ": storage of the two planes overflows a 64-bit integer");
    b->planeOffset[1] = offset;
    total = *t;
  }
  b->storageBytes = total;

  // A strided view when one plane holds whole-byte components in channel
  // order: [N][H][W][C] with C innermost.
  bool inOrder = info.numPlanes == 1 && !info.bitPacked;
  for (int c = 0; c < info.numComponents; ++c)
    inOrder &= info.components[c].memoryOrder == c;
  if (inOrder) {
    StridedView v;
    v.dims.push_back({1, total / eb, 0, 1});
    v.dims.push_back({height, b->lineStride[0] / eb, 2, 1});
    v.dims.push_back({width, info.bytesPerPixel[0] / eb, 3, 1});
    v.dims.push_back({info.numChannels, 1, 1, 1});
    v.offset = config.xOffset * info.bytesPerPixel[0] / eb;
    b->view = v;
  }
  return b;
}

int64_t PixelBoundLayout::getStorageAlignment() const {
  return getAlignment(AlignedData::PitchLinearPixel,
                      getHardwareConfig(config.hardware).caps.memoryAtomBytes)
      .startAddress;
}

StorageDescription PixelBoundLayout::describeStorage() const {
  StorageDescription d = BoundLayout::describeStorage();
  if (!d.views.empty())
    return d;
  const int64_t height = getShape()[2], width = getShape()[3];
  if (info->bitPacked) {
    // One little-endian 32-bit word per pixel (the pack loop's word).
    StorageView v;
    v.name = "words";
    v.elementBytes = 4;
    v.view.dims = {{height, lineStride[0] / 4, 2, 1}, {width, info->bytesPerPixel[0] / 4, 3, 1}};
    v.view.offset = config.xOffset * info->bytesPerPixel[0] / 4;
    v.fieldDim = 1;
    v.signExtend = false;
    for (int i = 0; i < info->numComponents; ++i) {
      const PixelComponent &c = info->components[i];
      v.fields.push_back({c.channel, c.bitOffset, c.bits});
    }
    d.views.push_back(std::move(v));
    return d;
  }
  const int64_t eb = getElementBytes();
  for (int i = 0; i < info->numComponents; ++i) {
    const PixelComponent &c = info->components[i];
    StorageView v;
    v.name = std::string(1, c.letter);
    v.elementBytes = eb;
    v.view.dims = {{height, lineStride[c.plane] / eb, 2, 1},
                   {width, info->bytesPerPixel[c.plane] / eb, 3, 1}};
    v.view.offset = (planeOffset[c.plane] + config.xOffset * info->bytesPerPixel[c.plane] +
                     c.bitOffset / 8) /
                    eb;
    v.logicalBase = {0, c.channel, 0, 0};
    v.signExtend = false;
    d.views.push_back(std::move(v));
  }
  return d;
}

Expected<int64_t> PixelBoundLayout::getByteOffset(const std::vector<int64_t> &index) const {
  Status s = checkIndex(index);
  if (!s)
    return s.takeError();
  const PixelComponent &c = info->components[index[1]];
  return planeOffset[c.plane] + index[2] * lineStride[c.plane] +
         (config.xOffset + index[3]) * info->bytesPerPixel[c.plane] + c.bitOffset / 8;
}

Expected<StorageLocation> PixelBoundLayout::locate(int64_t byteOffset) const {
  Status s = checkByteOffset(byteOffset);
  if (!s)
    return s.takeError();
  StorageLocation loc;
  loc.isPadding = true;
  const int plane = info->numPlanes == 2 && byteOffset >= planeOffset[1] ? 1 : 0;
  const int64_t height = getShape()[2], width = getShape()[3];
  const int64_t stride = lineStride[plane], bpp = info->bytesPerPixel[plane];
  int64_t rel = byteOffset - planeOffset[plane];
  if (stride == 0 || rel / stride >= height)
    return loc;
  const int64_t h = rel / stride;
  const int64_t x = rel % stride - config.xOffset * bpp;
  if (x < 0 || x / bpp >= width)
    return loc;
  const int64_t w = x / bpp, bit = (x % bpp) * 8;
  for (int i = 0; i < info->numComponents; ++i) {
    const PixelComponent &c = info->components[i];
    if (c.plane != plane || bit < c.bitOffset || bit >= c.bitOffset + c.containerBits)
      continue;
    loc.isPadding = false;
    loc.index = {0, c.channel, h, w};
    loc.byteInElement = (bit - c.bitOffset) / 8;
    return loc;
  }
  return loc;
}

template <bool Pack> void PixelBoundLayout::copy(const char *src, char *dst) const {
  // No pixels, nothing to copy: without this, 2^40 empty lines took hours.
  if (getNumElements() == 0)
    return;
  const int64_t height = getShape()[2], width = getShape()[3];
  const int64_t eb = getElementBytes();
  const char *logicalIn = src;
  char *logicalOut = dst;
  const char *storageIn = src;
  char *storageOut = dst;
  for (int64_t h = 0; h < height; ++h) {
    int64_t line[2] = {planeOffset[0] + h * lineStride[0], planeOffset[1] + h * lineStride[1]};
    for (int64_t w = 0; w < width; ++w) {
      int64_t pixel[2] = {line[0] + (config.xOffset + w) * info->bytesPerPixel[0],
                          line[1] + (config.xOffset + w) * info->bytesPerPixel[1]};
      if (info->bitPacked) {
        // One little-endian 32-bit word per pixel.
        uint32_t word = 0;
        if (!Pack)
          for (int k = 0; k < 4; ++k)
            word |= uint32_t(static_cast<unsigned char>(storageIn[pixel[0] + k])) << (8 * k);
        for (int i = 0; i < info->numComponents; ++i) {
          const PixelComponent &c = info->components[i];
          const int64_t e = (c.channel * height + h) * width + w;
          const uint32_t mask = (uint32_t(1) << c.bits) - 1;
          uint16_t v;
          if (Pack) {
            std::memcpy(&v, logicalIn + e * 2, 2);
            word |= (uint32_t(v) & mask) << c.bitOffset;
          } else {
            v = static_cast<uint16_t>((word >> c.bitOffset) & mask);
            std::memcpy(logicalOut + e * 2, &v, 2);
          }
        }
        if (Pack)
          for (int k = 0; k < 4; ++k)
            storageOut[pixel[0] + k] = static_cast<char>((word >> (8 * k)) & 0xff);
        continue;
      }
      for (int i = 0; i < info->numComponents; ++i) {
        const PixelComponent &c = info->components[i];
        const int64_t e = (c.channel * height + h) * width + w;
        const int64_t at = pixel[c.plane] + c.bitOffset / 8;
        if (Pack)
          std::memcpy(storageOut + at, logicalIn + e * eb, static_cast<size_t>(eb));
        else
          std::memcpy(logicalOut + e * eb, storageIn + at, static_cast<size_t>(eb));
      }
    }
  }
}

void PixelBoundLayout::pack(const char *logical, char *storage) const {
  if (view) {
    packStridedView(*view, getShape(), getElementBytes(), logical, storage,
                    storageBytes / getElementBytes());
    return;
  }
  std::memset(storage, 0, static_cast<size_t>(storageBytes));
  copy<true>(logical, storage);
}

void PixelBoundLayout::unpack(const char *storage, char *logical) const {
  if (view) {
    unpackStridedView(*view, getShape(), getElementBytes(), storage, logical);
    return;
  }
  copy<false>(storage, logical);
}
