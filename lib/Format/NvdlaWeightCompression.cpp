//===- NvdlaWeightCompression.cpp - NVDLA sparse weight compression ------===//

#include "dla/Format/NvdlaWeightCompression.h"

#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"

#include <cstring>
#include <string>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

inline bool isNonZero(const unsigned char *p, int64_t eb) {
  return eb == 1 ? p[0] != 0 : (p[0] | p[1]) != 0;
}

/// Fills the data-independent fields and, from `dataUsedBytes` (compressed
/// data bytes per surface), the data sizes and offsets. `groupBytes` (per
/// surface) is kept when given (a plan of real data); the bound has none, so
/// that it costs no memory per kernel group.
CompressedWeightLayout assemble(const NvdlaWeightLayout &layout,
                                const std::vector<int64_t> &dataUsedBytes,
                                std::vector<std::vector<int64_t>> groupBytes) {
  const AlignmentRule &wgsRule = getAlignment(AlignedData::WeightGroupSize);
  const AlignmentRule &wmbRule = getAlignment(AlignedData::WeightMaskBits);
  const AlignmentRule &dataRule = getAlignment(AlignedData::Weight);
  const int64_t eb = layout.getElementBytes();
  CompressedWeightLayout result;
  int64_t end = 0;
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const WeightSurface &ws = surfaces[i];
    CompressedWeightSurface cs;
    cs.numElements = ws.dataBytes / eb;
    cs.wgsOffset = alignUp(end, wgsRule.startAddress);
    cs.wgsBytes = alignUp(ws.getNumGroups() * 4, wgsRule.dataSize);
    end = cs.wgsOffset + cs.wgsBytes;
    cs.wmbOffset = alignUp(end, wmbRule.startAddress);
    cs.wmbBytes = alignUp(ceilDiv(cs.numElements, 8), wmbRule.dataSize);
    end = cs.wmbOffset + cs.wmbBytes;
    if (!groupBytes.empty())
      cs.groupBytes = std::move(groupBytes[i]);
    cs.dataUsedBytes = dataUsedBytes[i];
    result.surfaces.push_back(std::move(cs));
  }
  for (CompressedWeightSurface &cs : result.surfaces) {
    cs.dataOffset = alignUp(end, dataRule.startAddress);
    cs.dataBytes = alignUp(cs.dataUsedBytes, dataRule.dataSize);
    end = cs.dataOffset + cs.dataBytes;
  }
  result.storageBytes = end;
  return result;
}

/// assemble() for data given as bytes per kernel group (per surface).
CompressedWeightLayout assembleGroups(const NvdlaWeightLayout &layout,
                                      std::vector<std::vector<int64_t>> groupBytes) {
  std::vector<int64_t> used;
  for (const std::vector<int64_t> &surface : groupBytes) {
    int64_t sum = 0;
    for (int64_t b : surface)
      sum += b;
    used.push_back(sum);
  }
  return assemble(layout, used, std::move(groupBytes));
}

