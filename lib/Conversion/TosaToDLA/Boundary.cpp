//===- Boundary.cpp - Transposes, casts and constants at layer boundaries -===//
//
// TOSA activations are NHWC in the network's element type; layer ops read
// NCHW in the target precision. Each offloaded layer gets an explicit
// transpose + cast on either side; pairs that meet between two offloaded
// layers cancel (upstream tosa.transpose canonicalization for transposes,
// CancelExactCastPair below for casts). Constants are transposed here, at
// compile time, so no transpose of a weight survives.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Format/EnumTable.h"
#include "dla/Format/Fp16.h"
#include "dla/Format/IntegerBytes.h"
#include "dla/Format/StridedCopy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"

#include <cstring>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

//===----------------------------------------------------------------------===//
// OffloadTarget
//===----------------------------------------------------------------------===//

Type OffloadTarget::getElementType(MLIRContext *context) const {
  return getPrecisionType(context, precision);
}

std::string OffloadTarget::check(const nv::ConversionQuery &query) const {
  return nv::checkConversion(query).message;
}

std::string OffloadTarget::checkOfflineSdp() const {
  return check(nv::ConversionQuery::sdpOffline(nv::featureInput(precision), precision));
}

std::string OffloadTarget::checkSourceType(Type type) const {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return "its shape is not static (fix the input shapes when importing)";
  Type element = tensor.getElementType();
  if (element == getElementType(type.getContext()))
    return "";
  if (element.isF32() && precision == nv::Precision::Fp16)
    return "";
  std::string name;
  llvm::raw_string_ostream os(name);
  os << element;
  std::string target(::dlaformat::enumName(precision));
  // Reasons that hold in a float network and in a quantized one alike: a
  // quantized network's host steps are its float (quantizing,
  // dequantizing, what calibration left float) and integer (rounding, zero
  // points) arithmetic.
  if (isa<FloatType>(element))
    return "it computes in " + name + " and the target in " + target +
           ": a float op runs there only quantized (a float network is quantized from a "
           "calibration table, dla-calibrate)";
  if (precision == nv::Precision::Fp16)
    return "it computes in " + name + " and the target in fp16: integer arithmetic (of a "
           "quantized network: compile that for int8)";
  return "element type " + name + " is not the target precision " + target +
         " (a quantized network's integer steps around its layers, rounding and zero points, "
         "stay on the host)";
}

//===----------------------------------------------------------------------===//
// Transposes and casts of activations
//===----------------------------------------------------------------------===//

SmallVector<int64_t> tosa_to_dla::toNchwShape(ArrayRef<int64_t> nhwc) {
  return {nhwc[0], nhwc[3], nhwc[1], nhwc[2]};
}

Value tosa_to_dla::toLayerInput(OpBuilder &b, Location loc, Value nhwc, Type elementType) {
  auto type = cast<RankedTensorType>(nhwc.getType());
  auto nchwType = RankedTensorType::get(toNchwShape(type.getShape()), type.getElementType());
  Value nchw = tosa::TransposeOp::create(b, loc, nchwType, nhwc, b.getDenseI32ArrayAttr(kToNchw));
  if (type.getElementType() == elementType)
    return nchw;
  return tosa::CastOp::create(b, loc, nchwType.clone(elementType), nchw);
}

Value tosa_to_dla::toTosaResult(OpBuilder &b, Location loc, Value nchw,
                                RankedTensorType nhwcType) {
  auto type = cast<RankedTensorType>(nchw.getType());
  Value value = nchw;
  if (type.getElementType() != nhwcType.getElementType())
    value = tosa::CastOp::create(b, loc, type.clone(nhwcType.getElementType()), nchw);
  return tosa::TransposeOp::create(b, loc, nhwcType, value, b.getDenseI32ArrayAttr(kToNhwc));
}

static bool isTransposeTo(Value v, ArrayRef<int32_t> perms) {
  auto t = v.getDefiningOp<tosa::TransposeOp>();
  return t && t.getPerms() == perms;
}

ElementwiseFrame::ElementwiseFrame(ValueRange operands) {
  bool nchw = false;
  for (Value v : operands) {
    if (isTransposeTo(v, kToNhwc))
      return;
    Operation *def = v.getDefiningOp();
    nchw |= isTransposeTo(v, kToNchw) || isLayerOrView(def);
  }
  asIs = nchw;
}

