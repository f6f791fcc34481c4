//===- ChunkedLayout.cpp - HTP-style chunked memory layouts --------------===//

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/CheckedMath.h"
#include "dla/Format/StridedCopy.h"

#include <algorithm>
#include <map>

using namespace dlaformat;

namespace {
std::string pairName(size_t i, const ChunkPair &p) {
  return "pair #" + std::to_string(i) + " (" + std::to_string(p.dim) + ", " +
         std::to_string(p.size) + ")";
}
} // namespace

Status ChunkedLayout::validate(int64_t rank, const std::vector<ChunkPair> &pairs) {
  if (rank < 0)
    return makeError("rank must be non-negative, got " + std::to_string(rank));
  // Keyed by dimension rather than sized by rank: the rank may come from
  // untrusted input and must not decide an allocation.
  std::map<int64_t, size_t> restPair;
  std::map<int64_t, int64_t> tileProduct;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const ChunkPair &p = pairs[i];
    if (p.dim < 0 || p.dim >= rank)
      return makeError(pairName(i, p) + ": dimension " + std::to_string(p.dim) +
                       " is out of range [0, " + std::to_string(rank) + ")");
    if (p.size < 0)
      return makeError(pairName(i, p) + ": tile size must be positive (0 means 'all the rest')");
    if (p.size == 0) {
      auto [it, inserted] = restPair.emplace(p.dim, i);
      if (!inserted)
        return makeError(pairName(i, p) + ": dimension " + std::to_string(p.dim) +
                         " already has its 'all the rest' pair (#" + std::to_string(it->second) +
                         ")");
      continue;
    }
    auto [it, inserted] = tileProduct.emplace(p.dim, 1);
    auto t = checkedMul(it->second, p.size);
    if (!t)
      return makeError(pairName(i, p) + ": product of the tile sizes of dimension " +
                       std::to_string(p.dim) + " overflows a 64-bit integer");
    it->second = *t;
  }
  // All rest pairs name distinct in-range dimensions, so the first missing
  // one is found within restPair.size() + 1 steps.
  if (static_cast<int64_t>(restPair.size()) < rank) {
    int64_t d = 0;
    while (restPair.count(d))
      ++d;
    return makeError("dimension " + std::to_string(d) + " has no (" + std::to_string(d) +
                     ", 0) pair; every dimension needs exactly one 'all the rest' pair");
  }
  return Status::success();
}

Expected<int64_t> ChunkedLayout::impliedRank(const std::vector<ChunkPair> &pairs) {
  int64_t rank = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    std::optional<int64_t> r = checkedAdd(pairs[i].dim, 1);
    if (!r)
      return makeError(pairName(i, pairs[i]) + ": dimension " + std::to_string(pairs[i].dim) +
                       " leaves no room for the rank (dimension + 1 overflows a 64-bit integer)");
    rank = std::max(rank, *r);
  }
  return rank;
}

Expected<ChunkedLayout> ChunkedLayout::get(int64_t rank, std::vector<ChunkPair> pairs) {
  Status s = validate(rank, pairs);
  if (!s)
    return s.takeError();
  return ChunkedLayout(rank, std::move(pairs));
}

ChunkedLayout ChunkedLayout::getPreset(ChunkedPreset preset) {
  const ChunkedPresetInfo &info = kChunkedPresets[static_cast<size_t>(preset)];
  return ChunkedLayout(4, std::vector<ChunkPair>(info.pairs));
}

std::optional<ChunkedPreset> ChunkedLayout::getMatchingPreset() const {
  if (rank != 4)
    return std::nullopt;
  for (const ChunkedPresetInfo &p : kChunkedPresets)
    if (std::equal(p.pairs.begin(), p.pairs.end(), pairs.begin(), pairs.end()))
      return p.preset;
  return std::nullopt;
}

int64_t ChunkedLayout::getTileProduct(int64_t dim) const {
  int64_t t = 1;
  for (const ChunkPair &p : pairs)
    if (p.dim == dim && p.size > 0)
      t *= p.size; // cannot overflow: validate() checked it
  return t;
}

std::string ChunkedLayout::toString() const {
  std::string s = "[";
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i)
      s += ", ";
    s += "(" + std::to_string(pairs[i].dim) + ", " + std::to_string(pairs[i].size) + ")";
  }
  return s + "]";
}