Status checkUncompressed(const NvdlaWeightLayout &layout, const void *uncompressed,
                         int64_t bytes, const char *what) {
  if (!uncompressed)
    return makeError(std::string(what) + ": null buffer");
  if (bytes < layout.getStorageBytes())
    return makeError(std::string(what) + ": the uncompressed weight image is " +
                     str(layout.getStorageBytes()) + " bytes, the buffer has only " +
                     str(bytes));
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Kernels. The WMB of a surface is one bit per element, continuous across
// kernel groups, so a surface is compressed in one branch-free sweep: a
// compare against zero gives the mask of 16 bytes (8 or 16 elements), the
// mask is stored as WMB bytes, and a byte shuffle chosen by each 8-element
// mask packs the non-zero elements (SSSE3 pshufb; the store may run up to 16
// bytes past the packed data, into bytes written or zeroed later). Group
// sizes are popcounts of WMB bit ranges afterwards. Without SSSE3 / POPCNT
// the same sweep runs element by element.
//===----------------------------------------------------------------------===//

/// For each 8-bit mask: the indices of its set bits in order (pack8), the
/// same for 2-byte elements (pack16), and the bit count.
struct ShuffleTables {
  alignas(16) unsigned char pack8[256][16];
  alignas(16) unsigned char pack16[256][16];
  unsigned char count[256];
  ShuffleTables() {
    for (int m = 0; m < 256; ++m) {
      int n = 0;
      for (int b = 0; b < 8; ++b)
        if (m >> b & 1) {
          pack8[m][n] = static_cast<unsigned char>(b);
          pack16[m][2 * n] = static_cast<unsigned char>(2 * b);
          pack16[m][2 * n + 1] = static_cast<unsigned char>(2 * b + 1);
          ++n;
        }
      for (int i = n; i < 16; ++i)
        pack8[m][i] = 0x80; // pshufb: zero
      for (int i = 2 * n; i < 16; ++i)
        pack16[m][i] = 0x80;
      count[m] = static_cast<unsigned char>(n);
    }
  }
};

/// Set bits of `bits` in [from, to).
int64_t countBits(const unsigned char *bits, int64_t from, int64_t to) {
  int64_t n = 0;
  for (; from < to && (from & 7); ++from)
    n += bits[from >> 3] >> (from & 7) & 1;
  for (; from + 64 <= to; from += 64) {
    uint64_t w;
    std::memcpy(&w, bits + (from >> 3), 8);
    n += __builtin_popcountll(w);
  }
  for (; from + 8 <= to; from += 8)
    n += __builtin_popcount(bits[from >> 3]);
  for (; from < to; ++from)
    n += bits[from >> 3] >> (from & 7) & 1;
  return n;
}

/// Scalar sweep of elements [e, n) of a surface: WMB bits (bytes from e/8 on
/// are assumed zero) and packed data; returns the new data cursor. Clears
/// `fits` (and stops) when the data would pass `limit`.
unsigned char *compressTail(const unsigned char *p, int64_t e, int64_t n, int64_t eb,
                            unsigned char *wmb, unsigned char *data,
                            const unsigned char *limit, bool &fits) {
  for (p += e * eb; e < n; ++e, p += eb)
    if (isNonZero(p, eb)) {
      if (limit - data < eb) {
        fits = false;
        return data;
      }
      wmb[e >> 3] |= static_cast<unsigned char>(1u << (e & 7));
      std::memcpy(data, p, static_cast<size_t>(eb));
      data += eb;
    }
  return data;
}

int64_t countNonZeroScalar(const unsigned char *p, int64_t n, int64_t eb) {
  int64_t nonZero = 0;
  for (int64_t e = 0; e < n; ++e, p += eb)
    nonZero += isNonZero(p, eb);
  return nonZero;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define DLA_COMPRESS_SSSE3 1
const bool kHasSsse3 = __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt");
const ShuffleTables &tables() {
  static const ShuffleTables t;
  return t;
}

__attribute__((target("ssse3,popcnt"))) int64_t countNonZeroSsse3(const unsigned char *p,
                                                                   int64_t n, int64_t eb) {
  const __m128i zero = _mm_setzero_si128();
  int64_t zeros = 0, e = 0;
  const int64_t perVector = 16 / eb;
  for (; e + perVector <= n; e += perVector, p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    const __m128i z = eb == 1 ? _mm_cmpeq_epi8(v, zero) : _mm_cmpeq_epi16(v, zero);
    zeros += __builtin_popcount(static_cast<unsigned>(_mm_movemask_epi8(z)));
  }
  return (e - zeros / eb) + countNonZeroScalar(p, n - e, eb);
}

/// Elements [0, n) of a surface: writes WMB bytes [0, ceil(n/8)) and the
/// packed data from `data`; never stores at or past `limit`. Returns the new
/// data cursor; clears `fits` when the data does not fit below `limit`.
__attribute__((target("ssse3,popcnt"))) unsigned char *
compressSsse3(const unsigned char *in, int64_t n, int64_t eb, unsigned char *wmb,
              unsigned char *data, const unsigned char *limit, bool &fits) {
  const ShuffleTables &t = tables();
  const __m128i zero = _mm_setzero_si128();
  int64_t e = 0;
  const unsigned char *p = in;
  if (eb == 1) {
    for (; e + 16 <= n && data + 32 <= limit; e += 16, p += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
      const unsigned m = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero))) & 0xffffu;
      wmb[e >> 3] = static_cast<unsigned char>(m);
      wmb[(e >> 3) + 1] = static_cast<unsigned char>(m >> 8);
      const unsigned lo = m & 0xff, hi = m >> 8;
      const __m128i a = _mm_shuffle_epi8(
          v, _mm_load_si128(reinterpret_cast<const __m128i *>(t.pack8[lo])));
      _mm_storel_epi64(reinterpret_cast<__m128i *>(data), a);
      data += t.count[lo];
      const __m128i b = _mm_shuffle_epi8(
          _mm_srli_si128(v, 8), _mm_load_si128(reinterpret_cast<const __m128i *>(t.pack8[hi])));
      _mm_storel_epi64(reinterpret_cast<__m128i *>(data), b);
      data += t.count[hi];
    }
  } else {
    for (; e + 8 <= n && data + 32 <= limit; e += 8, p += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
      const __m128i z = _mm_cmpeq_epi16(v, zero);
      const unsigned m = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(z, z))) & 0xffu;
      wmb[e >> 3] = static_cast<unsigned char>(m);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(data),
                       _mm_shuffle_epi8(v, _mm_load_si128(
                                               reinterpret_cast<const __m128i *>(t.pack16[m]))));
      data += 2 * t.count[m];
    }
  }
  // The rest element by element, OR-ing into cleared WMB bytes.
  for (int64_t b = e >> 3; b < (n + 7) >> 3; ++b)
    wmb[b] = 0;
  return compressTail(in, e, n, eb, wmb, data, limit, fits);
}
#endif

