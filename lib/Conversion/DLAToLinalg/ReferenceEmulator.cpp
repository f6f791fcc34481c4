//===- ReferenceEmulator.cpp - NVIDIA's runtime emulator, to the bit ------===//
//
// dla.emu_softmax / dla.emu_power as Emulator::executeSoftmax / executePower
// compute int8 data (umd/core/src/runtime/Emulator.cpp): float arithmetic
// in the code's order, fp16 steps rounded as NVIDIA's half.h does (to
// nearest, ties away from zero: HALF_ROUND_STYLE 1,
// HALF_ROUND_TIES_TO_EVEN 0), expf / powf from libm (math.exp / math.powf
// become those calls), and saturate<float, int8>'s clamp and truncating
// cast. Encoded operands are read and written through dla.relayout, as the
// emulator reads the cube through its strides.
//
//===----------------------------------------------------------------------===//

#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;

namespace {

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value f32(OpBuilder &b, Location loc, float v) {
  return arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(v));
}

/// `f` rounded to fp16 to nearest with ties away from zero, widened back
/// to f32 (half.h's float2half<round_to_nearest> then half2float). On the
/// bits: a normal half keeps the top 10 fraction bits and adds the first
/// dropped one; a subnormal is the significand shifted to units of 2^-24,
/// rounded the same way; 65520 and above overflow to infinity, NaN stays
/// NaN.
Value roundToHalfTiesAway(OpBuilder &b, Location loc, Value f) {
  auto ult = [&](Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, i32(b, loc, c));
  };
  auto shr = [&](Value x, Value s) { return arith::ShRUIOp::create(b, loc, x, s); };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); };
  auto andi = [&](Value x, int64_t m) { return arith::AndIOp::create(b, loc, x, i32(b, loc, m)); };
  auto select = [&](Value c, Value t, Value e) { return arith::SelectOp::create(b, loc, c, t, e); };

  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), f);
  Value sign = shr(andi(bits, 0x80000000LL), i32(b, loc, 16));
  Value a = andi(bits, 0x7FFFFFFF);
  // Normal: (a - bias difference) >> 13, plus the half-ulp bit.
  Value normal = add(shr(arith::SubIOp::create(b, loc, a, i32(b, loc, 0x38000000)), i32(b, loc, 13)),
                     andi(shr(a, i32(b, loc, 12)), 1));
  normal = arith::MinUIOp::create(b, loc, normal, i32(b, loc, 0x7C00));
  // Subnormal: (significand + half a unit) >> (126 - exponent); below
  // 2^-25 the shift is capped at 25, which gives 0.
  Value exponent = shr(a, i32(b, loc, 23));
  Value significand = arith::OrIOp::create(b, loc, andi(a, 0x7FFFFF), i32(b, loc, 0x800000));
  Value shift = arith::SubIOp::create(b, loc, i32(b, loc, 126), exponent);
  shift = arith::MinSIOp::create(b, loc, shift, i32(b, loc, 25));
  Value halfUnit = arith::ShLIOp::create(b, loc, i32(b, loc, 1),
                                         arith::SubIOp::create(b, loc, shift, i32(b, loc, 1)));
  Value subnormal = shr(add(significand, halfUnit), shift);
  Value magnitude = select(ult(a, 0x38800000), subnormal, normal);
  magnitude = select(ult(a, 0x7F800001), magnitude, i32(b, loc, 0x7E00));
  Value half = arith::TruncIOp::create(b, loc, b.getI16Type(),
                                       arith::OrIOp::create(b, loc, magnitude, sign));
  Value f16 = arith::BitcastOp::create(b, loc, b.getF16Type(), half);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), f16);
}

/// saturate<float, int8>: clamp to [-128, 127], cast truncating toward
/// zero. std::min / std::max pass NaN (a negative base to a fractional
/// power) through and x86's cvttss2si makes it 0x80000000, whose low byte
/// the int8 keeps: 0.
Value saturateToInt8(OpBuilder &b, Location loc, Value f) {
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, f, f);
  Value zero = f32(b, loc, 0.0f);
  f = arith::SelectOp::create(b, loc, nan, zero, f);
  f = arith::MinimumFOp::create(b, loc, f, f32(b, loc, 127.0f));
  f = arith::MaximumFOp::create(b, loc, f, f32(b, loc, -128.0f));
  return arith::FPToSIOp::create(b, loc, b.getI8Type(), f);
}

/// One linalg.generic: `inputs` read through `maps`, results of `types`
/// (each initialized by `inits`), `iterators` over the loop dimensions.
ValueRange generic(OpBuilder &b, Location loc, ValueRange inputs, ValueRange inits,
                   ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators,
                   function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  return linalg::GenericOp::create(b, loc, TypeRange(inits), inputs, inits, maps, iterators,
                                   [&](OpBuilder &nb, Location nl, ValueRange args) {
                                     linalg::YieldOp::create(nb, nl, body(nb, nl, args));
                                   })
      ->getResults();
}

Value emptyLike(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type element) {
  return tensor::EmptyOp::create(b, loc, shape, element);
}

