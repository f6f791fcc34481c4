//===- CompileTimeConstant.cpp - What --dla-pack-weights folds -----------===//

#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"

#include "dla/Format/IntegerBytes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/TypeUtilities.h"

#include <cstring>

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

namespace {
/// The packer's rounding for a truncf's rounding mode (none: nearest-even).
std::optional<fmt::Fp16Rounding> packerRounding(arith::TruncFOp truncf) {
  std::optional<arith::RoundingMode> mode = truncf.getRoundingmode();
  if (!mode || *mode == arith::RoundingMode::to_nearest_even)
    return fmt::Fp16Rounding::TiesToEven;
  if (*mode == arith::RoundingMode::to_nearest_away)
    return fmt::Fp16Rounding::TiesAwayFromZero;
  return std::nullopt;
}

std::optional<ArrayRef<char>> rawBytes(arith::ConstantOp constant) {
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  if (!type || type.getEncoding() || !type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
    if (!dense.isSplat())
      return dense.getRawData();
  return std::nullopt;
}
} // namespace

std::optional<CompileTimeConstant> mlir::dla::matchCompileTimeConstant(Value value) {
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    return CompileTimeConstant{constant, {}};
  auto truncf = value.getDefiningOp<arith::TruncFOp>();
  if (!truncf)
    return std::nullopt;
  auto constant = truncf.getIn().getDefiningOp<arith::ConstantOp>();
  auto in = dyn_cast<RankedTensorType>(truncf.getIn().getType());
  auto out = dyn_cast<RankedTensorType>(truncf.getType());
  std::optional<fmt::Fp16Rounding> rounding = packerRounding(truncf);
  if (!constant || !in || !out || !in.getElementType().isF32() || in.getEncoding() ||
      !out.getElementType().isF16() || !rounding)
    return std::nullopt;
  return CompileTimeConstant{constant, truncf, *rounding};
}

std::optional<std::vector<char>> mlir::dla::readCompileTimeBytes(const CompileTimeConstant &c) {
  std::optional<ArrayRef<char>> raw = rawBytes(c.constant);
  if (!raw)
    return std::nullopt;
  if (!c.truncf)
    return std::vector<char>(raw->begin(), raw->end());
  const int64_t count = static_cast<int64_t>(raw->size() / sizeof(float));
  std::vector<float> values(static_cast<size_t>(count));
  std::memcpy(values.data(), raw->data(), values.size() * sizeof(float));
  std::vector<char> halves(static_cast<size_t>(count) * 2);
  fmt::convertFp32ToFp16(values.data(), reinterpret_cast<uint16_t *>(halves.data()), count,
                         c.rounding);
  return halves;
}

std::optional<std::vector<int64_t>>
mlir::dla::readCompileTimeIntegers(const CompileTimeConstant &c) {
  arith::ConstantOp constant = c.constant; // Op accessors are not const
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  auto element = type ? dyn_cast<IntegerType>(type.getElementType()) : IntegerType();
  if (!element || c.truncf)
    return std::nullopt;
  const bool isUnsigned = element.isUnsigned();
  // Splats (and i1, whose bytes are packed bits) through the attribute.
  if (auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
      dense && (dense.isSplat() || element.getWidth() == 1)) {
    std::vector<int64_t> values;
    values.reserve(static_cast<size_t>(dense.getNumElements()));
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue());
    return values;
  }
  std::optional<std::vector<char>> bytes = readCompileTimeBytes(c);
  if (!bytes || static_cast<int64_t>(bytes->size()) * 8 !=
                    type.getNumElements() * static_cast<int64_t>(element.getWidth()))
    return std::nullopt;
  return ::dlaformat::decodeIntegers(bytes->data(), type.getNumElements(), element.getWidth(),
                                     isUnsigned);
}

std::optional<Value> mlir::dla::sliceCompileTimeConstant(OpBuilder &b, Location loc,
                                                         const CompileTimeConstant &c,
                                                         int64_t dim, int64_t first,
                                                         int64_t count) {
  arith::ConstantOp constant = c.constant; // Op accessors are not const
  auto type = cast<RankedTensorType>(constant.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = count;
  auto sliced = RankedTensorType::get(shape, type.getElementType());
  TypedAttr attr;
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()); dense && dense.isSplat()) {
    attr = DenseElementsAttr::get(sliced, dense.getSplatValue<Attribute>());
  } else {
    std::optional<std::vector<char>> raw = readCompileTimeBytes(CompileTimeConstant{constant, {}});
    const int64_t elements = type.getNumElements();
    if (!raw || elements == 0 || static_cast<int64_t>(raw->size()) % elements != 0)
      return std::nullopt;
    // Per index before `dim`, a run of `count` slabs of everything after it.
    int64_t outer = 1, slab = static_cast<int64_t>(raw->size()) / elements;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d < dim)
        outer *= type.getDimSize(d);
      else if (d > dim)
        slab *= type.getDimSize(d);
    std::vector<char> out;
    out.reserve(static_cast<size_t>(outer * count * slab));
    for (int64_t o = 0; o < outer; ++o) {
      const char *from = raw->data() + (o * type.getDimSize(dim) + first) * slab;
      out.insert(out.end(), from, from + count * slab);
    }
    attr = DenseElementsAttr::getFromRawBuffer(sliced, out);
  }
  Value v = arith::ConstantOp::create(b, loc, attr);
  if (!c.truncf)
    return v;
  arith::TruncFOp truncf = c.truncf;
  Operation *rounded = b.clone(*truncf);
  rounded->setOperand(0, v);
  rounded->getResult(0).setType(
      RankedTensorType::get(shape, getElementTypeOrSelf(truncf.getType())));
  return rounded->getResult(0);
}