int64_t countNonZero(const unsigned char *p, int64_t n, int64_t eb) {
#ifdef DLA_COMPRESS_SSSE3
  if (kHasSsse3)
    return countNonZeroSsse3(p, n, eb);
#endif
  return countNonZeroScalar(p, n, eb);
}

unsigned char *compressSurface(const unsigned char *in, int64_t n, int64_t eb,
                               unsigned char *wmb, unsigned char *data,
                               const unsigned char *limit, bool &fits) {
#ifdef DLA_COMPRESS_SSSE3
  if (kHasSsse3)
    return compressSsse3(in, n, eb, wmb, data, limit, fits);
#endif
  std::memset(wmb, 0, static_cast<size_t>((n + 7) >> 3));
  return compressTail(in, 0, n, eb, wmb, data, limit, fits);
}

Error groupTooLarge(int64_t g, int64_t bytes) {
  return makeError("kernel group " + str(g) + " compresses to " + str(bytes) +
                   " bytes, more than a 32-bit WGS entry holds");
}

/// Compressed bytes per kernel group, per surface.
Expected<std::vector<std::vector<int64_t>>> countGroups(const NvdlaWeightLayout &layout,
                                                        const unsigned char *image) {
  const int64_t eb = layout.getElementBytes();
  std::vector<std::vector<int64_t>> result;
  for (const WeightSurface &ws : layout.getSurfaces()) {
    std::vector<int64_t> groups;
    const unsigned char *p = image + ws.offset;
    for (int64_t g = 0; g < ws.getNumGroups(); ++g) {
      const int64_t bytes = ws.getGroupBytes(g);
      const int64_t nonZero = countNonZero(p, bytes / eb, eb);
      p += bytes;
      if (nonZero * eb > int64_t(UINT32_MAX))
        return groupTooLarge(g, nonZero * eb);
      groups.push_back(nonZero * eb);
    }
    result.push_back(std::move(groups));
  }
  return result;
}

} // namespace

