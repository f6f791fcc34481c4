//===- NvdlaWeightCompression.h - NVDLA sparse weight compression -*- C++ -*-===//
//
// The "Sparse Compression option" of the NVDLA format document, for any weight
// format, applied after the basic mapping (and post-extension). Each weight
// surface of an uncompressed image (the whole stream, or one deconvolution
// set, see NvdlaWeight.h) becomes three surfaces:
//
//   WMB   one bit per element of the uncompressed stream (1: non-zero), least
//         significant bit first within each byte, continuous across kernel
//         groups;
//   data  the non-zero elements, in stream order; an element is zero only
//         when all its bytes are zero (so -0.0 stays, and unpacking restores
//         the exact bytes);
//   WGS   one little-endian uint32 per kernel group: that group's compressed
//         byte count.
//
// Each surface is zero-padded to the data-size alignment and starts at the
// start-address alignment of its row in the alignment table (128 B and 256 B,
// NvdlaAlignment.h).
//
// Placement in one compressed image (a choice of this library; the document
// keeps the three surfaces in separate memory): for weight surfaces 0..n-1,
//   WGS 0, WMB 0, WGS 1, WMB 1, ..., data 0, data 1, ...
// The WGS and WMB sizes depend only on the shape, so every WGS / WMB offset
// and the offset of data 0 are known before looking at the data; the data
// sizes (and later data offsets) follow from counting non-zero elements.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAWEIGHTCOMPRESSION_H
#define DLA_FORMAT_NVDLAWEIGHTCOMPRESSION_H

#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaWeight.h"

#include <cstdint>
#include <vector>

