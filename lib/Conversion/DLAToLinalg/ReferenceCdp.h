//===- ReferenceCdp.h - Integer LRN on the CDP's arithmetic -----*- C++ -*-===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCECDP_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCECDP_H

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/Builders.h"

namespace mlir::dla::reference {

/// An integer dla.lrn on its plain (row-major, unencoded) input `x`, bit-
/// exactly as utils/dla-ref/int_cdp.py cdp_lrn: input converter, square sum
/// over `size` channels (channels outside the cube add 0), the LUT, product
/// with the converted input, output converter. Returns the plain result.
Value integerLrn(OpBuilder &b, Location loc, LrnOp op, Value x);

/// LRN's square sum of NCHW `x` over a window of `size` channels centred on
/// each (channels outside the cube add 0): one linalg.generic, in `x`'s
/// element type (integer or float). Both LRN references build it here.
Value channelSquareSum(OpBuilder &b, Location loc, Value x, int64_t size);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCECDP_H
