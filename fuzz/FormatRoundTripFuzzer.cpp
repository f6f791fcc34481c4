//===- FormatRoundTripFuzzer.cpp - libFuzzer: bind/pack/unpack ------------===//
//
// Random layouts of every format in the MLIR-free library (chunked, NVDLA
// feature, pixel, bias/PReLU/batch-norm/element-wise, weights, compressed
// weights), bound to random shapes (extreme values included), then packed
// and unpacked on random data. Properties checked, any failure aborts:
//  - bind either fails with a message or gives a layout whose sizes hold;
//  - unpack(pack(x)) == x for invertible layouts (pixel formats: for values
//    the format can hold, i.e. x = unpack(random storage));
//  - every padding byte is zero after pack;
//  - locate(getByteOffset(i)) == (i, byte 0) for every element i, and every
//    non-padding storage byte lies inside its element;
//  - compressed weights decompress to the uncompressed image.
//
//===----------------------------------------------------------------------===//
#include "dla/Format/BoundLayout.h"
#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/ConstantPacker.h"
#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaPixel.h"
#include "dla/Format/NvdlaWeight.h"
#include "dla/Format/NvdlaWeightCompression.h"
#include "dla/Format/NvdlaWeightPacker.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

// Full checks only below these sizes: the fuzzer explores shapes, not RAM.
constexpr int64_t kMaxElements = 1 << 9;
constexpr int64_t kMaxStorage = 1 << 13;

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "format round-trip property violated: %s\n", what);
  std::abort();
}
#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond))                                                                                 \
      fail(#cond);                                                                               \
  } while (0)

// Mostly small, sometimes extreme: the boundaries are where bugs live.
int64_t pickInt(FuzzedDataProvider &p, int64_t lo, int64_t hi) {
  static constexpr int64_t kExtreme[] = {0, -1, 1, 2, 3, 31, 32, 33, 64, 4096,
                                         int64_t(1) << 31, int64_t(1) << 40, int64_t(1) << 62,
                                         std::numeric_limits<int64_t>::max(),
                                         std::numeric_limits<int64_t>::min()};
  if (p.ConsumeIntegralInRange<int>(0, 15) == 0)
    return kExtreme[p.ConsumeIntegralInRange<size_t>(0, std::size(kExtreme) - 1)];
  return p.ConsumeIntegralInRange<int64_t>(lo, hi);
}

template <typename E> E pickEnum(FuzzedDataProvider &p, int count) {
  return static_cast<E>(p.ConsumeIntegralInRange<int>(0, count - 1));
}

std::optional<int64_t> maybeStride(FuzzedDataProvider &p) {
  if (!p.ConsumeBool())
    return std::nullopt;
  return pickInt(p, 0, 512);
}

// A buffer whose data() is never null (the library's contract, as the C API
// ensures), even for zero bytes.
std::vector<char> buffer(int64_t bytes, char fill = 0) {
  std::vector<char> b;
  b.reserve(bytes + 1);
  b.assign(bytes, fill);
  return b;
}

std::vector<int64_t> indexOf(int64_t linear, const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

// `sharedBytes`: components are bit fields sharing bytes (bit-packed pixel
// formats), so a byte names one of several elements and only the round
// trip is checked.
void checkBound(const BoundLayout &layout, FuzzedDataProvider &p, bool canonicalValues,
                bool sharedBytes = false) {
  int64_t n = layout.getNumElements(), eb = layout.getElementBytes();
  int64_t storageBytes = layout.getStorageBytes();
  CHECK(n >= 0 && eb > 0 && storageBytes >= 0);
  if (n > kMaxElements || storageBytes > kMaxStorage || n * eb > kMaxStorage)
    return;
  std::vector<char> logical = buffer(n * eb), storage = buffer(storageBytes), back = buffer(n * eb);
  for (auto &c : logical)
    c = static_cast<char>(p.ConsumeIntegral<uint8_t>());
  if (canonicalValues) {
    // Values the format can represent: those unpacked from some storage.
    std::vector<char> random = buffer(storageBytes);
    for (auto &c : random)
      c = static_cast<char>(p.ConsumeIntegral<uint8_t>());
    layout.unpack(random.data(), logical.data());
  }
  layout.pack(logical.data(), storage.data());
  // Every BoundLayout is invertible (Winograd is a ConstantPacker only).
  layout.unpack(storage.data(), back.data());
  CHECK(back == logical);
  if (sharedBytes)
    return;
  // Element -> byte offset -> element.
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> index = indexOf(i, layout.getShape());
    Expected<int64_t> offset = layout.getByteOffset(index);
    CHECK(offset.ok());
    CHECK(*offset >= 0 && *offset < storageBytes);
    Expected<StorageLocation> where = layout.locate(*offset);
    CHECK(where.ok());
    CHECK(!where->isPadding);
    if (where->index != index || where->byteInElement != 0) {
      std::fprintf(stderr, "shape %s, element bytes %lld, storage %lld: element %s at byte %lld, "
                           "located as %s byte %lld\n",
                   formatShape(layout.getShape()).c_str(), (long long)eb, (long long)storageBytes,
                   formatShape(index).c_str(), (long long)*offset,
                   formatShape(where->index).c_str(), (long long)where->byteInElement);
      fail("locate(getByteOffset(i)) != (i, 0)");
    }
  }
  // Storage byte -> element or zero padding.
  for (int64_t b = 0; b < storageBytes; ++b) {
    Expected<StorageLocation> where = layout.locate(b);
    CHECK(where.ok());
    if (where->isPadding) {
      CHECK(storage[b] == 0);
      continue;
    }
    CHECK(where->index.size() == layout.getShape().size());
    Expected<int64_t> start = layout.getByteOffset(where->index);
    CHECK(start.ok());
    CHECK(where->byteInElement >= 0 && *start + where->byteInElement == b);
  }
  // Out-of-range queries fail instead of answering.
  CHECK(!layout.locate(-1).ok());
  CHECK(!layout.locate(storageBytes).ok());
  if (!layout.getShape().empty()) {
    std::vector<int64_t> outside = layout.getShape();
    CHECK(!layout.getByteOffset(outside).ok());
  }
}

