//===- NvdlaWeightPacker.cpp - Constant packer for NVDLA weights ----------===//

#include "dla/Format/NvdlaWeightPacker.h"
#include "NvdlaWeightImpl.h"
#include "dla/Format/ByteBuffer.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaWeightCompression.h"

#include <cstring>
#include <numeric>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

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

  std::optional<StorageDescription> describeUnboundStorage() const override {
    if (compressed || layout.isInvertible())
      return std::nullopt;
    StorageDescription d;
    d.buffers.push_back({"storage", layout.getStorageBytes(), getSurfaceAlignment()});
    return d;
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
    // Compressed: an upper bound, all at their all-non-zero worst: the
    // uncompressed stream, a compressed image and the three surfaces. The
    // packer now holds less (no image: it compresses straight into the
    // surfaces; direct weights not even the stream, only a 256 KiB piece);
    // the bound stays the documented one (--dla-pack-weights' max-bytes
    // diagnostics quote it). The bound's own bookkeeping (8 bytes per
    // kernel group) is below the stream's size, which callers check first.
    CompressedWeightLayout worst = getCompressedWeightLayoutBound(layout);
    SeparateSurfacePlan worstPlans[3];
    planSeparateSurfaces(worst, getSurfaceAlignment(), worstPlans);
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
    if (isPiecewise(source)) {
      // Direct weights: the stream a few kernel groups at a time into a
      // cache-sized piece, counted right away (no stream buffer: filling a
      // fresh one cost more page faults than the whole compression).
      std::vector<int64_t> groups;
      const WeightSurface &ws = layout.getSurfaces()[0];
      const int64_t eb = layout.getElementBytes();
      const WeightShape &shape = layout.getParams().shape;
      if (!source.fromFp32 && ws.offset == 0 &&
          ws.bytesPerKernel == shape.channels * shape.height * shape.width * eb) {
        // A direct kernel group is a reordering of its kernels' elements
        // (no padding inside), which are contiguous in the KCRS source at
        // the group's own stream offset: count them there, packing nothing.
        if (Status s = checkPackSource(source, layout.getNumLogicalElements(), eb); !s)
          return s.takeError();
        for (int64_t g = 0; g < ws.getNumGroups(); ++g)
          groups.push_back(countNonZeroWeightBytes(source.data + ws.getGroupOffset(g),
                                                   ws.getGroupBytes(g), eb));
      } else if (Status p = forEachPiece(source, [&](int64_t g0, int64_t g1, const char *piece) {
                   for (int64_t g = g0; g < g1; ++g) {
                     const int64_t bytes = ws.getGroupBytes(g);
                     groups.push_back(countNonZeroWeightBytes(piece, bytes, eb));
                     piece += bytes;
                   }
                   return Status::success();
                 });
                 !p) {
        return p.takeError();
      }
      std::vector<std::vector<int64_t>> perSurface;
      perSurface.push_back(std::move(groups));
      Expected<CompressedWeightLayout> plan =
          planCompressedWeightsFromGroups(layout, std::move(perSurface));
      if (!plan)
        return plan.takeError();
      compressedLayout = std::move(*plan);
    } else {
      // Compression sizes depend on the data: pack the stream, count its
      // non-zero elements per kernel group (a read-only sweep), keep the
      // stream for pack(), which compresses it straight into the surfaces.
      Expected<ByteBuffer> buffer =
          ByteBuffer::allocate(layout.getStorageBytes(), "the uncompressed weight stream");
      if (!buffer)
        return buffer.takeError();
      stream = std::move(*buffer);
      if (Status p = packStream(source, stream.data()); !p)
        return p.takeError();
      Expected<CompressedWeightLayout> plan =
          planCompressedWeights(layout, stream.data(), stream.size());
      if (!plan)
        return plan.takeError();
      compressedLayout = std::move(*plan);
    }
    planSeparateSurfaces(compressedLayout, getSurfaceAlignment(), plans);
    return std::vector<int64_t>{plans[0].bytes, plans[1].bytes, plans[2].bytes};
  }

  Status pack(const PackSource &source, const std::vector<char *> &surfaces) override {
    if (!compressed)
      return packStream(source, surfaces[0]);
    // Every byte written once: the regions, and zeros in the gaps between.
    int64_t written[3] = {0, 0, 0};
    for (size_t i = 0; i < compressedLayout.surfaces.size(); ++i) {
      const CompressedWeightSurface &set = compressedLayout.surfaces[i];
      const int64_t sizes[3] = {set.wgsBytes, set.wmbBytes, set.dataBytes};
      char *at[3];
      for (int kind = 0; kind < 3; ++kind) {
        const int64_t offset = plans[kind].regionOffsets[i];
        if (offset > written[kind])
          std::memset(surfaces[kind] + written[kind], 0,
                      static_cast<size_t>(offset - written[kind]));
        at[kind] = surfaces[kind] + offset;
        written[kind] = offset + sizes[kind];
      }
      if (isPiecewise(source)) {
        // The same pieces again, compressed as they come.
        WeightSurfaceCompressor compressor(layout, compressedLayout, i, at[0], at[1], at[2]);
        const WeightSurface &ws = layout.getSurfaces()[0];
        if (Status p = forEachPiece(source,
                                    [&](int64_t g0, int64_t g1, const char *piece) {
                                      int64_t bytes = 0;
                                      for (int64_t g = g0; g < g1; ++g)
                                        bytes += ws.getGroupBytes(g);
                                      return compressor.add(piece,
                                                            bytes / layout.getElementBytes());
                                    });
            !p)
          return p;
        if (Status f = compressor.finish(); !f)
          return f;
      } else if (Status s = compressWeightSurface(layout, compressedLayout, i, stream.data(),
                                                  stream.size(), at[0], at[1], at[2]);
                 !s) {
        return s;
      }
    }
    for (int kind = 0; kind < 3; ++kind)
      if (plans[kind].bytes > written[kind])
        std::memset(surfaces[kind] + written[kind], 0,
                    static_cast<size_t>(plans[kind].bytes - written[kind]));
    stream = ByteBuffer(); // no longer needed
    return Status::success();
  }

