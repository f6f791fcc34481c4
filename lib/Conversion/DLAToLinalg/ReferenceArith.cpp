//===- ReferenceArith.cpp - Scalar and tensor arithmetic of the reference -===//

#include "ReferenceArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;

NumberType NumberType::of(Type elementType) {
  if (auto i = dyn_cast<IntegerType>(elementType))
    return {IntegerType::get(i.getContext(), i.getWidth()), i.isUnsigned()};
  return {elementType, false};
}

Type reference::getAccumulatorType(MLIRContext *ctx, nv::PipelinePrecision p, bool isSdp) {
  switch (p) {
  case nv::PipelinePrecision::Fp16:
  case nv::PipelinePrecision::Fp32:
    return Float32Type::get(ctx);
  case nv::PipelinePrecision::Int8:
    return IntegerType::get(ctx, 32);
  case nv::PipelinePrecision::Int16:
    return IntegerType::get(ctx, 64);
  case nv::PipelinePrecision::Int32:
    return IntegerType::get(ctx, isSdp ? 64 : 32);
  }
  llvm_unreachable("unknown pipeline precision");
}

Value reference::scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, value));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

Value reference::extremeConstant(OpBuilder &b, Location loc, Type type, bool largest) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc, b.getFloatAttr(f, llvm::APFloat::getInf(f.getFloatSemantics(), !largest)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt v = largest ? APInt::getSignedMaxValue(width) : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

namespace {

/// The float of type `f` nearest to `value` from below in magnitude, so that
/// clamping to it and converting never overflows the integer range.
Value boundConstant(OpBuilder &b, Location loc, FloatType f, double value) {
  llvm::APFloat v(value);
  bool lost = false;
  v.convert(f.getFloatSemantics(), llvm::APFloat::rmTowardZero, &lost);
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, v));
}

Value floatToFloat(OpBuilder &b, Location loc, Value v, FloatType from, FloatType to) {
  if (from.getWidth() < to.getWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  // NVDLA clips a result beyond the largest normal instead of producing inf;
  // minimumf / maximumf keep NaN, which NVDLA propagates.
  llvm::APFloat largest = llvm::APFloat::getLargest(to.getFloatSemantics());
  bool lost = false;
  largest.convert(from.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
  llvm::APFloat smallest = largest;
  smallest.changeSign();
  Value hi = arith::ConstantOp::create(b, loc, b.getFloatAttr(from, largest));
  Value lo = arith::ConstantOp::create(b, loc, b.getFloatAttr(from, smallest));
  v = arith::MinimumFOp::create(b, loc, v, hi);
  v = arith::MaximumFOp::create(b, loc, v, lo);
  return arith::TruncFOp::create(b, loc, to, v);
}

Value floatToInt(OpBuilder &b, Location loc, Value v, FloatType from, IntegerType to) {
  // Bounds of wide integers are only exact in f64.
  FloatType f64 = Float64Type::get(b.getContext());
  if (from.getWidth() < 64) {
    v = arith::ExtFOp::create(b, loc, f64, v);
    from = f64;
  }
  unsigned width = to.getWidth();
  double hi = std::ldexp(1.0, static_cast<int>(width) - 1) - 1.0;
  double lo = -std::ldexp(1.0, static_cast<int>(width) - 1);
  Value rounded = math::RoundOp::create(b, loc, v); // half away from zero
  Value clamped = arith::MinimumFOp::create(b, loc, rounded, boundConstant(b, loc, from, hi));
  clamped = arith::MaximumFOp::create(b, loc, clamped, boundConstant(b, loc, from, lo));
  Value asInt = arith::FPToSIOp::create(b, loc, to, clamped);
  Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  return arith::SelectOp::create(b, loc, isNan, scalarConstant(b, loc, to, 0), asInt);
}

Value intToInt(OpBuilder &b, Location loc, Value v, IntegerType from, bool isUnsigned,
               IntegerType to) {
  if (from.getWidth() < to.getWidth())
    return isUnsigned ? Value(arith::ExtUIOp::create(b, loc, to, v))
                      : Value(arith::ExtSIOp::create(b, loc, to, v));
  if (from.getWidth() == to.getWidth() && !isUnsigned)
    return v;
  // Saturate to the narrower signed range (an unsigned source of the same
  // width only needs its upper bound).
  unsigned w = to.getWidth();
  Value hi = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(from, APInt::getSignedMaxValue(w).zext(from.getWidth())));
  if (isUnsigned) {
    v = arith::MinUIOp::create(b, loc, v, hi);
  } else {
    Value lo = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(from, APInt::getSignedMinValue(w).sext(from.getWidth())));
    v = arith::MinSIOp::create(b, loc, v, hi);
    v = arith::MaxSIOp::create(b, loc, v, lo);
  }
  if (from.getWidth() == w)
    return v;
  return arith::TruncIOp::create(b, loc, to, v);
}

} // namespace

