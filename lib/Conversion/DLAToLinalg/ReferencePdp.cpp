//===- ReferencePdp.cpp - PDP's integer average on the CPU ---------------===//
//
// The arithmetic of NVIDIA's C model (cmod/pdp/NV_NVDLA_pdp.cpp, modelled by
// utils/dla-ref/int_pdp.py): the window sum wraps in the line buffer, padded
// positions add the PAD_VALUE_nX registers as int_sign_extend reads them,
// and the average is two multiplications by 16-bit-fraction reciprocals,
// each rounded half away from zero, wrapped to the data width.
//
//===----------------------------------------------------------------------===//

#include "ReferenceArith.h"
#include "ReferencePdp.h"
#include "dla/Format/NvdlaRegisters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;

namespace {

/// int_sign_extend's sign bit of PAD_VALUE_<n>X per data width.
constexpr int kPadSignBit8[7] = {7, 8, 9, 9, 10, 10, 10};
constexpr int kPadSignBit16[7] = {15, 16, 17, 17, 18, 18, 18};

/// `v` wrapped to a signed `bits`-bit value (a C integer store).
int64_t wrapSigned(int64_t v, unsigned bits) {
  uint64_t m = uint64_t(1) << bits;
  uint64_t u = static_cast<uint64_t>(v) & (m - 1);
  return u >= (m >> 1) ? static_cast<int64_t>(u) - static_cast<int64_t>(m)
                       : static_cast<int64_t>(u);
}

/// PAD_VALUE_<n>X as the C model adds it (int_pdp.pdp_pad_register): the
/// 19-bit field sign-filled above its sign bit only when that bit is set,
/// stored in the line buffer (2 * bits wide).
int64_t padRegister(int64_t value, int n, unsigned bits) {
  int64_t field = value & ((int64_t(1) << 19) - 1);
  int sign = (bits == 8 ? kPadSignBit8 : kPadSignBit16)[n - 1];
  if ((field >> sign) & 1)
    field |= ~((int64_t(1) << (sign + 1)) - 1);
  return wrapSigned(field, 2 * bits);
}

/// Valid and padded positions of window `o` in one spatial dimension.
std::pair<int64_t, int64_t> windowPositions(int64_t o, int64_t in, int64_t kernel,
                                            int64_t stride, int64_t before) {
  int64_t start = o * stride - before;
  int64_t valid = std::max<int64_t>(std::min(start + kernel, in) - std::max<int64_t>(start, 0), 0);
  return {valid, kernel - valid};
}

} // namespace

Value reference::pdpIntegerAverage(OpBuilder &b, Location loc, PoolOp op, Value sum) {
  MLIRContext *ctx = b.getContext();
  RankedTensorType outType = op.getOutput().getType();
  RankedTensorType inType = op.getInput().getType();
  auto outElement = cast<IntegerType>(outType.getElementType());
  const unsigned bits = outElement.getWidth();
  ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(),
                    padding = op.getPadding();
  const int64_t kh = kernel[0], kw = kernel[1];
  // Derived as NVIDIA's firmware writes them (recip_kernel_size, dla_pdp.c).
  const nv::PdpReciprocals firmware = nv::pdpFirmwareReciprocals(kh, kw);
  const int64_t recipW = op.getRecipKernelWidth().value_or(firmware.width);
  const int64_t recipH = op.getRecipKernelHeight().value_or(firmware.height);

  // padSum[n]: what n padded positions of a row (or n padded rows, times
  // kw) add; more than 7 only without pad_values (the verifier), then 0.
  int64_t padSum[16] = {};
  if (std::optional<ArrayRef<int64_t>> pads = op.getPadValues())
    for (int n = 1; n <= 7; ++n)
      padSum[n] = padRegister((*pads)[n - 1], n, bits);
  auto padOf = [&](int64_t n) { return n < 16 ? padSum[n] : 0; };

  // The padding's share of each output position's sum, a constant (oh, ow).
  const int64_t oh = outType.getDimSize(2), ow = outType.getDimSize(3);
  SmallVector<int64_t> share;
  bool anyShare = false;
  share.reserve(oh * ow);
  for (int64_t i = 0; i < oh; ++i) {
    auto [rows, padRows] = windowPositions(i, inType.getDimSize(2), kh, strides[0], padding[0]);
    for (int64_t j = 0; j < ow; ++j) {
      auto [cols, padCols] =
          windowPositions(j, inType.getDimSize(3), kw, strides[1], padding[2]);
      (void)cols;
      share.push_back(rows * padOf(padCols) + kw * padOf(padRows));
      anyShare |= share.back() != 0;
    }
  }

  Type i64 = b.getI64Type();
  SmallVector<Value> inputs = {sum};
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(4, ctx)};
  if (anyShare) {
    auto shareType = RankedTensorType::get({oh, ow}, i64);
    inputs.push_back(arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(shareType, ArrayRef<int64_t>(share))));
    maps.push_back(
        AffineMap::get(4, 0, {getAffineDimExpr(2, ctx), getAffineDimExpr(3, ctx)}, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value init = tensor::EmptyOp::create(b, loc, outType.getShape(), outElement);
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto c = [&](int64_t x) { return Value(arith::ConstantIntOp::create(nb, l, i64, x)); };
        Value s = args[0];
        if (cast<IntegerType>(s.getType()).getWidth() < 64)
          s = arith::ExtSIOp::create(nb, l, i64, s);
        if (anyShare)
          s = arith::AddIOp::create(nb, l, s, args[1]);
        // The line buffer: int16 for int8 data, int32 for int16 (wraps).
        Type line = nb.getIntegerType(2 * bits);
        s = arith::ExtSIOp::create(nb, l, i64, arith::TruncIOp::create(nb, l, line, s));
        // |S| < 2^31, reciprocals < 2^17: both products are exact in i64.
        Value v = shiftRightHalfAway(nb, l, arith::MulIOp::create(nb, l, s, c(recipW)), 16);
        v = shiftRightHalfAway(nb, l, arith::MulIOp::create(nb, l, v, c(recipH)), 16);
        linalg::YieldOp::create(nb, l, Value(arith::TruncIOp::create(nb, l, outElement, v)));
      });
  return generic.getResult(0);
}