private:
  /// The uncompressed stream. An fp32 source is rounded to fp16 with its own
  /// rounding; a format that computes its values from the weights (Winograd,
  /// not invertible) then transforms those fp16 weights, so it converts
  /// first rather than transforming the fp32 values, unless the source says
  /// the fp32 values are the weights (transformFromFp32: one rounding).
  Status packStream(const PackSource &source, char *out) const {
    const int64_t n = layout.getNumLogicalElements();
    const int64_t bytes = layout.getStorageBytes();
    if (!source.fromFp32)
      return layout.pack(source.data, source.bytes, out, bytes, transformRounding);
    const float *values = reinterpret_cast<const float *>(source.data);
    if (layout.isInvertible() || source.transformFromFp32)
      return layout.packFp32(values, n, out, bytes, source.rounding);
    Expected<ByteBuffer> halves = ByteBuffer::allocate(n * 2, "the fp16 copy of fp32 weights");
    if (!halves)
      return halves.takeError();
    convertFp32ToFp16(values, reinterpret_cast<uint16_t *>(halves->data()), n, source.rounding);
    return layout.pack(halves->data(), n * 2, out, bytes, transformRounding);
  }

  /// Whether the stream is made a piece at a time (direct weights: one
  /// surface, kernel groups packed independently).
  /// fp32 sources only for fp16 weights (packStream reports the others).
  bool isPiecewise(const PackSource &source) const {
    return layout.getParams().format == WeightFormat::Direct &&
           layout.getSurfaces().size() == 1 &&
           (!source.fromFp32 || layout.getParams().precision == Precision::Fp16);
  }

  /// Packs the direct stream a few kernel groups at a time into one reused
  /// piece of about kPieceBytes and calls body(g0, g1, piece) for groups
  /// [g0, g1); every piece but the last holds a multiple of 8 elements.
  template <typename Body> Status forEachPiece(const PackSource &source, Body body) {
    if (Status s =
            checkPackSource(source, layout.getNumLogicalElements(), layout.getElementBytes());
        !s)
      return s;
    constexpr int64_t kPieceBytes = int64_t(256) << 10;
    const WeightSurface &ws = layout.getSurfaces()[0];
    const int64_t groups = ws.getNumGroups();
    const int64_t groupBytes = ws.getGroupBytes(0); // every group but the last
    const int64_t eb = layout.getElementBytes();
    // Groups per piece: a multiple of the smallest count whose elements are
    // a multiple of 8 (so pieces start on WMB byte boundaries).
    const int64_t unit = 8 / std::gcd(int64_t(8), groupBytes / eb);
    const int64_t perPiece =
        std::max<int64_t>(1, kPieceBytes / std::max<int64_t>(1, groupBytes * unit)) * unit;
    if (piece.size() < std::min(perPiece, groups) * groupBytes) {
      Expected<ByteBuffer> buffer = ByteBuffer::allocate(std::min(perPiece, groups) * groupBytes,
                                                         "a piece of the weight stream");
      if (!buffer)
        return buffer.takeError();
      piece = std::move(*buffer);
    }
    const nvdla::detail::WeightLayoutImpl &impl = nvdla::detail::WeightLayoutImpl::get(layout);
    const nvdla::detail::SourceKind kind =
        !source.fromFp32 ? (eb == 1 ? nvdla::detail::SourceKind::Raw1 : nvdla::detail::SourceKind::Raw2)
        : source.rounding == Fp16Rounding::TiesToEven ? nvdla::detail::SourceKind::Fp32ToFp16TE
                                                      : nvdla::detail::SourceKind::Fp32ToFp16TA;
    for (int64_t g0 = 0; g0 < groups; g0 += perPiece) {
      const int64_t g1 = std::min(groups, g0 + perPiece);
      nvdla::detail::packDirectGroupRange(impl, kind, static_cast<const char *>(source.data), g0, g1,
                                   piece.data());
      if (Status s = body(g0, g1, piece.data()); !s)
        return s;
    }
    return Status::success();
  }

  NvdlaWeightLayout layout;
  bool compressed;
  Fp16Rounding transformRounding;
  ByteBuffer stream; ///< the uncompressed stream, from planSurfaces() to pack()
  ByteBuffer piece;  ///< piecewise packing: the current piece of the stream
  CompressedWeightLayout compressedLayout;
  SeparateSurfacePlan plans[3];
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