CompressedWeightLayout
dlaformat::nvdla::getCompressedWeightLayoutBound(const NvdlaWeightLayout &layout) {
  // Every element non-zero: each group keeps all its bytes, and the groups'
  // kernels add up to the surface's. O(1) per surface: the bound is what
  // callers ask before allocating anything, for any kernel count.
  std::vector<int64_t> worst;
  for (const WeightSurface &ws : layout.getSurfaces())
    worst.push_back(ws.numKernels * ws.bytesPerKernel);
  return assemble(layout, worst, {});
}

Expected<CompressedWeightLayout>
dlaformat::nvdla::planCompressedWeights(const NvdlaWeightLayout &layout,
                                          const void *uncompressed,
                                          int64_t uncompressedBytes) {
  if (Status s = checkUncompressed(layout, uncompressed, uncompressedBytes, "plan compression");
      !s)
    return s.takeError();
  auto groups = countGroups(layout, static_cast<const unsigned char *>(uncompressed));
  if (!groups)
    return groups.takeError();
  return assembleGroups(layout, std::move(*groups));
}

Expected<CompressedWeightLayout>
dlaformat::nvdla::compressWeights(const NvdlaWeightLayout &layout, const void *uncompressed,
                                    int64_t uncompressedBytes, void *compressed,
                                    int64_t compressedBytes) {
  if (Status s = checkUncompressed(layout, uncompressed, uncompressedBytes, "compress"); !s)
    return s.takeError();
  if (!compressed)
    return makeError("compress: null output buffer");
  // WGS / WMB offsets and the start of data 0 do not depend on the data.
  // The data sizes are found while compressing, in one sweep, unless the
  // buffer is smaller than the all-non-zero bound: then they are counted
  // first, to refuse a buffer too small before writing.
  CompressedWeightLayout bound = getCompressedWeightLayoutBound(layout);
  if (compressedBytes < bound.storageBytes) {
    Expected<CompressedWeightLayout> plan =
        planCompressedWeights(layout, uncompressed, uncompressedBytes);
    if (!plan)
      return plan;
    if (compressedBytes < plan->storageBytes)
      return makeError("compress: the compressed weight image is " + str(plan->storageBytes) +
                       " bytes, the buffer has only " + str(compressedBytes));
  }
  const int64_t eb = layout.getElementBytes();
  const unsigned char *in = static_cast<const unsigned char *>(uncompressed);
  unsigned char *out = static_cast<unsigned char *>(compressed);
  const unsigned char *limit = out + compressedBytes;
  const int64_t dataAlign = getAlignment(AlignedData::Weight).startAddress;
  // Every byte is written once: WGS entries and WMB bytes by the sweep,
  // zeros in the padding after each and in the gaps between regions.
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const CompressedWeightSurface &cs = bound.surfaces[i];
    const int64_t wgsEnd = cs.wgsOffset + 4 * surfaces[i].getNumGroups();
    const int64_t wmbEnd = cs.wmbOffset + (cs.numElements + 7) / 8;
    const int64_t next = i + 1 < surfaces.size() ? bound.surfaces[i + 1].wgsOffset
                                                 : bound.surfaces.front().dataOffset;
    std::memset(out + wgsEnd, 0, static_cast<size_t>(cs.wmbOffset - wgsEnd));
    std::memset(out + wmbEnd, 0, static_cast<size_t>(next - wmbEnd));
  }
  std::memset(out, 0, static_cast<size_t>(bound.surfaces.front().wgsOffset));
  std::vector<std::vector<int64_t>> groups;
  unsigned char *cursor = out + bound.surfaces.front().dataOffset;
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const WeightSurface &ws = surfaces[i];
    const CompressedWeightSurface &cs = bound.surfaces[i];
    unsigned char *wmb = out + cs.wmbOffset;
    bool fits = true;
    unsigned char *end =
        compressSurface(in + ws.offset, cs.numElements, eb, wmb, cursor, limit, fits);
    if (!fits) // cannot happen: the buffer holds the bound or the counted plan
      return makeError("compress: the compressed data does not fit the buffer");
    std::vector<int64_t> g;
    int64_t e = 0;
    for (int64_t j = 0; j < ws.getNumGroups(); ++j) {
      const int64_t n = ws.getGroupBytes(j) / eb;
      const int64_t bytes = countBits(wmb, e, e + n) * eb;
      e += n;
      if (bytes > int64_t(UINT32_MAX))
        return groupTooLarge(j, bytes);
      const uint32_t v = static_cast<uint32_t>(bytes);
      unsigned char *w = out + cs.wgsOffset + 4 * j;
      w[0] = static_cast<unsigned char>(v);
      w[1] = static_cast<unsigned char>(v >> 8);
      w[2] = static_cast<unsigned char>(v >> 16);
      w[3] = static_cast<unsigned char>(v >> 24);
      g.push_back(bytes);
    }
    groups.push_back(std::move(g));
    // Padding after the data, up to where the next data surface starts.
    const int64_t used = end - cursor;
    const int64_t padded = alignUp(used, getAlignment(AlignedData::Weight).dataSize);
    unsigned char *next = i + 1 < surfaces.size()
                              ? out + alignUp(cursor - out + padded, dataAlign)
                              : cursor + padded;
    std::memset(end, 0, static_cast<size_t>(next - end));
    cursor = next;
  }
  return assembleGroups(layout, std::move(groups));
}