/// Softmax over the C values of `x` (tensor<C x i8>).
Value softmax(OpBuilder &b, Location loc, Value x, float inScale, float outScale) {
  int64_t c = cast<RankedTensorType>(x.getType()).getDimSize(0);
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap toScalar = AffineMap::get(1, 0, {}, ctx);
  auto par = utils::IteratorType::parallel, red = utils::IteratorType::reduction;
  Type f32Type = b.getF32Type();
  // pHalfSrc[ii] = pSrc[ii] * input_scale_factor
  Value h = generic(b, loc, {x}, {emptyLike(b, loc, {c}, f32Type)}, {id, id}, {par},
                    [&](OpBuilder &nb, Location nl, ValueRange a) -> SmallVector<Value> {
                      Value v = arith::SIToFPOp::create(nb, nl, f32Type, a[0]);
                      v = arith::MulFOp::create(nb, nl, v, f32(nb, nl, inScale));
                      return {roundToHalfTiesAway(nb, nl, v)};
                    })[0];
  auto scalarInit = [&](float v) {
    return linalg::FillOp::create(b, loc, ValueRange{f32(b, loc, v)},
                                  ValueRange{emptyLike(b, loc, {}, f32Type)})
        .getResult(0);
  };
  // maxval: the largest of them (no NaN: finite int8 times a finite scale).
  Value maxval = generic(b, loc, {h}, {scalarInit(-INFINITY)}, {id, toScalar}, {red},
                         [&](OpBuilder &nb, Location nl, ValueRange a) -> SmallVector<Value> {
                           return {arith::MaximumFOp::create(nb, nl, a[0], a[1])};
                         })[0];
  auto expOf = [&](OpBuilder &nb, Location nl, Value v, Value m) -> Value {
    return math::ExpOp::create(nb, nl, arith::SubFOp::create(nb, nl, v, m));
  };
  // sumexp += expf(pHalfSrc[ii] - maxval), in channel order.
  Value sumexp = generic(b, loc, {h, maxval}, {scalarInit(0.0f)}, {id, toScalar, toScalar}, {red},
                         [&](OpBuilder &nb, Location nl, ValueRange a) -> SmallVector<Value> {
                           return {arith::AddFOp::create(nb, nl, a[2], expOf(nb, nl, a[0], a[1]))};
                         })[0];
  // pHalfDst = half(expf(...) / sumexp); pDst = saturate(pHalfDst / output_scale_factor)
  return generic(b, loc, {h, maxval, sumexp}, {emptyLike(b, loc, {c}, b.getI8Type())},
                 {id, toScalar, toScalar, id}, {par},
                 [&](OpBuilder &nb, Location nl, ValueRange a) -> SmallVector<Value> {
                   Value p = arith::DivFOp::create(nb, nl, expOf(nb, nl, a[0], a[1]), a[2]);
                   p = roundToHalfTiesAway(nb, nl, p);
                   p = arith::DivFOp::create(nb, nl, p, f32(nb, nl, outScale));
                   return {saturateToInt8(nb, nl, p)};
                 })[0];
}

/// The plain (unencoded) value of `v`, through a relayout when encoded.
Value plain(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.getEncoding())
    return v;
  return RelayoutOp::create(b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
                            v);
}

/// `v` (plain) in `type`'s encoding.
Value encoded(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  return type.getEncoding() ? RelayoutOp::create(b, loc, type, v).getResult() : v;
}

struct SoftmaxToLinalg : OpRewritePattern<EmuSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(EmuSoftmaxOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t c = type.getDimSize(1);
    auto flat = RankedTensorType::get({c}, type.getElementType());
    auto plainType = RankedTensorType::get(type.getShape(), type.getElementType());
    SmallVector<ReassociationIndices> all = {{0, 1, 2, 3}};
    Value x = tensor::CollapseShapeOp::create(rewriter, loc, flat, plain(rewriter, loc, op.getInput()),
                                              all);
    Value y = softmax(rewriter, loc, x, op.getInputScaleFactor(), op.getOutputScaleFactor());
    y = tensor::ExpandShapeOp::create(rewriter, loc, plainType, y, all);
    rewriter.replaceOp(op, encoded(rewriter, loc, y, type));
    return success();
  }
};

struct PowerToLinalg : OpRewritePattern<EmuPowerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(EmuPowerOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    const float inScale = op.getInputScaleFactor(), outScale = op.getOutputScaleFactor();
    const float power = op.getPower().convertToFloat(), scale = op.getScale().convertToFloat(),
                shift = op.getShift().convertToFloat();
    AffineMap id = AffineMap::getMultiDimIdentityMap(4, rewriter.getContext());
    SmallVector<utils::IteratorType> par(4, utils::IteratorType::parallel);
    Value y = generic(
        rewriter, loc, {plain(rewriter, loc, op.getInput())},
        {emptyLike(rewriter, loc, type.getShape(), type.getElementType())}, {id, id}, par,
        [&](OpBuilder &b, Location l, ValueRange a) -> SmallVector<Value> {
          // x = float(x) * input_scale; y = powf(shift + scale * x, power) / output_scale
          Value x = arith::SIToFPOp::create(b, l, b.getF32Type(), a[0]);
          x = arith::MulFOp::create(b, l, x, f32(b, l, inScale));
          Value base = arith::AddFOp::create(b, l, f32(b, l, shift),
                                             arith::MulFOp::create(b, l, f32(b, l, scale), x));
          Value v = math::PowFOp::create(b, l, base, f32(b, l, power));
          v = arith::DivFOp::create(b, l, v, f32(b, l, outScale));
          return {saturateToInt8(b, l, v)};
        })[0];
    rewriter.replaceOp(op, encoded(rewriter, loc, y, type));
    return success();
  }
};

} // namespace

void mlir::dla::populateEmulatorReferencePatterns(RewritePatternSet &patterns) {
  patterns.add<SoftmaxToLinalg, PowerToLinalg>(patterns.getContext());
}