static Value castElements(OpBuilder &b, Location loc, Value v, Type elementType) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getElementType() == elementType)
    return v;
  return tosa::CastOp::create(b, loc, type.clone(elementType), v);
}

Value ElementwiseFrame::input(OpBuilder &b, Location loc, Value v, Type elementType) const {
  return asIs ? castElements(b, loc, v, elementType) : toLayerInput(b, loc, v, elementType);
}

Value ElementwiseFrame::result(OpBuilder &b, Location loc, Value layer,
                               RankedTensorType type) const {
  return asIs ? castElements(b, loc, layer, type.getElementType())
              : toTosaResult(b, loc, layer, type);
}

Value tosa_to_dla::emitDepthwiseSlices(
    OpBuilder &b, Location loc, Value input, ArrayRef<char> hwcm, ArrayRef<int64_t> hwcmShape,
    int64_t eb, int64_t slice, RankedTensorType outType,
    llvm::function_ref<Value(Value, int64_t, int64_t, ArrayRef<int64_t>, ArrayRef<char>)> emit) {
  // HWCM: output channel c * M + m reads input channel c.
  const int64_t kh = hwcmShape[0], kw = hwcmShape[1], channels = hwcmShape[2],
                mult = hwcmShape[3];
  auto inType = cast<RankedTensorType>(input.getType());
  ArrayRef<int64_t> in = inType.getShape();
  SmallVector<Value> pieces;
  for (int64_t c0 = 0; c0 < channels; c0 += slice) {
    const int64_t n = std::min(slice, channels - c0);
    Value part = input;
    if (n != channels) // a view: layers read the group in place (ViewOps.cpp)
      part = ChannelSliceOp::create(b, loc, inType.clone({in[0], n, in[2], in[3]}), input,
                                    static_cast<uint64_t>(c0));
    SmallVector<int64_t> kcrs = {n * mult, n, kh, kw};
    std::vector<char> weight(static_cast<size_t>(n * mult * n * kh * kw * eb), 0);
    for (int64_t c = 0; c < n; ++c)
      for (int64_t m = 0; m < mult; ++m)
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t s = 0; s < kw; ++s) {
            int64_t src = ((r * kw + s) * channels + (c0 + c)) * mult + m;
            int64_t dst = (((c * mult + m) * n + c) * kh + r) * kw + s;
            std::memcpy(&weight[dst * eb], &hwcm[src * eb], eb);
          }
    pieces.push_back(emit(part, c0, n, kcrs, weight));
  }
  if (pieces.size() == 1)
    return pieces.front();
  return ChannelConcatOp::create(b, loc, outType, pieces);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

bool tosa_to_dla::isReadableConstant(Value v) {
  ElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  Type element = attr.getShapedType().getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1))
    return false;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    return blob && static_cast<int64_t>(blob->getData().size()) ==
                       attr.getNumElements() * getElementBytes(element);
  }
  return isa<DenseElementsAttr>(attr);
}

int64_t tosa_to_dla::byteWidth(Type type) {
  return getElementBytes(getElementTypeOrSelf(type));
}

std::vector<char> tosa_to_dla::readConstantBytes(Value v) {
  if (!isReadableConstant(v))
    return {};
  ElementsAttr attr;
  matchPattern(v, m_Constant(&attr));
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    ArrayRef<char> data = resource.getRawHandle().getBlob()->getData();
    return std::vector<char>(data.begin(), data.end());
  }
  auto dense = cast<DenseElementsAttr>(attr);
  ArrayRef<char> raw = dense.getRawData();
  if (!dense.isSplat())
    return std::vector<char>(raw.begin(), raw.end());
  std::vector<char> bytes;
  bytes.reserve(raw.size() * static_cast<size_t>(dense.getNumElements()));
  for (int64_t i = 0; i < dense.getNumElements(); ++i)
    bytes.insert(bytes.end(), raw.begin(), raw.end());
  return bytes;
}

