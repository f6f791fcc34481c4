//===- MatMulPatterns.cpp - tosa.matmul by a constant -> 1x1 convolution --===//
//
// A matrix product by constant weights (ONNX Gemm / MatMul, the fully
// connected layers) is a 1x1 convolution: the rows of A [n, M, K] are M
// pixels of K channels (NHWC [n, 1, M, K]), B [K, P] the P kernels
// (OHWI [P, 1, 1, K]). Rewritten here into tosa.conv2d between reshapes,
// which the convolution patterns offload like any (the integer form with
// its tosa.rescale, moved onto the 4-D accumulator). NVIDIA's compiler maps
// its fully connected layers onto the convolution core the same way.
//
// A per-column constant added to the product (Gemm's C) becomes the
// convolution's bias.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "TosaReshape.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Whether the n slices of constant B [n, K, P] are one matrix (the
/// importer broadcasts a 2-D weight over the batch); its bytes in `bytes`.
bool sameOverBatch(Value b, std::vector<char> &bytes) {
  bytes = readConstantBytes(b);
  auto type = cast<RankedTensorType>(b.getType());
  const size_t slice = bytes.size() / static_cast<size_t>(std::max<int64_t>(type.getDimSize(0), 1));
  if (bytes.empty() || slice == 0)
    return false;
  for (size_t at = slice; at < bytes.size(); at += slice)
    if (std::memcmp(bytes.data(), bytes.data() + at, slice) != 0)
      return false;
  bytes.resize(slice);
  return true;
}

/// The 4-D conv2d that computes `op` from reshape(A), with `bias` (bytes of
/// P output elements) or none.
tosa::Conv2DOp emitAsConv(tosa::MatMulOp op, ArrayRef<char> kp, ArrayRef<char> bias,
                          PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto b = cast<RankedTensorType>(op.getB().getType());
  auto out = cast<RankedTensorType>(op.getType());
  const int64_t n = a.getDimSize(0), m = a.getDimSize(1), k = a.getDimSize(2);
  const int64_t p = b.getDimSize(2);
  Type weightElement = b.getElementType();
  // B [K, P] -> OHWI [P, 1, 1, K].
  std::vector<char> ohwi = transposeBytes(kp, {k, p}, byteWidth(weightElement), {1, 0});
  auto weightType = RankedTensorType::get({p, 1, 1, k}, weightElement);
  Value weight = tosa::ConstOp::create(
      rewriter, loc, weightType,
      DenseElementsAttr::getFromRawBuffer(weightType, ArrayRef<char>(ohwi)));
  Type accElement = out.getElementType();
  auto biasType = RankedTensorType::get({bias.empty() ? 1 : p}, accElement);
  Value biasValue = tosa::ConstOp::create(
      rewriter, loc, biasType,
      bias.empty() ? DenseElementsAttr::get(biasType, rewriter.getZeroAttr(accElement))
                   : DenseElementsAttr::getFromRawBuffer(biasType, bias));
  Value input = reshapeTo(rewriter, loc, op.getA(), {n, 1, m, k});
  Type accType = isa<FloatType>(accElement) ? Type(rewriter.getF32Type()) : accElement;
  return tosa::Conv2DOp::create(rewriter, loc, RankedTensorType::get({n, 1, m, p}, accElement),
                                input, weight, biasValue, op.getAZp(), op.getBZp(),
                                ArrayRef<int64_t>{0, 0, 0, 0}, ArrayRef<int64_t>{1, 1},
                                ArrayRef<int64_t>{1, 1}, accType);
}

/// The add of a per-column constant that reads `op`'s product through
/// reshapes keeping the last dimension (Gemm's C), with the constant's
/// bytes; null when there is none.
tosa::AddOp findBiasAdd(tosa::MatMulOp op, std::vector<char> &bias) {
  const int64_t p = cast<RankedTensorType>(op.getType()).getShape().back();
  Value tail = op.getResult();
  while (tail.hasOneUse()) {
    Operation *user = *tail.getUsers().begin();
    if (auto r = dyn_cast<tosa::ReshapeOp>(user)) {
      auto type = cast<RankedTensorType>(r.getType());
      if (type.getRank() == 0 || type.getShape().back() != p)
        return {};
      tail = r.getResult();
      continue;
    }
    auto add = dyn_cast<tosa::AddOp>(user);
    if (!add || add.getType() != tail.getType())
      return {};
    Value c = add.getInput1() == tail ? add.getInput2() : add.getInput1();
    auto cType = cast<RankedTensorType>(c.getType());
    if (!isReadableConstant(c) || cType.getNumElements() != p || cType.getShape().back() != p)
      return {};
    bias = readConstantBytes(c);
    return bias.empty() ? tosa::AddOp() : add;
  }
  return {};
}