namespace dlaformat::nvdla {

/// The three compressed surfaces of one weight surface.
struct CompressedWeightSurface {
  int64_t wgsOffset = 0;
  int64_t wgsBytes = 0; ///< padded size (4 bytes per group, then padding)
  int64_t wmbOffset = 0;
  int64_t wmbBytes = 0; ///< padded size (1 bit per element, then padding)
  int64_t dataOffset = 0;
  int64_t dataBytes = 0;     ///< padded size of the compressed data
  int64_t dataUsedBytes = 0; ///< bytes of non-zero elements (sum of groupBytes)
  int64_t numElements = 0;   ///< elements of the uncompressed stream (WMB bits)
  /// The WGS values: compressed bytes of each kernel group.
  std::vector<int64_t> groupBytes;
};

struct CompressedWeightLayout {
  std::vector<CompressedWeightSurface> surfaces; ///< one per WeightSurface
  int64_t storageBytes = 0; ///< bytes of the compressed image, padding included
};

/// The layout when every element is non-zero: WGS / WMB offsets and sizes
/// and the offset of data surface 0 are those of any data; storageBytes is an
/// upper bound for any data. Its groupBytes are empty: the bound takes
/// constant memory whatever the kernel count.
CompressedWeightLayout getCompressedWeightLayoutBound(const NvdlaWeightLayout &layout);

/// The exact compressed layout of an uncompressed storage image (as written by
/// NvdlaWeightLayout::pack); counts non-zero elements, writes nothing.
Expected<CompressedWeightLayout> planCompressedWeights(const NvdlaWeightLayout &layout,
                                                       const void *uncompressed,
                                                       int64_t uncompressedBytes);

/// Compresses an uncompressed storage image into `compressed` (at least the
/// planned storageBytes; every byte of the compressed image is written).
/// Returns the layout used.
Expected<CompressedWeightLayout> compressWeights(const NvdlaWeightLayout &layout,
                                                 const void *uncompressed,
                                                 int64_t uncompressedBytes, void *compressed,
                                                 int64_t compressedBytes);

/// Bytes of the non-zero elements (of `elementBytes` bytes) among `bytes`
/// bytes of an uncompressed stream: a kernel group's WGS value.
int64_t countNonZeroWeightBytes(const void *stream, int64_t bytes, int64_t elementBytes);

/// The exact compressed layout from the WGS values (non-zero bytes of each
/// kernel group, per weight surface), as a packer that counts them piece by
/// piece has them. Checks their number and the 32-bit WGS limit.
Expected<CompressedWeightLayout>
planCompressedWeightsFromGroups(const NvdlaWeightLayout &layout,
                                std::vector<std::vector<int64_t>> groupBytes);

/// Compresses one weight surface straight into three separate places, as a
/// packer that keeps WGS, WMB and data in separate surfaces needs (no
/// compressed image, no copy), from the uncompressed stream given whole or
/// a piece at a time (the packer then never holds the whole stream).
/// `plan` (planCompressedWeights or ...FromGroups of the same stream) must
/// outlive the compressor; the constructor writes the WGS surface (wgsBytes,
/// padding included), add() the WMB bits and data of the next elements,
/// finish() the padding of WMB (to wmbBytes) and data (to dataBytes), and
/// reports a stream that no longer matches the plan.
class WeightSurfaceCompressor {
public:
  WeightSurfaceCompressor(const NvdlaWeightLayout &layout, const CompressedWeightLayout &plan,
                          size_t surface, void *wgs, void *wmb, void *data);
  /// The next `elements` elements of the surface's stream; every piece but
  /// the last must be a multiple of 8 elements (WMB bytes are not shared).
  Status add(const void *piece, int64_t elements);
  Status finish();

private:
  int64_t elementBytes;
  const CompressedWeightSurface *planned = nullptr;
  size_t surface;
  unsigned char *wmb, *data, *dataBegin, *dataLimit;
  int64_t done = 0; ///< elements compressed so far
  Status failed = Status::success();
};

/// WeightSurfaceCompressor over a whole uncompressed image in one piece.
Status compressWeightSurface(const NvdlaWeightLayout &layout, const CompressedWeightLayout &plan,
                             size_t surface, const void *uncompressed, int64_t uncompressedBytes,
                             void *wgs, void *wmb, void *data);

/// The three separate surfaces (WGS, WMB, data) a packer writes instead of
/// one compressed image: each weight surface's region of a kind starts at
/// `alignment` after the previous region of that kind. `regionOffsets` has
/// one entry per weight surface; `bytes` is the surface's total size.
struct SeparateSurfacePlan {
  std::vector<int64_t> regionOffsets;
  int64_t bytes = 0;
};

/// Plans the WGS (plans[0]), WMB (plans[1]) and data (plans[2]) surfaces of
/// `layout`. The WGS and WMB offsets do not depend on the data (the bound
/// gives them); data region i starts at nextSeparateDataRegion of region
/// i-1, so a reader finds it from the WGS values.
void planSeparateSurfaces(const CompressedWeightLayout &layout, int64_t alignment,
                          SeparateSurfacePlan plans[3]);

/// Checks that separate WGS, WMB and data surfaces (planSeparateSurfaces
/// with `alignment`) are consistent before anything reads them: every WGS
/// value equals the bytes its group's WMB bits mark, and every region lies
/// inside its surface. The error names the weight surface and kernel group.
/// `dataUsedBytes`, if given, receives each weight surface's data bytes (the
/// sum of its WGS values: what its CDMA reads, before padding).
Status checkSeparateSurfaces(const NvdlaWeightLayout &layout, int64_t alignment,
                             const void *wgs, int64_t wgsBytes, const void *wmb,
                             int64_t wmbBytes, int64_t dataBytes,
                             std::vector<int64_t> *dataUsedBytes = nullptr);

/// Where the data region after one at `offset` holding `dataUsedBytes` of
/// non-zero elements starts: padded to the data-size alignment, then at
/// `alignment`.
int64_t nextSeparateDataRegion(int64_t offset, int64_t dataUsedBytes, int64_t alignment);

/// Which elements of the uncompressed storage image separate surfaces hold
/// as non-zero: one flag per element (index = byte offset in the image /
/// element bytes), read from the WMB surface (planSeparateSurfaces with
/// `alignment`); padding reads as zero. Call after checkSeparateSurfaces.
std::vector<bool> readSeparateWeightMask(const NvdlaWeightLayout &layout, int64_t alignment,
                                         const void *wmb);

/// Restores the exact uncompressed storage image (layout.getStorageBytes()
/// bytes, padding included). Reports inconsistent WGS / WMB / data.
Status decompressWeights(const NvdlaWeightLayout &layout, const void *compressed,
                         int64_t compressedBytes, void *uncompressed,
                         int64_t uncompressedBytes);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAWEIGHTCOMPRESSION_H
