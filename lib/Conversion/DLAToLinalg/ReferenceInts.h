//===- ReferenceInts.h - i64 arithmetic for the integer units -*- C++ -*-===//
//
// The scalar integer IR the units' reference lowerings build in their
// linalg bodies (the SDP stages, the SDP and CDP lookup tables): i64 values
// holding the hardware's fields, i1 flags.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEINTS_H
#define DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEINTS_H

#include "ReferenceArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::dla::reference {

/// i64 / i1 arithmetic at one insertion point.
struct Ints {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v); }
  Value flag(bool v) { return arith::ConstantIntOp::create(b, loc, b.getI1Type(), v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value shr(Value x, Value n) { return arith::ShRSIOp::create(b, loc, x, n); }
  /// Wraps, as the C model's int64 shifts do; n < 64.
  Value shl(Value x, Value n) { return arith::ShLIOp::create(b, loc, x, n); }
  Value band(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value bnot(Value x) { return arith::XOrIOp::create(b, loc, x, flag(true)); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value lt(Value x, Value y) { return cmp(arith::CmpIPredicate::slt, x, y); }
  Value le(Value x, Value y) { return cmp(arith::CmpIPredicate::sle, x, y); }
  Value gt(Value x, Value y) { return cmp(arith::CmpIPredicate::sgt, x, y); }
  Value ge(Value x, Value y) { return cmp(arith::CmpIPredicate::sge, x, y); }
  Value ne(Value x, Value y) { return cmp(arith::CmpIPredicate::ne, x, y); }
  Value sel(Value cond, Value x, Value y) { return arith::SelectOp::create(b, loc, cond, x, y); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value sat(Value v, unsigned bits) { return saturateSigned(b, loc, v, bits); }
  Value rha(Value v, int64_t shift) { return shiftRightHalfAway(b, loc, v, shift); }
  /// floor(log2(v)) for v >= 1.
  Value log2(Value v) { return sub(c(63), math::CountLeadingZerosOp::create(b, loc, v)); }

  /// SAT_bits(v << n) for 0 <= n < bits - 1, exact for any i64 v.
  Value shlSat(Value v, int64_t n, unsigned bits) {
    const int64_t hi = (int64_t(1) << (bits - 1)) - 1, lo = -(int64_t(1) << (bits - 1));
    Value shifted = shl(v, c(n));
    return sel(gt(v, c(hi >> n)), c(hi), sel(lt(v, c(lo >> n)), c(lo), shifted));
  }
  /// A signed shift register: SAT_bits(RHA(v, shift)), a negative shift
  /// multiplying (the C model's convert / IntSignedShiftRight).
  Value signedShift(Value v, int64_t shift, unsigned bits) {
    return shift >= 0 ? sat(rha(v, shift), bits) : shlSat(v, -shift, bits);
  }

  /// A table as a constant tensor and its entry at a (clamped) i64 index.
  Value table(ArrayRef<int64_t> entries) {
    auto type = RankedTensorType::get({int64_t(entries.size())}, b.getI64Type());
    return arith::ConstantOp::create(b, loc, DenseIntElementsAttr::get(type, entries));
  }
  Value entry(Value table, Value idx, int64_t last) {
    Value i = min(max(idx, c(0)), c(last));
    Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
    return tensor::ExtractOp::create(b, loc, table, ValueRange{index});
  }
};

} // namespace mlir::dla::reference

#endif // DLA_LIB_CONVERSION_DLATOLINALG_REFERENCEINTS_H
