//===- ReferenceWinograd.h - Winograd convolution from stored taps -*- C++ -*-===//
//
// The storage form of a Winograd dla.conv: its weight operand is the
// stored transformed taps (G g G^T, 4x4 per kernel and extended channel),
// and the convolution is computed as the hardware computes it, in the
// transformed domain (docs/ReferenceSemantics.md, "Winograd from storage").
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEWINOGRAD_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEWINOGRAD_H

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/Builders.h"

namespace mlir::dla::reference {

/// Whether `type` is a tensor of Winograd weights (uncompressed).
bool isWinogradWeight(RankedTensorType type);

/// Reads the stored taps of Winograd weights of logical type `type` from
/// their storage bytes `storage` (memref<BYTES x i8>) into a
/// tensor<K x C' x 4 x 4> (C' extended channels), returned behind an
/// unrealized cast to the plain logical weight type, so that the cloned
/// dla.conv still verifies; the conv's reference pattern takes the taps
/// from there (getWinogradTaps).
Value emitWinogradTaps(OpBuilder &b, Location loc, RankedTensorType type, Value storage);

/// The tensor form's Winograd weights: the stored taps (as getWinogradTaps
/// returns them; the carrying cast is left dead) of `weight` (an
/// encoded tensor value, not yet storage) read from its storage bytes
/// (dla.to_storage, packed later by --dla-pack-weights), compressed weights
/// from their packed surfaces (decompressed in code) or from the dense
/// stream of the relayout that makes them (compression is lossless). Null
/// when `weight` is no Winograd weight or its storage cannot be named.
Value emitWinogradTapsOfTensor(OpBuilder &b, Location loc, Value weight);

/// The taps tensor behind `weight` when emitWinogradTaps made it, else null.
Value getWinogradTaps(Value weight);

/// The convolution sum of `op` (stride 1 or channel-extended) in the
/// transformed domain: `x` is the plain NCHW input already in `acc`'s type
/// (after the input converter), `taps` the stored taps. Returns the sum
/// tensor<N x K x OH x OW x acc>.
Value winogradConvSum(OpBuilder &b, Location loc, ConvOp op, Value x, Value taps, Type acc,
                      int64_t padValue);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEWINOGRAD_H
