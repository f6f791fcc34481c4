//===- ReferencePdp.h - PDP's integer average on the CPU --------*- C++ -*-===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEPDP_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEPDP_H

#include "dla/Dialect/DLA/IR/DLA.h"

namespace mlir::dla::reference {

/// PDP's integer average pooling (utils/dla-ref/int_pdp.pdp_pool): `sum` is
/// the plain NCHW window sum of the valid positions (an integer tensor, zero
/// padding); the result, plain in `op`'s output element type, adds the
/// padding registers, wraps in the line buffer and multiplies by the two
/// reciprocals with their roundings.
Value pdpIntegerAverage(OpBuilder &b, Location loc, PoolOp op, Value sum);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEPDP_H
