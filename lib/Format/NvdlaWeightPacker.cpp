//===- NvdlaWeightPacker.cpp - Constant packer for NVDLA weights ----------===//

#include "dla/Format/NvdlaWeightPacker.h"
#include "dla/Format/ByteBuffer.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaWeightCompression.h"

#include <cstring>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

/// Where each set's region of one compressed surface kind starts, and the
/// surface's total size.
struct SurfacePlan {
  std::vector<int64_t> regionOffsets;
  int64_t bytes = 0;
};

/// The WGS, WMB and data surfaces of a compressed layout: each set's region
/// of a kind starts at `align`. Sizes are bounded by the compressed image,
/// which the caller has already sized, so the sums cannot overflow.
void planRegions(const CompressedWeightLayout &layout, int64_t align, SurfacePlan plans[3]) {
  for (const CompressedWeightSurface &set : layout.surfaces) {
    const int64_t sizes[3] = {set.wgsBytes, set.wmbBytes, set.dataBytes};
    for (int kind = 0; kind < 3; ++kind) {
      SurfacePlan &p = plans[kind];
      int64_t offset = alignUp(p.bytes, align);
      p.regionOffsets.push_back(offset);
      p.bytes = offset + sizes[kind];
    }
  }
}

std::optional<int64_t> checkedSum(std::initializer_list<int64_t> terms) {
  int64_t sum = 0;
  for (int64_t t : terms) {
    std::optional<int64_t> s = checkedAdd(sum, t);
    if (!s)
      return std::nullopt;
    sum = *s;
  }
  return sum;
}

class NvdlaWeightPacker final : public ConstantPacker {
public:
  NvdlaWeightPacker(NvdlaWeightLayout layout, bool compressed, Fp16Rounding transformRounding)
      : layout(std::move(layout)), compressed(compressed), transformRounding(transformRounding) {}

  StorageSurfaces getSurfaces() const override {
    if (compressed)
      return {SurfaceHolder::CompressedWeights, {"wgs", "wmb", "data"}};
    return {SurfaceHolder::TensorStorage, {"storage"}};
  }

  int64_t getSurfaceAlignment() const override {
    return getAlignment(AlignedData::Weight).startAddress;
  }

  Expected<int64_t> getPeakBytes(bool fromFp32) const override {
    const int64_t stream = layout.getStorageBytes();
    // Winograd converts an fp32 source to fp16 before its transform.
    int64_t halves = 0;
    if (fromFp32 && layout.getParams().format == WeightFormat::Winograd) {
      std::optional<int64_t> h = checkedMul(layout.getNumLogicalElements(), 2);
      if (!h)
        return makeError("packing memory overflows a 64-bit integer");
      halves = *h;
    }
    if (!compressed) {
      std::optional<int64_t> peak = checkedAdd(stream, halves);
      if (!peak)
        return makeError("packing memory overflows a 64-bit integer");
      return *peak;
    }
    // Compressed: the uncompressed stream, the compressed image and the
    // three surfaces live at once, all at their all-non-zero worst. The
    // bound's own bookkeeping (8 bytes per kernel group) is below the
    // stream's size, which callers check first.
    CompressedWeightLayout worst = getCompressedWeightLayoutBound(layout);
    SurfacePlan worstPlans[3];
    planRegions(worst, getSurfaceAlignment(), worstPlans);
    std::optional<int64_t> peak = checkedSum({stream, halves, worst.storageBytes,
                                              worstPlans[0].bytes, worstPlans[1].bytes,
                                              worstPlans[2].bytes});
    if (!peak)
      return makeError("packing memory overflows a 64-bit integer");
    return *peak;
  }