std::optional<std::vector<float>> tosa_to_dla::readConstantValues(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return std::nullopt;
  Type elem = type.getElementType();
  const bool isFloat = elem.isF32() || elem.isF16();
  const unsigned width = elem.isInteger() ? elem.getIntOrFloatBitWidth() : 0;
  if (!isFloat && width != 8 && width != 16 && width != 32)
    return std::nullopt;
  std::vector<char> bytes = readConstantBytes(v);
  if (bytes.empty() && type.getNumElements() != 0)
    return std::nullopt;
  std::vector<float> values(static_cast<size_t>(type.getNumElements()));
  if (elem.isF32()) {
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  } else if (elem.isF16()) {
    std::vector<uint16_t> halves(values.size());
    std::memcpy(halves.data(), bytes.data(), halves.size() * sizeof(uint16_t));
    ::dlaformat::convertFp16ToFp32(halves.data(), values.data(),
                                     static_cast<int64_t>(values.size()));
  } else {
    // Integers as f32 only where f32 holds them exactly (the SDP operands
    // built from them are converted back without loss).
    std::optional<std::vector<int64_t>> ints = ::dlaformat::decodeIntegers(
        bytes.data(), type.getNumElements(), width, elem.isUnsignedInteger());
    if (!ints)
      return std::nullopt;
    for (size_t i = 0; i < values.size(); ++i) {
      const int64_t value = (*ints)[i];
      if (value > (int64_t(1) << 24) || value < -(int64_t(1) << 24))
        return std::nullopt;
      values[i] = static_cast<float>(value);
    }
  }
  return values;
}

std::vector<char> tosa_to_dla::transposeBytes(ArrayRef<char> bytes, ArrayRef<int64_t> shape,
                                              int64_t elementBytes, ArrayRef<int64_t> perms) {
  // The source is a strided view of the transposed tensor: walking the
  // source in storage order, source dim i is result dim inverse(perms)[i].
  const int64_t rank = static_cast<int64_t>(shape.size());
  ::dlaformat::StridedView view;
  std::vector<int64_t> resultShape(rank);
  int64_t stride = 1;
  view.dims.resize(rank);
  for (int64_t i = rank - 1; i >= 0; --i) {
    view.dims[i].extent = shape[i];
    view.dims[i].stride = stride;
    view.dims[i].weight = 1;
    stride *= shape[i];
  }
  for (int64_t r = 0; r < rank; ++r) {
    resultShape[r] = shape[perms[r]];
    view.dims[perms[r]].logicalDim = r;
  }
  std::vector<char> result(bytes.size());
  ::dlaformat::unpackStridedView(view, resultShape, elementBytes, bytes.data(), result.data());
  return result;
}

Value tosa_to_dla::makeConstant(OpBuilder &b, Location loc, RankedTensorType type,
                                ArrayRef<char> bytes, Type elementType, StringRef blobName) {
  auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint64_t));
  auto attr = DenseResourceElementsAttr::get(type, blobName, std::move(blob));
  Value constant = arith::ConstantOp::create(b, loc, type, attr);
  if (type.getElementType() == elementType)
    return constant;
  return arith::TruncFOp::create(b, loc, type.clone(elementType), constant);
}

std::optional<std::vector<float>> tosa_to_dla::readPerChannelConstant(Value v,
                                                                      int64_t channels) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getRank() != 4 || !isReadableConstant(v))
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  if (shape[0] != 1 || shape[1] != 1 || shape[2] != 1 || (shape[3] != channels && shape[3] != 1))
    return std::nullopt;
  std::optional<std::vector<float>> values = readConstantValues(v);
  if (values && values->size() == 1)
    values->assign(static_cast<size_t>(channels), values->front());
  return values;
}

//===----------------------------------------------------------------------===//
// Cleanup: cast pairs that restore their input exactly.
//===----------------------------------------------------------------------===//

namespace {
/// Whether every value of element type `narrow` is one of `wide` (f16 in
/// f32, i8 in i32, ...): a cast from narrow to wide and back is exact.
bool isExactWidening(Type narrow, Type wide) {
  if (auto fn = dyn_cast<FloatType>(narrow))
    if (auto fw = dyn_cast<FloatType>(wide))
      return llvm::APFloat::isRepresentableBy(fn.getFloatSemantics(), fw.getFloatSemantics());
  if (auto in = dyn_cast<IntegerType>(narrow))
    if (auto iw = dyn_cast<IntegerType>(wide))
      return iw.getWidth() >= in.getWidth() && in.getWidth() > 1;
  return false;
}

/// cast(cast(x : A -> B) : B -> A) = x when B represents every value of A
/// (f16 -> f32 -> f16, i8 -> i32 -> i8, ...). Upstream folds no such pair.
struct CancelExactCastPair : OpRewritePattern<tosa::CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::CastOp outer, PatternRewriter &rewriter) const override {
    auto inner = outer.getInput().getDefiningOp<tosa::CastOp>();
    if (!inner || inner.getInput().getType() != outer.getType() ||
        !isExactWidening(getElementTypeOrSelf(inner.getInput().getType()),
                         getElementTypeOrSelf(inner.getType())))
      return failure();
    rewriter.replaceOp(outer, inner.getInput());
    return success();
  }
};

