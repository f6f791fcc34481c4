//===- ReferenceCdma.cpp - CDMA's input converter on the CPU -------------===//
//
// The arithmetic of NVIDIA's C model (cmod/hls/cdma_libs/cdma_cvt.cpp,
// modelled by utils/dla-ref/int_conv.py): x - offset exact in 18 bits, the
// product exact in 34, IntShiftRight<34, 6, 17> (half away from zero, then
// 17-bit saturation), IntSaturation to the pipeline's 8 or 16 bits. Pixels
// read unsigned unless the element type is signed (PIXEL_SIGN_OVERRIDE).
//
//===----------------------------------------------------------------------===//

#include "ReferenceArith.h"
#include "ReferenceCdma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;

/// The converter's 17-bit value per element, `finish` making the result
/// element (of type `to`) from it.
static Value convertElements(OpBuilder &b, Location loc, ConvOp op, Value x, Type to,
                             function_ref<Value(OpBuilder &, Location, Value)> finish) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  NumberType from = NumberType::of(xType.getElementType());
  auto fromType = cast<IntegerType>(from.type);
  CvtAttr cvt = op.getInputCvtAttr();
  std::optional<ArrayRef<int64_t>> mean = op.getMean();
  const int64_t offset = cvt ? cvt.getOffset() : 0, scale = cvt ? cvt.getScale() : 1,
                shift = cvt ? cvt.getShift() : 0;

  Type i64 = b.getI64Type();
  SmallVector<Value> inputs = {x};
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(4, ctx)};
  if (mean) {
    // One register per pixel component, the image's channel (at most 4).
    SmallVector<int64_t> perChannel(xType.getDimSize(1), 0);
    for (size_t c = 0; c < perChannel.size(); ++c)
      perChannel[c] = (*mean)[c];
    auto meanType = RankedTensorType::get({xType.getDimSize(1)}, i64);
    inputs.push_back(arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(meanType, ArrayRef<int64_t>(perChannel))));
    maps.push_back(AffineMap::get(4, 0, {getAffineDimExpr(1, ctx)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value init = tensor::EmptyOp::create(b, loc, xType.getShape(), to);
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto c = [&](int64_t v) { return Value(arith::ConstantIntOp::create(nb, l, i64, v)); };
        Value v = args[0];
        // arith takes signless integers (as convertTensor reads ui8).
        if (v.getType() != from.type)
          v = UnrealizedConversionCastOp::create(nb, l, from.type, v).getResult(0);
        if (fromType.getWidth() < 64)
          v = from.isUnsigned ? Value(arith::ExtUIOp::create(nb, l, i64, v))
                              : Value(arith::ExtSIOp::create(nb, l, i64, v));
        Value off = mean ? args[1] : c(offset);
        Value t = arith::MulIOp::create(nb, l, arith::SubIOp::create(nb, l, v, off), c(scale));
        t = saturateSigned(nb, l, shiftRightHalfAway(nb, l, t, shift), 17);
        linalg::YieldOp::create(nb, l, finish(nb, l, t));
      });
  return generic.getResult(0);
}

Value reference::cdmaInputConverter(OpBuilder &b, Location loc, ConvOp op, Value x,
                                    unsigned bits) {
  NumberType from = NumberType::of(cast<RankedTensorType>(x.getType()).getElementType());
  // The identity converter on signed data of the pipeline's width.
  if (!op.getInputCvtAttr() && !from.isUnsigned && from.type.getIntOrFloatBitWidth() == bits)
    return x;
  Type to = b.getIntegerType(bits);
  return convertElements(b, loc, op, x, to, [&](OpBuilder &nb, Location l, Value t) {
    return Value(arith::TruncIOp::create(nb, l, to, saturateSigned(nb, l, t, bits)));
  });
}

Value reference::cdmaInputConverterFp16(OpBuilder &b, Location loc, ConvOp op, Value x) {
  Type f16 = b.getF16Type(), f32 = b.getF32Type();
  return convertElements(b, loc, op, x, f16, [&](OpBuilder &nb, Location l, Value t) {
    // Int17ToFp16: exact in fp32, then rounded to nearest even (fptrunc);
    // NVDLA's overflow is the largest finite value, not infinity.
    Value v = arith::TruncFOp::create(nb, l, f16, arith::SIToFPOp::create(nb, l, f32, t));
    auto bound = [&](double d) {
      return Value(arith::ConstantOp::create(nb, l, f16, nb.getFloatAttr(f16, d)));
    };
    v = arith::MinimumFOp::create(nb, l, v, bound(65504.0));
    return Value(arith::MaximumFOp::create(nb, l, v, bound(-65504.0)));
  });
}