int64_t dlaformat::nvdla::countNonZeroWeightBytes(const void *stream, int64_t bytes,
                                                   int64_t elementBytes) {
  return countNonZero(static_cast<const unsigned char *>(stream), bytes / elementBytes,
                      elementBytes) *
         elementBytes;
}

Expected<CompressedWeightLayout>
dlaformat::nvdla::planCompressedWeightsFromGroups(const NvdlaWeightLayout &layout,
                                                  std::vector<std::vector<int64_t>> groupBytes) {
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  if (groupBytes.size() != surfaces.size())
    return makeError("plan compression: " + str(int64_t(groupBytes.size())) +
                     " lists of group sizes for " + str(int64_t(surfaces.size())) +
                     " weight surfaces");
  for (size_t i = 0; i < surfaces.size(); ++i) {
    if (static_cast<int64_t>(groupBytes[i].size()) != surfaces[i].getNumGroups())
      return makeError("plan compression: weight surface " + str(int64_t(i)) + " has " +
                       str(surfaces[i].getNumGroups()) + " kernel groups, " +
                       str(int64_t(groupBytes[i].size())) + " sizes given");
    for (size_t g = 0; g < groupBytes[i].size(); ++g) {
      const int64_t b = groupBytes[i][g];
      if (b > int64_t(UINT32_MAX))
        return groupTooLarge(static_cast<int64_t>(g), b);
      if (b < 0 || b > surfaces[i].getGroupBytes(static_cast<int64_t>(g)))
        return makeError("plan compression: kernel group " + str(int64_t(g)) + " of " +
                         str(surfaces[i].getGroupBytes(static_cast<int64_t>(g))) +
                         " bytes cannot compress to " + str(b));
    }
  }
  return assembleGroups(layout, std::move(groupBytes));
}

namespace {
/// memset that accepts the null buffer of an empty region.
void zeroBytes(unsigned char *p, int64_t n) {
  if (n > 0)
    std::memset(p, 0, static_cast<size_t>(n));
}
} // namespace

