//===- NvdlaWeightCompression.cpp - NVDLA sparse weight compression ------===//

#include "dla/Format/NvdlaWeightCompression.h"

#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"

#include <cstring>
#include <string>

using namespace dla::format;
using namespace dla::format::nvdla;

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

/// Compressed bytes per kernel group, per surface.
Expected<std::vector<std::vector<int64_t>>> countGroups(const NvdlaWeightLayout &layout,
                                                        const unsigned char *image) {
  const int64_t eb = layout.getElementBytes();
  std::vector<std::vector<int64_t>> result;
  for (const WeightSurface &ws : layout.getSurfaces()) {
    std::vector<int64_t> groups;
    const unsigned char *p = image + ws.offset;
    for (int64_t g = 0; g < ws.getNumGroups(); ++g) {
      const int64_t n = ws.getGroupBytes(g) / eb;
      int64_t nonZero = 0;
      for (int64_t e = 0; e < n; ++e, p += eb)
        nonZero += isNonZero(p, eb);
      if (nonZero * eb > int64_t(UINT32_MAX))
        return makeError("kernel group " + str(g) + " compresses to " + str(nonZero * eb) +
                         " bytes, more than a 32-bit WGS entry holds");
      groups.push_back(nonZero * eb);
    }
    result.push_back(std::move(groups));
  }
  return result;
}

} // namespace

CompressedWeightLayout
dla::format::nvdla::getCompressedWeightLayoutBound(const NvdlaWeightLayout &layout) {
  // Every element non-zero: each group keeps all its bytes, and the groups'
  // kernels add up to the surface's. O(1) per surface: the bound is what
  // callers ask before allocating anything, for any kernel count.
  std::vector<int64_t> worst;
  for (const WeightSurface &ws : layout.getSurfaces())
    worst.push_back(ws.numKernels * ws.bytesPerKernel);
  return assemble(layout, worst, {});
}

Expected<CompressedWeightLayout>
dla::format::nvdla::planCompressedWeights(const NvdlaWeightLayout &layout,
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
dla::format::nvdla::compressWeights(const NvdlaWeightLayout &layout, const void *uncompressed,
                                    int64_t uncompressedBytes, void *compressed,
                                    int64_t compressedBytes) {
  Expected<CompressedWeightLayout> plan =
      planCompressedWeights(layout, uncompressed, uncompressedBytes);
  if (!plan)
    return plan;
  if (!compressed)
    return makeError("compress: null output buffer");
  if (compressedBytes < plan->storageBytes)
    return makeError("compress: the compressed weight image is " + str(plan->storageBytes) +
                     " bytes, the buffer has only " + str(compressedBytes));
  const int64_t eb = layout.getElementBytes();
  const unsigned char *in = static_cast<const unsigned char *>(uncompressed);
  unsigned char *out = static_cast<unsigned char *>(compressed);
  std::memset(out, 0, static_cast<size_t>(plan->storageBytes));
  const std::vector<WeightSurface> &surfaces = layout.getSurfaces();
  for (size_t i = 0; i < surfaces.size(); ++i) {
    const WeightSurface &ws = surfaces[i];
    const CompressedWeightSurface &cs = plan->surfaces[i];
    for (size_t g = 0; g < cs.groupBytes.size(); ++g) {
      const uint32_t v = static_cast<uint32_t>(cs.groupBytes[g]);
      unsigned char *w = out + cs.wgsOffset + 4 * g;
      w[0] = static_cast<unsigned char>(v);
      w[1] = static_cast<unsigned char>(v >> 8);
      w[2] = static_cast<unsigned char>(v >> 16);
      w[3] = static_cast<unsigned char>(v >> 24);
    }
    const unsigned char *p = in + ws.offset;
    unsigned char *wmb = out + cs.wmbOffset;
    unsigned char *data = out + cs.dataOffset;
    for (int64_t e = 0; e < cs.numElements; ++e, p += eb) {
      if (isNonZero(p, eb)) {
        wmb[e >> 3] |= static_cast<unsigned char>(1u << (e & 7));
        std::memcpy(data, p, static_cast<size_t>(eb));
        data += eb;
      }
    }
  }
  return plan;
}

Status dla::format::nvdla::decompressWeights(const NvdlaWeightLayout &layout,
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
