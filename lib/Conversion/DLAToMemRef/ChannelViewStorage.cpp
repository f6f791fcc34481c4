//===- ChannelViewStorage.cpp - Channel views as storage byte ranges ------===//
//
// A dla.channel_slice / dla.channel_concat of NVDLA feature data is whole
// surfaces of its parent at one address offset (ViewOps.cpp), so on storage
// it moves bytes: per batch, the view's surfaces from the parent's batch at
// the view's offset. Batches are copied one by one: a view's batch stride
// is its parent's, so its storage (N x batch stride) runs past the
// parent's end, and one copy of a whole view would carry its gaps (the
// other views' channels) over the next view's bytes.
//
//===----------------------------------------------------------------------===//

#include "dla/Conversion/DLAToMemRef/DLAToMemRef.h"
#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaFeature.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// What a feature tensor's storage is made of.
struct Surfaces {
  int64_t count = 0, stride = 0, batchStride = 0, bytes = 0;
};

std::optional<Surfaces> surfacesOf(RankedTensorType type) {
  if (!isa_and_nonnull<FeatureAttr>(type.getEncoding()))
    return std::nullopt;
  auto bound = bindTensorLayout(type, [] { return InFlightDiagnostic(); });
  if (failed(bound))
    return std::nullopt;
  const auto &f = static_cast<const nv::FeatureBoundLayout &>(**bound);
  return Surfaces{f.getNumSurfaces(), f.getSurfaceStride(), f.getBatchStride(),
                  f.getStorageBytes()};
}

Value zeroBytes(OpBuilder &b, Location loc, int64_t bytes) {
  auto type = RankedTensorType::get({bytes}, b.getI8Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, b.getI8IntegerAttr(0)));
}

/// `dest` with `count` bytes of `src` from `from` written at `to`.
Value moveBytes(OpBuilder &b, Location loc, Value src, int64_t from, Value dest, int64_t to,
                int64_t count) {
  auto pieceType = RankedTensorType::get({count}, b.getI8Type());
  auto at = [&](int64_t i) { return SmallVector<OpFoldResult>{b.getIndexAttr(i)}; };
  Value piece =
      tensor::ExtractSliceOp::create(b, loc, pieceType, src, at(from), at(count), at(1));
  return tensor::InsertSliceOp::create(b, loc, piece, dest, at(to), at(count), at(1));
}

/// Each batch's surfaces of `view`, which starts `offset` bytes into
/// `parent`: moved out of the parent (a slice) or into it (a
/// concatenation).
Value moveView(OpBuilder &b, Location loc, const Surfaces &view, const Surfaces &parent,
               int64_t offset, int64_t batches, Value src, Value dest, bool intoParent) {
  const int64_t count = view.count * view.stride;
  for (int64_t n = 0; n < batches; ++n) {
    const int64_t inView = n * view.batchStride, inParent = offset + n * parent.batchStride;
    dest = intoParent ? moveBytes(b, loc, src, inView, dest, inParent, count)
                      : moveBytes(b, loc, src, inParent, dest, inView, count);
  }
  return dest;
}

struct ChannelSliceStorage : OpConversionPattern<ChannelSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ChannelSliceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RankedTensorType source = op.getSource().getType(), result = op.getResult().getType();
    std::optional<Surfaces> parent = surfacesOf(source), view = surfacesOf(result);
    if (!parent || !view)
      return rewriter.notifyMatchFailure(op, "not a view of feature data");
    Location loc = op.getLoc();
    const int64_t offset = getChannelViewByteOffset(source, static_cast<int64_t>(op.getOffset()));
    Value dest = zeroBytes(rewriter, loc, view->bytes);
    rewriter.replaceOp(op, moveView(rewriter, loc, *view, *parent, offset, result.getDimSize(0),
                                    adaptor.getSource(), dest, /*intoParent=*/false));
    return success();
  }
};

struct ChannelConcatStorage : OpConversionPattern<ChannelConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ChannelConcatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    RankedTensorType result = op.getResult().getType();
    std::optional<Surfaces> parent = surfacesOf(result);
    if (!parent)
      return rewriter.notifyMatchFailure(op, "not views of feature data");
    Location loc = op.getLoc();
    Value dest = zeroBytes(rewriter, loc, parent->bytes);
    // A padded concatenation's gaps are its inputs' atoms' padding, moved
    // with them (whole surfaces).
    for (auto [input, storage, first] :
         llvm::zip_equal(op.getInputs(), adaptor.getInputs(), op.getInputChannels())) {
      auto type = cast<RankedTensorType>(input.getType());
      std::optional<Surfaces> view = surfacesOf(type);
      if (!view)
        return rewriter.notifyMatchFailure(op, "an input is no feature data");
      dest = moveView(rewriter, loc, *view, *parent, getChannelViewByteOffset(result, first),
                      result.getDimSize(0), storage, dest, /*intoParent=*/true);
    }
    rewriter.replaceOp(op, dest);
    return success();
  }
};

/// A view whose storage is its source's, byte for byte: dla.as_weights of
/// NVDLA data (the verifier holds the source to the weight stream's
/// encoding) and dla.reshape_view (the verifier asks the format library
/// that every element keeps its byte and the sizes are equal).
template <typename ViewOp> struct SourceStorage : OpConversionPattern<ViewOp> {
  using OpConversionPattern<ViewOp>::OpConversionPattern;
  using OpAdaptor = typename ViewOp::Adaptor;
  LogicalResult matchAndRewrite(ViewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getResult().getType().getEncoding())
      return rewriter.notifyMatchFailure(op, "a transpose or reshape without encoding");
    Type storage = this->getTypeConverter()->convertType(op.getResult().getType());
    if (!storage || storage != adaptor.getSource().getType())
      return rewriter.notifyMatchFailure(op, "storage of another size");
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

} // namespace

void mlir::dla::populateChannelViewStoragePatterns(const TypeConverter &converter,
                                                   RewritePatternSet &patterns) {
  patterns.add<ChannelSliceStorage, ChannelConcatStorage, SourceStorage<AsWeightsOp>,
               SourceStorage<ReshapeViewOp>>(converter, patterns.getContext());
}