/// Float products: tosa.matmul [+ C] -> reshape(conv2d(reshape) [+ C]).
struct MatMulToConv : OpRewritePattern<tosa::MatMulOp> {
  MatMulToConv(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::MatMulOp op, PatternRewriter &rewriter) const override {
    if (!isa<FloatType>(getElementTypeOrSelf(op.getType())))
      return failure();
    std::vector<char> kp;
    if (std::string why = whyNotMatMul(op, target, kp); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    std::vector<char> bias;
    tosa::AddOp add = findBiasAdd(op, bias);
    tosa::Conv2DOp conv = emitAsConv(op, kp, bias, rewriter);
    Operation *root = add ? add.getOperation() : op.getOperation();
    rewriter.replaceOp(root, reshapeTo(rewriter, op.getLoc(), conv,
                                     cast<RankedTensorType>(root->getResult(0).getType()).getShape()));
    return success();
  }

  OffloadTarget target;
};

/// Integer products: rescale(matmul) -> reshape(rescale(conv2d(reshape))),
/// the form the quantized convolution pattern offloads.
struct QuantizedMatMulToConv : OpRewritePattern<tosa::RescaleOp> {
  QuantizedMatMulToConv(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::RescaleOp op, PatternRewriter &rewriter) const override {
    auto mm = op.getInput().getDefiningOp<tosa::MatMulOp>();
    if (!mm || !mm->hasOneUse() || !getElementTypeOrSelf(mm.getType()).isInteger(32))
      return failure();
    std::vector<char> kp;
    if (std::string why = whyNotMatMul(mm, target, kp); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    // A product of two activations is QuantizedActivationProduct's (no
    // constant bytes to pack).
    if (!isReadableConstant(mm.getB()))
      return failure();
    tosa::Conv2DOp conv = emitAsConv(mm, kp, {}, rewriter);
    auto conv4d = cast<RankedTensorType>(conv.getType());
    auto outType = cast<RankedTensorType>(op.getType());
    auto rescale = cast<tosa::RescaleOp>(rewriter.clone(*op));
    rescale.getInputMutable().assign(conv);
    rescale.getOutput().setType(conv4d.clone(outType.getElementType()));
    rewriter.replaceOp(op, reshapeTo(rewriter, op.getLoc(), rescale, outType.getShape()));
    rewriter.eraseOp(mm);
    return success();
  }

  OffloadTarget target;
};

} // namespace

std::string tosa_to_dla::whyNotMatMul(tosa::MatMulOp op, const OffloadTarget &target) {
  std::vector<char> kp;
  return whyNotMatMul(op, target, kp);
}

std::string tosa_to_dla::whyNotMatMul(tosa::MatMulOp op, const OffloadTarget &target,
                                      std::vector<char> &kp) {
  if (!isReadableConstant(op.getB()) && getElementTypeOrSelf(op.getType()).isInteger(32))
    return whyNotActivationProduct(op, target);
  if (!isReadableConstant(op.getB()))
    return "its right operand is not a constant: the convolution pipeline multiplies a feature "
           "map by packed weights, and no unit multiplies two feature maps as matrices";
  FailureOr<int64_t> aZp = op.getAZeroPoint();
  FailureOr<int64_t> bZp = op.getBZeroPoint();
  if (failed(aZp) || failed(bZp))
    return "its zero points are not constants";
  auto a = dyn_cast<RankedTensorType>(op.getA().getType());
  auto b = dyn_cast<RankedTensorType>(op.getB().getType());
  if (!a || !b || !a.hasStaticShape() || !b.hasStaticShape())
    return "its shape is not static (fix the input shapes when importing)";
  if (!sameOverBatch(op.getB(), kp))
    return "its constant right operand differs between batches (a 1x1 convolution has one "
           "set of kernels)";
  if (getElementTypeOrSelf(op.getType()).isInteger(32)) {
    if (op->hasOneUse() && isa<tosa::RescaleOp>(*op->getUsers().begin()))
      return "";
    return "its i32 accumulator is not rescaled by a tosa.rescale of its own (the SDP "
           "delivers the target precision, not the accumulator)";
  }
  if (*aZp != 0 || *bZp != 0)
    return "it is quantized with a non-zero zero point";
  for (Type type : {op.getA().getType(), op.getType()})
    if (std::string why = target.checkSourceType(type); !why.empty())
      return why;
  return target.check(nv::ConversionQuery::convolution(
      nv::ConvMode::Direct, nv::featureInput(target.precision), target.precision));
}

static int64_t matMulMacs(tosa::MatMulOp op) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  return a.hasStaticShape() ? macsPerOutput(op, a.getDimSize(2)) : 0;
}

void tosa_to_dla::populateMatMulPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                         const OffloadTarget &target) {
  patterns.add<MatMulToConv, QuantizedMatMulToConv>(patterns.getContext(), target);
  populateActivationProductPatterns(patterns, target);
  rules.add<tosa::MatMulOp>(
      static_cast<std::string (*)(tosa::MatMulOp, const OffloadTarget &)>(whyNotMatMul),
      matMulMacs);
}
