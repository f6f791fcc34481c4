//===- ChunkedLayout.h - HTP-style chunked memory layouts -------*- C++ -*-===//
//
// A chunked layout (Hexagon HTP's ChunkedMemoryLayout) is a rank and a list of
// (dim, size) pairs, outermost first. Read right to left, each pair takes the
// next more significant part of the index of its dimension:
//   - size > 0: a tile, `size` positions of that dimension;
//   - size = 0: "all the rest" of the dimension, i.e. ceil(extent / T) where T
//     is the product of that dimension's tile sizes.
// Each dimension is padded up to a multiple of T, and storage is the dense
// row-major array over the pairs, in list order. Every dimension must have
// exactly one size-0 pair.
//
// Digit significance within a dimension follows list order (a pair further
// left is more significant). For every preset the size-0 pair is the
// leftmost pair of its dimension, which is the document's reading; lists that
// put a tile to the left of the size-0 pair are accepted and follow the same
// rule (see docs/ChunkedLayouts.md).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_CHUNKEDLAYOUT_H
#define DLA_FORMAT_CHUNKEDLAYOUT_H

#include "dla/Format/BoundLayout.h"
#include "dla/Format/EnumTable.h"
#include "dla/Format/Expected.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlaformat {

struct ChunkPair {
  int64_t dim;
  int64_t size;
  bool operator==(const ChunkPair &o) const { return dim == o.dim && size == o.size; }
  bool operator!=(const ChunkPair &o) const { return !(*this == o); }
};

/// The named layouts of the HTP document. Activations are logical NHWC;
/// ConvWeight is logical (height, width, in-channels, out-channels).
enum class ChunkedPreset {
  Flat,
  NCHW,
  Depth32,
  Crouton,
  Crouton4x1,
  Crouton2x2,
  Crouton2,
  ConvWeight,
  Last = ConvWeight, ///< the last value: EnumTable.h checks each table's size
};

struct ChunkedPresetInfo {
  ChunkedPreset preset;
  /// The spelling of `#dla.chunked<name>`.
  std::string_view name;
  /// The rank-4 pair list, outermost first.
  std::initializer_list<ChunkPair> pairs;
};

/// The summary table of the HTP document, one row per preset, indexed by
/// ChunkedPreset; also the name table (enumName / parseEnum). NCHW follows
/// the document's prose (<4, 0,0, 3,0, 1,0, 2,0>: batch, channel, height,
/// width) rather than its summary row (3,0, 2,0, 1,0 would be N, C, W, H), see
/// docs/ChunkedLayouts.md.
inline constexpr ChunkedPresetInfo kChunkedPresets[] = {
    {ChunkedPreset::Flat, "flat", {{0, 0}, {1, 0}, {2, 0}, {3, 0}}},
    {ChunkedPreset::NCHW, "nchw", {{0, 0}, {3, 0}, {1, 0}, {2, 0}}},
    {ChunkedPreset::Depth32, "depth32", {{0, 0}, {1, 0}, {3, 0}, {2, 0}, {2, 4}, {3, 32}}},
    {ChunkedPreset::Crouton, "crouton", {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {1, 8}, {2, 8}, {3, 32}}},
    {ChunkedPreset::Crouton4x1,
     "crouton4x1",
     {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {1, 8}, {2, 2}, {3, 32}, {2, 4}}},
    {ChunkedPreset::Crouton2x2,
     "crouton2x2",
     {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {1, 4}, {2, 4}, {3, 32}, {1, 2}, {2, 2}}},
    {ChunkedPreset::Crouton2,
     "crouton2",
     {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {1, 8}, {2, 2}, {3, 32}, {2, 2}}},
    {ChunkedPreset::ConvWeight,
     "conv_weight",
     {{3, 0}, {2, 0}, {0, 0}, {1, 0}, {2, 8}, {3, 32}, {2, 4}}},
};
constexpr const auto &enumEntries(ChunkedPreset) { return kChunkedPresets; }
static_assert(isInDeclarationOrder(kChunkedPresets, &ChunkedPresetInfo::preset));