std::vector<int64_t> pickShape(FuzzedDataProvider &p, int rank, int64_t hi) {
  std::vector<int64_t> shape(rank);
  for (auto &d : shape)
    d = pickInt(p, 0, hi);
  return shape;
}

void fuzzChunked(FuzzedDataProvider &p) {
  int rank = p.ConsumeIntegralInRange<int>(0, 5);
  std::vector<ChunkPair> pairs;
  if (p.ConsumeBool()) {
    auto preset = pickEnum<ChunkedPreset>(p, std::size(kChunkedPresets));
    pairs.assign(kChunkedPresets[size_t(preset)].pairs);
    rank = 4;
  } else {
    for (int d = 0; d < rank; ++d)
      pairs.push_back({d, 0});
    int tiles = p.ConsumeIntegralInRange<int>(0, 4);
    for (int t = 0; t < tiles; ++t)
      pairs.push_back({pickInt(p, -1, rank), pickInt(p, 1, 8)});
    for (size_t i = pairs.size(); i > 1; --i)
      std::swap(pairs[i - 1], pairs[p.ConsumeIntegralInRange<size_t>(0, i - 1)]);
  }
  Expected<ChunkedLayout> layout = ChunkedLayout::get(rank, pairs);
  if (!layout.ok()) {
    CHECK(!layout.message().empty());
    return;
  }
  int64_t eb = pickInt(p, 1, 4);
  auto bound = layout->bind(pickShape(p, p.ConsumeBool() ? rank : rank + 1, 9), eb);
  if (bound.ok())
    checkBound(**bound, p, false);
}

void fuzzFeature(FuzzedDataProvider &p) {
  FeatureConfig config;
  config.precision = pickEnum<Precision>(p, 3);
  config.lineStride = maybeStride(p);
  config.surfaceStride = maybeStride(p);
  config.batchStride = maybeStride(p);
  auto bound = FeatureBoundLayout::bind(config, pickShape(p, p.ConsumeBool() ? 4 : 3, 40));
  if (bound.ok())
    checkBound(**bound, p, false);
}

void fuzzPixel(FuzzedDataProvider &p) {
  PixelConfig config;
  config.format = pickEnum<PixelFormat>(p, kNumPixelFormats);
  config.xOffset = pickInt(p, 0, 4);
  config.lineStride = maybeStride(p);
  if (p.ConsumeBool())
    config.uvLineStride = maybeStride(p);
  if (p.ConsumeBool())
    config.uvPlaneOffset = pickInt(p, 0, 4096);
  if (p.ConsumeIntegralInRange<int>(0, 7) == 0)
    config.inputPrecision = pickEnum<Precision>(p, 3);
  int64_t channels = getPixelFormatInfo(config.format).numChannels;
  std::vector<int64_t> shape = {1, channels, pickInt(p, 0, 12), pickInt(p, 0, 40)};
  if (p.ConsumeIntegralInRange<int>(0, 7) == 0)
    shape = pickShape(p, 4, 5);
  auto bound = PixelBoundLayout::bind(config, shape);
  if (bound.ok())
    checkBound(**bound, p, true, getPixelFormatInfo(config.format).bitPacked);
}

void fuzzAux(FuzzedDataProvider &p) {
  AuxConfig config;
  config.kind = pickEnum<AuxKind>(p, 4);
  config.mode = pickEnum<AuxMode>(p, 3);
  config.precision = pickEnum<Precision>(p, 3);
  config.dataSize = pickEnum<DataSize>(p, 2);
  config.use = pickEnum<ElementWiseUse>(p, 3);
  if (config.mode == AuxMode::PerElement || p.ConsumeIntegralInRange<int>(0, 7) == 0) {
    config.lineStride = maybeStride(p);
    config.surfaceStride = maybeStride(p);
    config.batchStride = maybeStride(p);
  }
  std::vector<int64_t> shape;
  if (p.ConsumeIntegralInRange<int>(0, 7) == 0)
    shape = pickShape(p, p.ConsumeIntegralInRange<int>(0, 4), 9);
  else
    shape = getAuxLogicalShape(config, pickInt(p, 0, 40), pickInt(p, 0, 6), pickInt(p, 0, 6));
  auto bound = AuxBoundLayout::bind(config, shape, pickInt(p, 1, 2));
  if (bound.ok())
    checkBound(**bound, p, false);
}