  Expected<std::vector<int64_t>> planSurfaces(const PackSource &source) override {
    Status s = checkPackSource(source, layout.getNumLogicalElements(), layout.getElementBytes());
    if (!s)
      return s.takeError();
    if (!compressed)
      return std::vector<int64_t>{layout.getStorageBytes()};
    // Compression sizes depend on the data: pack the stream, compress it
    // once into an image of the all-non-zero size, keep the image for pack().
    Expected<ByteBuffer> buffer =
        ByteBuffer::allocate(layout.getStorageBytes(), "the uncompressed weight stream");
    if (!buffer)
      return buffer.takeError();
    ByteBuffer stream = std::move(*buffer);
    if (Status p = packStream(source, stream.data()); !p)
      return p.takeError();
    Expected<ByteBuffer> imageBuffer = ByteBuffer::allocate(
        getCompressedWeightLayoutBound(layout).storageBytes, "the compressed weight image");
    if (!imageBuffer)
      return imageBuffer.takeError();
    image = std::move(*imageBuffer);
    Expected<CompressedWeightLayout> done =
        compressWeights(layout, stream.data(), stream.size(), image.data(), image.size());
    if (!done)
      return done.takeError();
    compressedLayout = std::move(*done);
    planRegions(compressedLayout, getSurfaceAlignment(), plans);
    return std::vector<int64_t>{plans[0].bytes, plans[1].bytes, plans[2].bytes};
  }

  Status pack(const PackSource &source, const std::vector<char *> &surfaces) override {
    if (!compressed)
      return packStream(source, surfaces[0]);
    // Every byte written once: the regions, and zeros in the gaps between.
    int64_t written[3] = {0, 0, 0};
    for (size_t i = 0; i < compressedLayout.surfaces.size(); ++i) {
      const CompressedWeightSurface &set = compressedLayout.surfaces[i];
      const int64_t from[3] = {set.wgsOffset, set.wmbOffset, set.dataOffset};
      const int64_t sizes[3] = {set.wgsBytes, set.wmbBytes, set.dataBytes};
      for (int kind = 0; kind < 3; ++kind) {
        const int64_t at = plans[kind].regionOffsets[i];
        std::memset(surfaces[kind] + written[kind], 0, static_cast<size_t>(at - written[kind]));
        std::memcpy(surfaces[kind] + at, image.data() + from[kind],
                    static_cast<size_t>(sizes[kind]));
        written[kind] = at + sizes[kind];
      }
    }
    for (int kind = 0; kind < 3; ++kind)
      std::memset(surfaces[kind] + written[kind], 0,
                  static_cast<size_t>(plans[kind].bytes - written[kind]));
    image = ByteBuffer(); // no longer needed
    return Status::success();
  }

private:
  /// The uncompressed stream. An fp32 source is rounded to fp16 with its own
  /// rounding; a format that computes its values from the weights (Winograd,
  /// not invertible) then transforms those fp16 weights, so it converts
  /// first rather than transforming the fp32 values.
  Status packStream(const PackSource &source, char *out) const {
    const int64_t n = layout.getNumLogicalElements();
    const int64_t bytes = layout.getStorageBytes();
    if (!source.fromFp32)
      return layout.pack(source.data, source.bytes, out, bytes, transformRounding);
    const float *values = reinterpret_cast<const float *>(source.data);
    if (layout.isInvertible())
      return layout.packFp32(values, n, out, bytes, source.rounding);
    Expected<ByteBuffer> halves = ByteBuffer::allocate(n * 2, "the fp16 copy of fp32 weights");
    if (!halves)
      return halves.takeError();
    convertFp32ToFp16(values, reinterpret_cast<uint16_t *>(halves->data()), n, source.rounding);
    return layout.pack(halves->data(), n * 2, out, bytes, transformRounding);
  }

  NvdlaWeightLayout layout;
  bool compressed;
  Fp16Rounding transformRounding;
  ByteBuffer image; ///< the compressed image, from planSurfaces() to pack()
  CompressedWeightLayout compressedLayout;
  SurfacePlan plans[3];
};

} // namespace

Expected<std::unique_ptr<ConstantPacker>>
dlaformat::nvdla::makeNvdlaWeightPacker(const WeightParams &params, bool compressed,
                                          Fp16Rounding transformRounding) {
  Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
  if (!layout)
    return layout.takeError();
  return std::unique_ptr<ConstantPacker>(
      new NvdlaWeightPacker(std::move(*layout), compressed, transformRounding));
}
