//===- ReferenceCdp.cpp - Integer LRN on the CDP's arithmetic ------------===//
//
// Three linalg.generic ops in i64: convert the input, sum the squares over
// the channel window (zero-padded: a missing channel adds 0, as the C
// model's DATIN_OFFSET fill does for int8), then look up, multiply and
// convert the output. The tables and converters are the stated ones or the
// format library's derived ones (getLrnTables), so that the register writer
// and this lowering agree.
//
//===----------------------------------------------------------------------===//

#include "ReferenceCdp.h"
#include "ReferenceArith.h"
#include "ReferenceLut.h"

#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;

namespace {

/// One element-wise linalg.generic over same-shaped `inputs`.
Value mapElements(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type element,
                  ValueRange inputs, function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  unsigned rank = shape.size();
  SmallVector<AffineMap> maps(inputs.size() + 1, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, shape, element);
  return linalg::GenericOp::create(
             b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, body(nb, nl, args.drop_back()));
             })
      .getResult(0);
}

Value constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

int64_t wrap(int64_t v, int bits) {
  const int64_t m = int64_t(1) << bits;
  return ((v + (m >> 1)) & (m - 1)) - (m >> 1);
}

/// SAT_bits(RHA((v - offset) * scale, shift)): the CDP's converters
/// (|v - offset| < 2^33, so the product is exact).
Value convert(OpBuilder &b, Location loc, Value v, const nv::CvtRegisters &cvt, int64_t offset,
              unsigned bits) {
  Value t = arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, v, constant(b, loc, offset)),
                                  constant(b, loc, cvt.scale));
  return saturateSigned(b, loc, shiftRightHalfAway(b, loc, t, cvt.shift), bits);
}

} // namespace

Value reference::channelSquareSum(OpBuilder &b, Location loc, Value x, int64_t size) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  Type element = xType.getElementType();
  auto [before, after] = ::dlaformat::centredWindowPadding(size);
  // The verifier checked the padded channel extent (for static channels).
  SmallVector<int64_t> padded(xType.getShape());
  if (!ShapedType::isDynamic(padded[1]))
    padded[1] = *::dlaformat::paddedExtent(padded[1], before, after);
  Value zero = scalarConstant(b, loc, element, 0);
  auto at = [&](int64_t c) {
    return SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(c), b.getIndexAttr(0),
                                     b.getIndexAttr(0)};
  };
  Value xp = tensor::PadOp::create(b, loc, xType.clone(padded), x, at(before), at(after), zero);
  Value window = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{size}, element);
  Value init = filledTensor(b, loc, xType.getShape(), zero);
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  // (n, c, h, w, i): padded channel c + i.
  SmallVector<AffineMap> maps = {AffineMap::get(5, 0, {d(0), d(1) + d(4), d(2), d(3)}, ctx),
                                 AffineMap::get(5, 0, {d(4)}, ctx),
                                 AffineMap::get(5, 0, {d(0), d(1), d(2), d(3)}, ctx)};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  bool integer = element.isInteger();
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{xp, window}, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value sum = integer
                               ? arith::AddIOp::create(
                                     nb, l, args[2], arith::MulIOp::create(nb, l, args[0], args[0]))
                                     .getResult()
                               : arith::AddFOp::create(
                                     nb, l, args[2], arith::MulFOp::create(nb, l, args[0], args[0]))
                                     .getResult();
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

Value reference::integerLrn(OpBuilder &b, Location loc, LrnOp op, Value x) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto outType = cast<RankedTensorType>(op.getOutput().getType());
  Type outElement = outType.getElementType();
  const int bits = int(outElement.getIntOrFloatBitWidth());
  const nv::LrnTables tables = getLrnTables(op);
  auto xType = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> shape = xType.getShape();

  // Input converter: int8 meets the offset's low 8 bits.
  const int64_t inOffset = bits == 8 ? wrap(tables.in.offset, 8) : tables.in.offset;
  Value xc = mapElements(b, loc, shape, i64, ValueRange{x}, [&](OpBuilder &nb, Location l,
                                                                ValueRange args) {
    Value v = arith::ExtSIOp::create(nb, l, nb.getI64Type(), args[0]);
    return convert(nb, l, v, tables.in, inOffset, bits + 1);
  });

  Value squares = channelSquareSum(b, loc, xc, op.getSize());

  // LUT, product with the converted input, output converter: int8 meets
  // the offset's low 25 bits.
  const int64_t outOffset = bits == 8 ? wrap(tables.out.offset, 25) : tables.out.offset;
  return mapElements(b, loc, shape, outElement, ValueRange{xc, squares},
                     [&](OpBuilder &nb, Location l, ValueRange args) {
                       Value r = cdpLookup(nb, l, args[1], tables.lut, bits);
                       Value v = arith::MulIOp::create(nb, l, r, args[0]);
                       v = convert(nb, l, v, tables.out, outOffset, bits);
                       return Value(arith::TruncIOp::create(nb, l, outElement, v));
                     });
}