Value reference::convertScalar(OpBuilder &b, Location loc, Value v, NumberType from,
                               NumberType to) {
  if (from.type == to.type && from.isUnsigned == to.isUnsigned)
    return v;
  auto fromF = dyn_cast<FloatType>(from.type);
  auto toF = dyn_cast<FloatType>(to.type);
  if (fromF && toF)
    return floatToFloat(b, loc, v, fromF, toF);
  if (fromF)
    return floatToInt(b, loc, v, fromF, cast<IntegerType>(to.type));
  auto fromI = cast<IntegerType>(from.type);
  if (toF) {
    // Through f32 (exact for every pipeline integer below 2^24 and rounded
    // nearest-even above) so that a narrower float clips instead of
    // overflowing to inf.
    FloatType f32 = Float32Type::get(b.getContext());
    FloatType mid = toF.getWidth() < 32 ? f32 : toF;
    Value f = from.isUnsigned ? Value(arith::UIToFPOp::create(b, loc, mid, v))
                              : Value(arith::SIToFPOp::create(b, loc, mid, v));
    return mid == toF ? f : floatToFloat(b, loc, f, mid, toF);
  }
  return intToInt(b, loc, v, fromI, from.isUnsigned, cast<IntegerType>(to.type));
}

Value reference::shiftRightHalfAway(OpBuilder &b, Location loc, Value v, int64_t shift) {
  if (shift <= 0)
    return v;
  Type i64 = b.getI64Type();
  auto c = [&](int64_t x) { return Value(arith::ConstantIntOp::create(b, loc, i64, x)); };
  // On the magnitude, |v| <= 2^62 (the SDP Y stage's widest product):
  // beyond shift 62 only 2^62 itself reaches one half (shift 63).
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, c(0));
  Value magnitude =
      arith::SelectOp::create(b, loc, negative, arith::SubIOp::create(b, loc, c(0), v), v);
  Value q;
  if (shift >= 64) {
    q = c(0);
  } else if (shift == 63) {
    Value half = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, magnitude,
                                       c(int64_t(1) << 62));
    q = arith::ExtUIOp::create(b, loc, i64, half);
  } else {
    q = arith::ShRSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, magnitude, c(int64_t(1) << (shift - 1))),
        c(shift));
  }
  return arith::SelectOp::create(b, loc, negative, arith::SubIOp::create(b, loc, c(0), q), q);
}

Value reference::saturateSigned(OpBuilder &b, Location loc, Value v, unsigned bits) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t x) { return Value(arith::ConstantIntOp::create(b, loc, i64, x)); };
  const int64_t hi = (int64_t(1) << (bits - 1)) - 1;
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, c(-hi - 1)), c(hi));
}

Value reference::sdpOutputConverter(OpBuilder &b, Location loc, Value v, int64_t offset,
                                    int64_t scale, int64_t shift) {
  auto type = cast<IntegerType>(v.getType());
  Type i64 = b.getI64Type();
  auto c = [&](int64_t x) { return Value(arith::ConstantIntOp::create(b, loc, i64, x)); };
  Value x = type.getWidth() < 64 ? Value(arith::ExtSIOp::create(b, loc, i64, v)) : v;
  x = saturateSigned(b, loc, x, 32);
  // Exact in 49 bits.
  Value t = arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, x, c(offset)), c(scale));
  t = saturateSigned(b, loc, shiftRightHalfAway(b, loc, t, shift), 17);
  return type.getWidth() < 64 ? Value(arith::TruncIOp::create(b, loc, type, t)) : t;
}

Value reference::caccDelivery(OpBuilder &b, Location loc, Value v, int64_t clipTruncate) {
  auto type = cast<IntegerType>(v.getType());
  Type i64 = b.getI64Type();
  Value x = type.getWidth() < 64 ? Value(arith::ExtSIOp::create(b, loc, i64, v)) : v;
  x = saturateSigned(b, loc, shiftRightHalfAway(b, loc, x, clipTruncate), 32);
  return type.getWidth() < 64 ? Value(arith::TruncIOp::create(b, loc, type, x)) : x;
}

Value reference::convertTensor(OpBuilder &b, Location loc, Value tensor, NumberType from,
                               NumberType to) {
  if (from.type == to.type && from.isUnsigned == to.isUnsigned)
    return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), to.type);
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{tensor}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // arith takes signless integers only; the cast disappears in the LLVM
        // lowering, where ui8 and i8 are both i8 (as in tosa-to-linalg).
        Value v = args[0];
        if (v.getType() != from.type)
          v = UnrealizedConversionCastOp::create(nb, nloc, from.type, v).getResult(0);
        linalg::YieldOp::create(nb, nloc, convertScalar(nb, nloc, v, from, to));
      });
  return generic.getResult(0);
}

Value reference::filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Value value) {
  Value init = tensor::EmptyOp::create(b, loc, shape, value.getType());
  return linalg::FillOp::create(b, loc, value, init).getResult(0);
}