WeightSurfaceCompressor::WeightSurfaceCompressor(const NvdlaWeightLayout &layout,
                                                 const CompressedWeightLayout &plan,
                                                 size_t surface, void *wgsOut, void *wmbOut,
                                                 void *dataOut)
    : elementBytes(layout.getElementBytes()), surface(surface),
      wmb(static_cast<unsigned char *>(wmbOut)), data(static_cast<unsigned char *>(dataOut)),
      dataBegin(data), dataLimit(data) {
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  if (surface >= surfaces.size() || surface >= plan.surfaces.size() ||
      static_cast<int64_t>(plan.surfaces[surface].groupBytes.size()) !=
          surfaces[surface].getNumGroups()) {
    failed = makeError("compress: the plan has no group sizes for weight surface " +
                       str(int64_t(surface)));
    return;
  }
  planned = &plan.surfaces[surface];
  // An empty region (all-zero weights have no data) may have no buffer.
  if ((!wgsOut && planned->wgsBytes) || (!wmbOut && planned->wmbBytes) ||
      (!dataOut && planned->dataBytes)) {
    failed = makeError("compress: null output buffer");
    return;
  }
  dataLimit = data + planned->dataBytes;
  // WGS: the plan's group sizes, then zeros.
  unsigned char *wgs = static_cast<unsigned char *>(wgsOut);
  const int64_t groups = surfaces[surface].getNumGroups();
  for (int64_t j = 0; j < groups; ++j) {
    const uint32_t v = static_cast<uint32_t>(planned->groupBytes[static_cast<size_t>(j)]);
    unsigned char *w = wgs + 4 * j;
    w[0] = static_cast<unsigned char>(v);
    w[1] = static_cast<unsigned char>(v >> 8);
    w[2] = static_cast<unsigned char>(v >> 16);
    w[3] = static_cast<unsigned char>(v >> 24);
  }
  zeroBytes(wgs + 4 * groups, planned->wgsBytes - 4 * groups);
}

Status WeightSurfaceCompressor::add(const void *piece, int64_t elements) {
  if (!failed)
    return failed;
  if (elements < 0 || elements > planned->numElements - done)
    return failed = makeError("compress: weight surface " + str(int64_t(surface)) + " has " +
                              str(planned->numElements) + " elements, given " +
                              str(done + elements));
  if (done % 8)
    return failed = makeError("compress: a piece after one of " + str(done) +
                              " elements, not a multiple of 8");
  // The sweep's stores stay below the end of the planned data region, and
  // past the data only until finish() zeroes the rest.
  bool fits = true;
  // An empty data region may have no buffer: a stand-in without room.
  unsigned char none;
  unsigned char *at = data ? data : &none;
  unsigned char *end = compressSurface(static_cast<const unsigned char *>(piece), elements,
                                       elementBytes, wmb + done / 8, at,
                                       data ? dataLimit : &none, fits);
  if (!data)
    end = nullptr;
  if (!fits)
    return failed = makeError("compress: weight surface " + str(int64_t(surface)) +
                              " has more non-zero elements than its plan holds");
  data = end;
  done += elements;
  return Status::success();
}

Status WeightSurfaceCompressor::finish() {
  if (!failed)
    return failed;
  if (done != planned->numElements)
    return makeError("compress: weight surface " + str(int64_t(surface)) + " has " +
                     str(planned->numElements) + " elements, given " + str(done));
  const int64_t wmbUsed = (planned->numElements + 7) / 8;
  zeroBytes(wmb + wmbUsed, planned->wmbBytes - wmbUsed);
  if (data - dataBegin != planned->dataUsedBytes)
    return makeError("compress: weight surface " + str(int64_t(surface)) + " has " +
                     str(int64_t(data - dataBegin)) + " bytes of non-zero elements, the plan " +
                     str(planned->dataUsedBytes));
  zeroBytes(data, dataLimit - data);
  return Status::success();
}

Status dlaformat::nvdla::compressWeightSurface(const NvdlaWeightLayout &layout,
                                                const CompressedWeightLayout &plan,
                                                size_t surface, const void *uncompressed,
                                                int64_t uncompressedBytes, void *wgs, void *wmb,
                                                void *data) {
  if (Status s = checkUncompressed(layout, uncompressed, uncompressedBytes, "compress"); !s)
    return s;
  WeightSurfaceCompressor compressor(layout, plan, surface, wgs, wmb, data);
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  if (surface < surfaces.size())
    if (Status s = compressor.add(static_cast<const unsigned char *>(uncompressed) +
                                      surfaces[surface].offset,
                                  surfaces[surface].dataBytes / layout.getElementBytes());
        !s)
      return s;
  return compressor.finish();
}

