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

/// Restores the exact uncompressed storage image (layout.getStorageBytes()
/// bytes, padding included). Reports inconsistent WGS / WMB / data.
Status decompressWeights(const NvdlaWeightLayout &layout, const void *compressed,
                         int64_t compressedBytes, void *uncompressed,
                         int64_t uncompressedBytes);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAWEIGHTCOMPRESSION_H
