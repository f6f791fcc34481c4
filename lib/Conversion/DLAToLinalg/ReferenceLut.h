//===- ReferenceLut.h - The LUT arithmetic of the SDP and the CDP -*- C++ -*-===//
//
// Scalar IR (i64 arith) computing NVDLA's lookup tables bit-exactly, for
// the reference lowering's linalg bodies: the CDP's (int_cdp.cdp_lut, 16-bit
// interpolation fraction, used by dla.lrn) and the SDP Y stage's
// (int_sdp_lut.sdp_lut, 35-bit fraction, for dla.sdp's ew.lut), and the
// SDP's float-mode LUT of an fp16 layer. The registers are compile-time
// constants; the tables become constant tensors.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCELUT_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCELUT_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaLrn.h"

#include "mlir/IR/Builders.h"

namespace mlir::dla::reference {

/// The CDP LUT on the square sum `s` (i64, |s| < 2^38): the int16 result as
/// i64. `bits` (8 or 16) is the LRN's precision, which decides how the
/// index selects are read.
Value cdpLookup(OpBuilder &b, Location loc, Value s, const ::dlaformat::nvdla::LutProgram &lut,
                int bits);

/// The SDP Y stage's LUT on `v` (i64 holding a 32-bit value): the int32
/// result as i64. The caller has verified `lut` against the SDP's ranges
/// (verifyLutRegisters with LutUnit::Sdp).
Value sdpLookup(OpBuilder &b, Location loc, Value v, LutAttr lut);

/// The SDP's LUT in float mode as an offline fp16 layer computes it on
/// `h` (f16): widened, looked up, rounded by the output converter, the f16
/// result. The format library computes the answer to every one of the
/// 65,536 fp16 inputs once (sdpLookupFloatFp16Table); the body reads it.
Value sdpLookupFloatFp16(OpBuilder &b, Location loc, Value h, LutAttr lut);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCELUT_H