Status dlaformat::nvdla::decompressWeights(const NvdlaWeightLayout &layout,
                                             const void *compressed, int64_t compressedBytes,
                                             void *uncompressed, int64_t uncompressedBytes) {
  if (!compressed)
    return makeError("decompress: null input buffer");
  if (Status s = checkUncompressed(layout, uncompressed, uncompressedBytes, "decompress"); !s)
    return s;
  const int64_t eb = layout.getElementBytes();
  const unsigned char *in = static_cast<const unsigned char *>(compressed);
  unsigned char *out = static_cast<unsigned char *>(uncompressed);
  std::memset(out, 0, static_cast<size_t>(layout.getStorageBytes()));

  // WGS and WMB offsets do not depend on the data; read the group sizes first.
  CompressedWeightLayout bound = getCompressedWeightLayoutBound(layout);
  std::vector<std::vector<int64_t>> groups;
  for (size_t i = 0; i < bound.surfaces.size(); ++i) {
    const CompressedWeightSurface &cs = bound.surfaces[i];
    if (cs.wmbOffset + cs.wmbBytes > compressedBytes)
      return makeError("decompress: the compressed image is " + str(compressedBytes) +
                       " bytes, too small for the WGS / WMB surfaces of weight surface " +
                       str(int64_t(i)));
    std::vector<int64_t> g;
    for (int64_t j = 0; j < layout.getSurfaces()[i].getNumGroups(); ++j) {
      const unsigned char *w = in + cs.wgsOffset + 4 * j;
      g.push_back(int64_t(w[0]) | int64_t(w[1]) << 8 | int64_t(w[2]) << 16 |
                  int64_t(w[3]) << 24);
    }
    groups.push_back(std::move(g));
  }
  CompressedWeightLayout plan = assembleGroups(layout, std::move(groups));
  if (plan.storageBytes > compressedBytes)
    return makeError("decompress: the WGS values describe a " + str(plan.storageBytes) +
                     "-byte compressed image, the buffer has only " + str(compressedBytes));

  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const WeightSurface &ws = surfaces[i];
    const CompressedWeightSurface &cs = plan.surfaces[i];
    const unsigned char *wmb = in + cs.wmbOffset;
    const unsigned char *data = in + cs.dataOffset;
    unsigned char *p = out + ws.offset;
    int64_t e = 0;
    int64_t consumed = 0;
    for (int64_t g = 0; g < ws.getNumGroups(); ++g) {
      const int64_t n = ws.getGroupBytes(g) / eb;
      int64_t used = 0;
      for (int64_t j = 0; j < n; ++j, ++e, p += eb) {
        if (wmb[e >> 3] >> (e & 7) & 1) {
          if (consumed + eb > cs.dataUsedBytes)
            return makeError("decompress: weight surface " + str(int64_t(i)) +
                             ": the WMB marks more non-zero elements than the WGS values "
                             "account for (" +
                             str(cs.dataUsedBytes) + " bytes)");
          consumed += eb;
          std::memcpy(p, data, static_cast<size_t>(eb));
          data += eb;
          used += eb;
        }
      }
      if (used != cs.groupBytes[static_cast<size_t>(g)])
        return makeError("decompress: weight surface " + str(int64_t(i)) + ", kernel group " +
                         str(g) + ": WGS says " + str(cs.groupBytes[static_cast<size_t>(g)]) +
                         " bytes but the WMB marks " + str(used));
    }
  }
  return Status::success();
}

void dlaformat::nvdla::planSeparateSurfaces(const CompressedWeightLayout &layout,
                                            int64_t alignment, SeparateSurfacePlan plans[3]) {
  // Sizes are bounded by the compressed image, which callers have already
  // sized, so the sums cannot overflow.
  for (const CompressedWeightSurface &set : layout.surfaces) {
    const int64_t sizes[3] = {set.wgsBytes, set.wmbBytes, set.dataBytes};
    for (int kind = 0; kind < 3; ++kind) {
      SeparateSurfacePlan &p = plans[kind];
      const int64_t offset = alignUp(p.bytes, alignment);
      p.regionOffsets.push_back(offset);
      p.bytes = offset + sizes[kind];
    }
  }
}

