//===- StorageDecompress.h - Compressed weights decompressed in code -*- C++ -*-===//
//
// What --dla-lower-buffers-to-reference emits to read compressed weights
// from their three surfaces (WGS, WMB, data), as the convolution DMA does:
// the geometry comes from the format library that packed them.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_CONVERSION_DLATOMEMREF_STORAGEDECOMPRESS_H
#define DLA_CONVERSION_DLATOMEMREF_STORAGEDECOMPRESS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::dla {

/// `type` (compressed weights) without its compression: the type whose
/// storage the decompressed image is.
RankedTensorType getUncompressedWeightType(RankedTensorType type);

/// Code that restores the uncompressed storage image (memref<BYTES x i8>
/// of getUncompressedWeightType) of compressed weights of logical type
/// `type` from their surfaces `wgs`, `wmb` and `data` at run time.
Value emitDecompressWeights(OpBuilder &b, Location loc, RankedTensorType type, Value wgs,
                            Value wmb, Value data);

} // namespace mlir::dla

#endif // DLA_CONVERSION_DLATOMEMREF_STORAGEDECOMPRESS_H