/// concat(cast(a : N -> W), cast(b : N -> W), ...) = cast(concat(a, b, ...))
/// when W represents every value of N: a join moves values, so it may as
/// well move the narrow ones. An f32 network compiled in fp16 joins its
/// layers' results in f32 between casts (the detector's FPN); joined in
/// fp16 the casts around it cancel and the join is feature data, a view
/// (ChannelJoins.cpp).
struct ConcatBeforeExactCasts : OpRewritePattern<tosa::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ConcatOp op, PatternRewriter &rewriter) const override {
    SmallVector<Value> narrow;
    Type narrowType;
    for (Value input : op.getInput1()) {
      auto cast = input.getDefiningOp<tosa::CastOp>();
      if (!cast)
        return failure();
      Type t = getElementTypeOrSelf(cast.getInput().getType());
      if ((narrowType && t != narrowType) ||
          !isExactWidening(t, getElementTypeOrSelf(cast.getType())))
        return failure();
      narrowType = t;
      narrow.push_back(cast.getInput());
    }
    auto type = cast<RankedTensorType>(op.getType());
    auto joined = tosa::ConcatOp::create(rewriter, op.getLoc(), type.clone(narrowType), narrow,
                                         op.getAxis());
    rewriter.replaceOpWithNewOp<tosa::CastOp>(op, type, joined);
    return success();
  }
};

/// slice(cast(x : N -> W)) = cast(slice(x)) when W represents every value
/// of N: a slice moves values, so it may as well move the narrow ones. An
/// f32 network compiled in fp16 splits its layers' results in f32 between
/// casts (an ONNX Split along channels); sliced in fp16 the cast after it
/// cancels with the next layer's and the slice is feature data, a view
/// (ChannelSlices.cpp).
struct SliceBeforeExactCast : OpRewritePattern<tosa::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::SliceOp op, PatternRewriter &rewriter) const override {
    auto widen = op.getInput1().getDefiningOp<tosa::CastOp>();
    if (!widen)
      return failure();
    Type narrow = getElementTypeOrSelf(widen.getInput().getType());
    if (!isExactWidening(narrow, getElementTypeOrSelf(widen.getType())))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    auto sliced = tosa::SliceOp::create(rewriter, op.getLoc(), type.clone(narrow),
                                        widen.getInput(), op.getStart(), op.getSize());
    rewriter.replaceOpWithNewOp<tosa::CastOp>(op, type, sliced);
    return success();
  }
};
} // namespace

namespace {
/// A transpose or cast equal to an earlier one of the same value (same
/// result type and attributes) is that one: several layers reading one
/// value (the phases of a transposed convolution reading a function
/// argument) share its crossing rather than each crossing on its own.
template <typename OpTy>
struct ShareEqualUnary : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    // Same name, operands, result types, attributes and properties (perms).
    for (Operation *other : op->getOperand(0).getUsers())
      if (other != op.getOperation() && other->getBlock() == op->getBlock() &&
          other->isBeforeInBlock(op) &&
          OperationEquivalence::isEquivalentTo(other, op,
                                               OperationEquivalence::IgnoreLocations)) {
        rewriter.replaceOp(op, other->getResults());
        return success();
      }
    return failure();
  }
};
} // namespace

void tosa_to_dla::populateCleanupPatterns(RewritePatternSet &patterns) {
  patterns.add<CancelExactCastPair, ConcatBeforeExactCasts, SliceBeforeExactCast,
               ShareEqualUnary<tosa::TransposeOp>,
               ShareEqualUnary<tosa::CastOp>>(patterns.getContext());
  tosa::TransposeOp::getCanonicalizationPatterns(patterns, patterns.getContext());
  tosa::CastOp::getCanonicalizationPatterns(patterns, patterns.getContext());
}