int64_t dlaformat::nvdla::nextSeparateDataRegion(int64_t offset, int64_t dataUsedBytes,
                                                 int64_t alignment) {
  return alignUp(offset + alignUp(dataUsedBytes, getAlignment(AlignedData::Weight).dataSize),
                 alignment);
}

Status dlaformat::nvdla::checkSeparateSurfaces(const NvdlaWeightLayout &layout,
                                               int64_t alignment, const void *wgs,
                                               int64_t wgsBytes, const void *wmb,
                                               int64_t wmbBytes, int64_t dataBytes,
                                               std::vector<int64_t> *dataUsedBytes) {
  // The WGS and WMB regions do not depend on the data (the bound gives them).
  SeparateSurfacePlan plans[3];
  planSeparateSurfaces(getCompressedWeightLayoutBound(layout), alignment, plans);
  const auto *g = static_cast<const unsigned char *>(wgs);
  const auto *m = static_cast<const unsigned char *>(wmb);
  const int64_t eb = layout.getElementBytes();
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  int64_t dataStart = 0;
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const WeightSurface &ws = surfaces[i];
    const int64_t wgsAt = plans[0].regionOffsets[i], wmbAt = plans[1].regionOffsets[i];
    const int64_t elements = ws.numKernels * (ws.bytesPerKernel / eb);
    if (wgsAt + 4 * ws.getNumGroups() > wgsBytes || wmbAt + (elements + 7) / 8 > wmbBytes)
      return makeError("weight surface " + str(int64_t(i)) + ": the WGS (" + str(wgsBytes) +
                       " bytes) or WMB (" + str(wmbBytes) +
                       " bytes) surface is too small for its kernel groups");
    int64_t cursor = dataStart, e = 0;
    for (int64_t grp = 0; grp < ws.getNumGroups(); ++grp) {
      const unsigned char *w = g + wgsAt + 4 * grp;
      const int64_t said = int64_t(w[0]) | int64_t(w[1]) << 8 | int64_t(w[2]) << 16 |
                           int64_t(w[3]) << 24;
      int64_t marked = 0;
      for (int64_t j = 0, n = ws.getGroupBytes(grp) / eb; j < n; ++j, ++e)
        marked += (m[wmbAt + (e >> 3)] >> (e & 7)) & 1;
      if (said != marked * eb)
        return makeError("weight surface " + str(int64_t(i)) + ", kernel group " + str(grp) +
                         ": WGS says " + str(said) + " bytes but the WMB marks " +
                         str(marked * eb));
      cursor += said;
      if (cursor > dataBytes)
        return makeError("weight surface " + str(int64_t(i)) + ", kernel group " + str(grp) +
                         ": its data ends at byte " + str(cursor) +
                         " of a data surface of " + str(dataBytes) + " bytes");
    }
    if (dataUsedBytes)
      dataUsedBytes->push_back(cursor - dataStart);
    dataStart = nextSeparateDataRegion(dataStart, cursor - dataStart, alignment);
  }
  return Status::success();
}

std::vector<bool> dlaformat::nvdla::readSeparateWeightMask(const NvdlaWeightLayout &layout,
                                                           int64_t alignment, const void *wmb) {
  SeparateSurfacePlan plans[3];
  planSeparateSurfaces(getCompressedWeightLayoutBound(layout), alignment, plans);
  const auto *m = static_cast<const unsigned char *>(wmb);
  const int64_t eb = layout.getElementBytes();
  std::vector<bool> nonZero(static_cast<size_t>(layout.getStorageBytes() / eb), false);
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const WeightSurface &ws = surfaces[i];
    const int64_t at = plans[1].regionOffsets[i], first = ws.offset / eb;
    for (int64_t e = 0, n = ws.numKernels * (ws.bytesPerKernel / eb); e < n; ++e)
      nonZero[static_cast<size_t>(first + e)] = (m[at + (e >> 3)] >> (e & 7)) & 1;
  }
  return nonZero;
}
