//===- NvdlaWeightPacker.cpp - Constant packer for NVDLA weights ----------===//

#include "dla/Format/NvdlaWeightPacker.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaWeightCompression.h"

#include <cstring>

using namespace dla::format;
using namespace dla::format::nvdla;

namespace {

/// Where each set's region of one compressed surface kind starts, and the
/// surface's total size.
struct SurfacePlan {
  std::vector<int64_t> regionOffsets;
  int64_t bytes = 0;
};

class NvdlaWeightPacker final : public ConstantPacker {
public:
  NvdlaWeightPacker(NvdlaWeightLayout layout, bool compressed, Fp16Rounding transformRounding)
      : layout(std::move(layout)), compressed(compressed), transformRounding(transformRounding) {}

  std::vector<std::string> getSurfaceNames() const override {
    if (compressed)
      return {"wgs", "wmb", "data"};
    return {"storage"};
  }

  int64_t getSurfaceAlignment() const override {
    return getAlignment(AlignedData::Weight).startAddress;
  }

  Expected<std::vector<int64_t>> planSurfaces(const PackSource &source) override {
    Status s = checkPackSource(source, layout.getNumLogicalElements(), layout.getElementBytes());
    if (!s)
      return s.takeError();
    if (!compressed)
      return std::vector<int64_t>{layout.getStorageBytes()};
    // Compression sizes depend on the data: pack the stream once, keep it
    // for pack().
    stream.resize(static_cast<size_t>(layout.getStorageBytes()));
    if (Status p = packStream(source, stream.data()); !p)
      return p.takeError();
    Expected<CompressedWeightLayout> plan =
        planCompressedWeights(layout, stream.data(), static_cast<int64_t>(stream.size()));
    if (!plan)
      return plan.takeError();
    compressedLayout = std::move(*plan);
    const int64_t align = getSurfaceAlignment();
    for (const CompressedWeightSurface &set : compressedLayout.surfaces) {
      const int64_t sizes[3] = {set.wgsBytes, set.wmbBytes, set.dataBytes};
      for (int kind = 0; kind < 3; ++kind) {
        SurfacePlan &p = plans[kind];
        int64_t offset = alignUp(p.bytes, align);
        p.regionOffsets.push_back(offset);
        p.bytes = offset + sizes[kind];
      }
    }
    return std::vector<int64_t>{plans[0].bytes, plans[1].bytes, plans[2].bytes};
  }

  Status pack(const PackSource &source, const std::vector<char *> &surfaces) override {
    if (!compressed)
      return packStream(source, surfaces[0]);
    std::vector<char> image(static_cast<size_t>(compressedLayout.storageBytes));
    Expected<CompressedWeightLayout> done =
        compressWeights(layout, stream.data(), static_cast<int64_t>(stream.size()), image.data(),
                        static_cast<int64_t>(image.size()));
    if (!done)
      return done.takeError();
    for (int kind = 0; kind < 3; ++kind)
      std::memset(surfaces[kind], 0, static_cast<size_t>(plans[kind].bytes));
    for (size_t i = 0; i < done->surfaces.size(); ++i) {
      const CompressedWeightSurface &set = done->surfaces[i];
      const int64_t from[3] = {set.wgsOffset, set.wmbOffset, set.dataOffset};
      const int64_t sizes[3] = {set.wgsBytes, set.wmbBytes, set.dataBytes};
      for (int kind = 0; kind < 3; ++kind)
        std::memcpy(surfaces[kind] + plans[kind].regionOffsets[i], image.data() + from[kind],
                    static_cast<size_t>(sizes[kind]));
    }
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
    std::vector<uint16_t> halves(static_cast<size_t>(n));
    convertFp32ToFp16(values, halves.data(), n, source.rounding);
    return layout.pack(halves.data(), n * 2, out, bytes, transformRounding);
  }

  NvdlaWeightLayout layout;
  bool compressed;
  Fp16Rounding transformRounding;
  std::vector<char> stream;
  CompressedWeightLayout compressedLayout;
  SurfacePlan plans[3];
};

} // namespace

Expected<std::unique_ptr<ConstantPacker>>
dla::format::nvdla::makeNvdlaWeightPacker(const WeightParams &params, bool compressed,
                                          Fp16Rounding transformRounding) {
  Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
  if (!layout)
    return layout.takeError();
  return std::unique_ptr<ConstantPacker>(
      new NvdlaWeightPacker(std::move(*layout), compressed, transformRounding));
}