class ChunkedLayout {
public:
  /// Validates and builds a layout. Errors name the offending pair.
  static Expected<ChunkedLayout> get(int64_t rank, std::vector<ChunkPair> pairs);
  /// Same rules, without building anything.
  static Status validate(int64_t rank, const std::vector<ChunkPair> &pairs);
  /// The rank a pair list names when none is given: one more than its
  /// largest dimension (0 for no pairs). Fails when that overflows (a
  /// dimension of INT64_MAX), naming the pair.
  static Expected<int64_t> impliedRank(const std::vector<ChunkPair> &pairs);
  /// Zips parallel dim and size arrays of `count` pairs into pairs.
  static std::vector<ChunkPair> zipPairs(const int64_t *dims, const int64_t *sizes, size_t count);
  static ChunkedLayout getPreset(ChunkedPreset preset);

  int64_t getRank() const { return rank; }
  const std::vector<ChunkPair> &getPairs() const { return pairs; }
  /// The preset these pairs spell, if any.
  std::optional<ChunkedPreset> getMatchingPreset() const;

  /// Product of the tile sizes of `dim` (1 when it has none).
  int64_t getTileProduct(int64_t dim) const;

  /// Applies the layout to a logical shape; fails on rank mismatch, negative
  /// extents, or any size that overflows int64_t.
  Expected<std::unique_ptr<class ChunkedBoundLayout>>
  bind(const std::vector<int64_t> &shape, int64_t elementBytes) const;

  /// "[(0,0),(1,0),...]" for messages.
  std::string toString() const;

  bool operator==(const ChunkedLayout &o) const { return rank == o.rank && pairs == o.pairs; }

private:
  ChunkedLayout(int64_t rank, std::vector<ChunkPair> pairs)
      : rank(rank), pairs(std::move(pairs)) {}
  int64_t rank;
  std::vector<ChunkPair> pairs;
};

/// A chunked layout bound to a shape: padded shape, the extent and stride of
/// every pair, storage size.
class ChunkedBoundLayout final : public BoundLayout {
public:
  const ChunkedLayout &getLayout() const { return layout; }
  /// Each dimension rounded up to a multiple of its tile product.
  const std::vector<int64_t> &getPaddedShape() const { return paddedShape; }
  /// Storage size in elements (product of the padded shape).
  int64_t getStorageElements() const { return storageElements; }
  /// Storage offset, in elements, of a logical index (which may lie in the
  /// padded region: any index below getPaddedShape()).
  int64_t getElementOffsetUnchecked(const int64_t *index) const;

  int64_t getStorageBytes() const override { return storageBytes; }
  Expected<int64_t> getByteOffset(const std::vector<int64_t> &index) const override;
  Expected<StorageLocation> locate(int64_t byteOffset) const override;
  std::optional<StridedView> getStridedView() const override { return view; }
  /// NHWC for the activation presets, HWIO for conv_weight, unspecified for
  /// lists that spell no preset.
  LogicalOrder getLogicalOrder() const override;
  void pack(const char *logical, char *storage) const override;
  void unpack(const char *storage, char *logical) const override;

private:
  friend class ChunkedLayout;
  ChunkedBoundLayout(const ChunkedLayout &layout, std::vector<int64_t> shape,
                     int64_t elementBytes, int64_t numElements)
      : BoundLayout(std::move(shape), elementBytes, numElements), layout(layout) {}

  template <bool Pack> void copy(const char *src, char *dst) const;

  ChunkedLayout layout;
  std::vector<int64_t> paddedShape;
  /// One entry per pair: extent, storage stride, logical dim and weight.
  StridedView view;
  int64_t storageElements = 0;
  int64_t storageBytes = 0;
};

} // namespace dlaformat

#endif // DLA_FORMAT_CHUNKEDLAYOUT_H