Expected<std::unique_ptr<ChunkedBoundLayout>>
ChunkedLayout::bind(const std::vector<int64_t> &shape, int64_t elementBytes) const {
  if (static_cast<int64_t>(shape.size()) != rank)
    return makeError("layout of rank " + std::to_string(rank) + " cannot lay out shape " +
                     formatShape(shape) + " of rank " + std::to_string(shape.size()));
  Expected<int64_t> numElements = checkShape(shape, elementBytes);
  if (!numElements)
    return numElements.takeError();

  std::unique_ptr<ChunkedBoundLayout> bound(
      new ChunkedBoundLayout(*this, shape, elementBytes, *numElements));
  std::vector<int64_t> padded(shape.size());
  for (int64_t d = 0; d < rank; ++d) {
    auto p = checkedRoundUp(shape[d], getTileProduct(d));
    if (!p)
      return makeError("padding dimension " + std::to_string(d) + " of shape " +
                       formatShape(shape) + " overflows a 64-bit integer");
    padded[d] = *p;
  }

  // Extents and weights (right to left, per dimension), then storage strides.
  StridedView &view = bound->view;
  view.dims.resize(pairs.size());
  std::vector<int64_t> innerWeight(shape.size(), 1);
  for (size_t i = pairs.size(); i-- > 0;) {
    const ChunkPair &p = pairs[i];
    int64_t extent = p.size > 0 ? p.size : padded[p.dim] / getTileProduct(p.dim);
    view.dims[i] = {extent, 0, p.dim, innerWeight[p.dim]};
    innerWeight[p.dim] *= extent; // <= padded[dim], no overflow
  }
  int64_t stride = 1;
  for (size_t i = pairs.size(); i-- > 0;) {
    view.dims[i].stride = stride;
    auto s = checkedMul(stride, view.dims[i].extent);
    if (!s)
      return makeError("storage size of shape " + formatShape(shape) + " under layout " +
                       toString() + " overflows a 64-bit integer");
    stride = *s;
  }
  auto bytes = checkedMul(stride, elementBytes);
  if (!bytes)
    return makeError("storage size in bytes of shape " + formatShape(shape) +
                     " under layout " + toString() + " overflows a 64-bit integer");
  bound->paddedShape = std::move(padded);
  bound->storageElements = stride;
  bound->storageBytes = *bytes;
  return bound;
}

int64_t ChunkedBoundLayout::getElementOffsetUnchecked(const int64_t *index) const {
  return getViewElementOffset(view, index);
}

Expected<int64_t> ChunkedBoundLayout::getByteOffset(const std::vector<int64_t> &index) const {
  Status s = checkIndex(index);
  if (!s)
    return s.takeError();
  return getElementOffsetUnchecked(index.data()) * getElementBytes();
}

Expected<StorageLocation> ChunkedBoundLayout::locate(int64_t byteOffset) const {
  Status s = checkByteOffset(byteOffset);
  if (!s)
    return s.takeError();
  StorageLocation loc;
  int64_t element = byteOffset / getElementBytes();
  std::vector<int64_t> index(getShape().size(), 0);
  for (const StridedView::Dim &d : view.dims) {
    index[d.logicalDim] += (element / d.stride) * d.weight;
    element %= d.stride;
  }
  for (size_t d = 0; d < index.size(); ++d)
    if (index[d] >= getShape()[d]) {
      loc.isPadding = true;
      return loc;
    }
  loc.index = std::move(index);
  loc.byteInElement = byteOffset % getElementBytes();
  return loc;
}

void ChunkedBoundLayout::pack(const char *logical, char *storage) const {
  packStridedView(view, getShape(), getElementBytes(), logical, storage, storageElements);
}

void ChunkedBoundLayout::unpack(const char *storage, char *logical) const {
  unpackStridedView(view, getShape(), getElementBytes(), storage, logical);
}

std::vector<ChunkPair> ChunkedLayout::zipPairs(const int64_t *dims, const int64_t *sizes,
                                               size_t count) {
  std::vector<ChunkPair> pairs;
  pairs.reserve(count);
  for (size_t i = 0; i < count; ++i)
    pairs.push_back({dims[i], sizes[i]});
  return pairs;
}

LogicalOrder ChunkedBoundLayout::getLogicalOrder() const {
  std::optional<ChunkedPreset> preset = layout.getMatchingPreset();
  if (!preset)
    return LogicalOrder::Unspecified;
  return *preset == ChunkedPreset::ConvWeight ? LogicalOrder::HWIO : LogicalOrder::NHWC;
}