WeightParams pickWeightParams(FuzzedDataProvider &p) {
  WeightParams params;
  params.format = pickEnum<WeightFormat>(p, 4);
  params.precision = pickEnum<Precision>(p, 3);
  params.hardware = getHardwareConfig(pickEnum<HardwareKind>(p, 3));
  params.shape = {pickInt(p, 0, 40), pickInt(p, 0, 40), pickInt(p, 0, 5), pickInt(p, 0, 5)};
  params.strideX = pickInt(p, 1, 3);
  params.strideY = p.ConsumeBool() ? params.strideX : pickInt(p, 1, 3);
  if (params.format == WeightFormat::Image || p.ConsumeIntegralInRange<int>(0, 15) == 0)
    params.pixelChannels = pickInt(p, 1, 4);
  if (p.ConsumeIntegralInRange<int>(0, 3) == 0)
    params.postExtension = pickEnum<PostExtension>(p, 4);
  return params;
}

void fuzzWeight(FuzzedDataProvider &p) {
  WeightParams params = pickWeightParams(p);
  bool compressed = p.ConsumeBool();
  auto bound = createNvdlaWeightBoundLayout(params);
  auto layout = NvdlaWeightLayout::create(params);
  // Winograd layouts exist but are no BoundLayout (no element-wise offset).
  if (bound.ok() != (layout.ok() && layout->isInvertible())) {
    std::fprintf(stderr, "bound: %s\nlayout: %s\n", bound.message().c_str(),
                 layout.message().c_str());
    fail("createNvdlaWeightBoundLayout and NvdlaWeightLayout::create disagree");
  }
  if (!layout.ok())
    return;
  if (bound.ok())
    checkBound(**bound, p, false);

  // The constant packer: peak bound first, then pack; compressed images
  // must decompress to the uncompressed one.
  auto packer = makeNvdlaWeightPacker(params, compressed);
  if (!packer.ok())
    return;
  Expected<int64_t> peak = (*packer)->getPeakBytes(false);
  if (!peak.ok() || *peak > 4 * kMaxStorage)
    return;
  int64_t n = params.shape.getNumElements(), eb = getBytesPerElement(params.precision);
  if (n > kMaxElements)
    return;
  std::vector<char> logical = buffer(n * eb);
  for (auto &c : logical)
    c = static_cast<char>(p.ConsumeBool() ? 0 : p.ConsumeIntegral<uint8_t>());
  if (params.precision == Precision::Fp16)
    for (int64_t i = 0; i < n; ++i)
      logical[2 * i + 1] &= 0x3b; // finite fp16 values, below 2^(15-14): no Winograd overflow
  PackSource source{logical.data(), int64_t(logical.size())};
  auto sizes = (*packer)->planSurfaces(source);
  if (!sizes.ok())
    return;
  int64_t total = 0;
  for (int64_t s : *sizes) {
    CHECK(s >= 0);
    total += s;
  }
  CHECK(total <= *peak);
  std::vector<std::vector<char>> surfaces;
  std::vector<char *> pointers;
  for (int64_t s : *sizes) {
    surfaces.push_back(buffer(s, char(0x5a)));
    pointers.push_back(surfaces.back().data());
  }
  CHECK((*packer)->pack(source, pointers).ok());
  if (params.format == WeightFormat::Winograd)
    return; // storage holds transformed values: no element-wise inverse
  std::vector<char> image = buffer(layout->getStorageBytes());
  CHECK(layout->pack(logical.data(), logical.size(), image.data(), image.size()).ok());
  if (!compressed) {
    CHECK(surfaces.size() == 1 && surfaces[0] == image);
    return;
  }
  // wgs, wmb, data surfaces back into one compressed image at their offsets.
  CompressedWeightLayout planned =
      *planCompressedWeights(*layout, image.data(), int64_t(image.size()));
  std::vector<char> compressedImage = buffer(planned.storageBytes);
  CHECK(!planned.surfaces.empty());
  // The packer's three surfaces hold the regions in order; decompress from
  // a re-compression of the image and compare both ways.
  auto again = compressWeights(*layout, image.data(), image.size(), compressedImage.data(),
                               compressedImage.size());
  CHECK(again.ok());
  std::vector<char> restored = buffer(image.size(), char(0x33));
  CHECK(decompressWeights(*layout, compressedImage.data(), compressedImage.size(),
                          restored.data(), restored.size())
            .ok());
  CHECK(restored == image);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider p(data, size);
  switch (p.ConsumeIntegralInRange<int>(0, 4)) {
  case 0: fuzzChunked(p); break;
  case 1: fuzzFeature(p); break;
  case 2: fuzzPixel(p); break;
  case 3: fuzzAux(p); break;
  case 4: fuzzWeight(p); break;
  }
  return 0;
}
