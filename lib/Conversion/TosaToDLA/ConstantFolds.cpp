//===- ConstantFolds.cpp - Layout ops on constants folded to constants ----===//
//
// The importer stores weights as dense_resource blobs, which TOSA's own
// folders (tosa.reshape / tosa.transpose / tosa.reverse on DenseElementsAttr)
// leave alone. A transposed convolution decomposed by
// --tosa-optional-decompositions reads its weights through such a chain
// (pad, reshape, transpose, reshape, reverse), and a per-channel
// bias added after it through a reshape: the convolution then sees no
// constant and stays on the host ("its weight is not a constant"). These
// patterns fold the chain into one constant of the same bytes permuted.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {
/// The constant's bytes when `v` is a readable constant of static shape whose
/// blob holds one element per position.
std::optional<std::vector<char>> constantBytes(Value v, RankedTensorType &type) {
  type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || !isReadableConstant(v))
    return std::nullopt;
  std::vector<char> bytes = readConstantBytes(v);
  if (static_cast<int64_t>(bytes.size()) != type.getNumElements() * byteWidth(type))
    return std::nullopt;
  return bytes;
}

Value foldedConstant(PatternRewriter &rewriter, Location loc, RankedTensorType type,
                     ArrayRef<char> bytes) {
  auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(uint64_t));
  auto attr = DenseResourceElementsAttr::get(type, "folded_weight", std::move(blob));
  return tosa::ConstOp::create(rewriter, loc, type, attr);
}

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Copies element `from(i)` of `in` to element i of the result, for every
/// result index i (given as its multi-index).
std::vector<char> gatherElements(ArrayRef<char> in, int64_t width, ArrayRef<int64_t> outShape,
                                 llvm::function_ref<int64_t(ArrayRef<int64_t>)> from) {
  int64_t count = 1;
  for (int64_t d : outShape)
    count *= d;
  std::vector<char> out(static_cast<size_t>(count * width));
  SmallVector<int64_t> index(outShape.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(out.data() + i * width, in.data() + from(index) * width,
                static_cast<size_t>(width));
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < outShape[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

struct FoldConstantReshape : OpRewritePattern<tosa::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op, PatternRewriter &rewriter) const override {
    RankedTensorType inType;
    std::optional<std::vector<char>> bytes = constantBytes(op.getInput1(), inType);
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!bytes || !outType || !outType.hasStaticShape())
      return failure();
    rewriter.replaceOp(op, foldedConstant(rewriter, op.getLoc(), outType, *bytes));
    return success();
  }
};

struct FoldConstantTranspose : OpRewritePattern<tosa::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::TransposeOp op, PatternRewriter &rewriter) const override {
    RankedTensorType inType;
    std::optional<std::vector<char>> bytes = constantBytes(op.getInput1(), inType);
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!bytes || !outType || !outType.hasStaticShape())
      return failure();
    SmallVector<int64_t> inStrides = stridesOf(inType.getShape());
    ArrayRef<int32_t> perms = op.getPerms();
    // out[i] = in[j] with j[perms[d]] = i[d].
    std::vector<char> out = gatherElements(*bytes, byteWidth(inType), outType.getShape(),
                                           [&](ArrayRef<int64_t> i) {
                                             int64_t offset = 0;
                                             for (size_t d = 0; d < i.size(); ++d)
                                               offset += i[d] * inStrides[perms[d]];
                                             return offset;
                                           });
    rewriter.replaceOp(op, foldedConstant(rewriter, op.getLoc(), outType, out));
    return success();
  }
};

struct FoldConstantReverse : OpRewritePattern<tosa::ReverseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ReverseOp op, PatternRewriter &rewriter) const override {
    RankedTensorType inType;
    std::optional<std::vector<char>> bytes = constantBytes(op.getInput1(), inType);
    if (!bytes)
      return failure();
    ArrayRef<int64_t> shape = inType.getShape();
    SmallVector<int64_t> strides = stridesOf(shape);
    const int64_t axis = op.getAxis();
    std::vector<char> out = gatherElements(*bytes, byteWidth(inType), shape,
                                           [&](ArrayRef<int64_t> i) {
                                             int64_t offset = 0;
                                             for (size_t d = 0; d < i.size(); ++d)
                                               offset += (static_cast<int64_t>(d) == axis
                                                              ? shape[d] - 1 - i[d]
                                                              : i[d]) *
                                                         strides[d];
                                             return offset;
                                           });
    rewriter.replaceOp(op, foldedConstant(rewriter, op.getLoc(), inType, out));
    return success();
  }
};

struct FoldConstantPad : OpRewritePattern<tosa::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::PadOp op, PatternRewriter &rewriter) const override {
    RankedTensorType inType, valueType;
    std::optional<std::vector<char>> bytes = constantBytes(op.getInput1(), inType);
    std::optional<std::vector<char>> value = constantBytes(op.getPadConst(), valueType);
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    auto padding = op.getPadding().getDefiningOp<tosa::ConstShapeOp>();
    const int64_t width = bytes ? byteWidth(inType) : 0;
    if (!bytes || !value || !outType || !outType.hasStaticShape() || !padding ||
        static_cast<int64_t>(value->size()) != width)
      return failure();
    SmallVector<int64_t> low;
    for (auto [d, v] : llvm::enumerate(padding.getValues().getValues<int64_t>()))
      if (d % 2 == 0)
        low.push_back(v);
    ArrayRef<int64_t> shape = inType.getShape();
    if (low.size() != shape.size() || llvm::any_of(low, [](int64_t v) { return v < 0; }))
      return failure();
    SmallVector<int64_t> strides = stridesOf(shape);
    // The pad value appended as element `padIndex` of the source.
    std::vector<char> source = *bytes;
    const int64_t padIndex = inType.getNumElements();
    source.insert(source.end(), value->begin(), value->end());
    std::vector<char> out = gatherElements(source, width, outType.getShape(),
                                           [&](ArrayRef<int64_t> i) {
                                             int64_t offset = 0;
                                             for (size_t d = 0; d < i.size(); ++d) {
                                               int64_t j = i[d] - low[d];
                                               if (j < 0 || j >= shape[d])
                                                 return padIndex;
                                               offset += j * strides[d];
                                             }
                                             return offset;
                                           });
    rewriter.replaceOp(op, foldedConstant(rewriter, op.getLoc(), outType, out));
    return success();
  }
};
} // namespace

void tosa_to_dla::populateConstantFoldPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldConstantReshape, FoldConstantTranspose, FoldConstantReverse,
               FoldConstantPad>(
      patterns.getContext());
}
