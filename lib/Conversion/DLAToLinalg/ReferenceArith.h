//===- ReferenceArith.h - Scalar and tensor arithmetic of the reference -===//
//
// The number handling shared by every layer's reference lowering: which
// type a pipeline precision computes in, and the conversions between
// storage and pipeline types with NVDLA's rounding (nearest-even to fp16 with
// overflow clipped to the largest normal, half away from zero to integers,
// saturation everywhere).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEARITH_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEARITH_H

#include "dla/Format/NvdlaConversion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::dla::reference {

/// A value's number kind: its element type as arithmetic sees it (signless)
/// plus whether integers are unsigned (a `ui8` image).
struct NumberType {
  Type type;
  bool isUnsigned = false;

  static NumberType of(Type elementType);
  bool isFloat() const { return isa<FloatType>(type); }
};

/// The type a pipeline precision computes in: f32 for fp16 / fp32, i32 for
/// int8 and int32 convolution accumulators, i64 for int16 (CACC's 48 bits)
/// and for the SDP's int32 pipeline (so that bias, scale and element-wise
/// steps cannot wrap before the output saturates).
Type getAccumulatorType(MLIRContext *ctx, ::dlaformat::nvdla::PipelinePrecision p,
                        bool isSdp);

/// Converts a scalar between number types: widening is exact; float ->
/// narrower float rounds to nearest-even and clips overflow to the largest
/// finite value; float -> integer rounds half away from zero and saturates
/// (NaN -> 0); integer -> narrower integer saturates.
Value convertScalar(OpBuilder &b, Location loc, Value v, NumberType from, NumberType to);

/// `v` (i64) shifted right by `shift` rounding half away from zero (the C
/// model's AC_RND_INF / RHA), for |v| <= 2^62 and any shift >= 0.
Value shiftRightHalfAway(OpBuilder &b, Location loc, Value v, int64_t shift);
/// `v` (i64) saturated to a signed `bits`-bit range.
Value saturateSigned(OpBuilder &b, Location loc, Value v, unsigned bits);
/// CACC's delivery of an integer accumulator `v`:
/// SAT32(RHA(v, clipTruncate)), in `v`'s type.
Value caccDelivery(OpBuilder &b, Location loc, Value v, int64_t clipTruncate);

/// The SDP's output converter on an integer pipeline value `v` (signless
/// integer of `v`'s type): SAT17(RHA((SAT32(v) - offset) * scale, shift)),
/// as the C model's NV_NVDLA_SDP_CORE_c computes it (the product is exact
/// in 49 bits), in `v`'s type.
Value sdpOutputConverter(OpBuilder &b, Location loc, Value v, int64_t offset, int64_t scale,
                         int64_t shift);

/// Element-wise conversion of a whole static tensor to `to` (one
/// linalg.generic; unsigned elements are read as their signless bits and
/// zero-extended); returns `tensor` unchanged when nothing changes.
Value convertTensor(OpBuilder &b, Location loc, Value tensor, NumberType from, NumberType to);

/// A tensor of `shape` filled with `value`.
Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Value value);

/// The scalar constant `value` of a float or integer type.
Value scalarConstant(OpBuilder &b, Location loc, Type type, double value);

/// The largest / smallest value of a type (+-inf for floats).
Value extremeConstant(OpBuilder &b, Location loc, Type type, bool largest);

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEARITH_H
