//===- ReferencePatterns.cpp - Layer ops as upstream linalg --------------===//
//
// One conversion pattern per layer op. Each reads its encoded operands
// through dla.relayout to row-major, computes on plain tensors in the
// layer's pipeline type (ReferenceArith.h) and writes the result back to the
// result's encoding. The numbers follow docs/ReferenceSemantics.md.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"
#include "ReferenceArith.h"
#include "ReferenceCdma.h"
#include "ReferenceCdp.h"
#include "ReferenceLut.h"
#include "ReferenceNvdlaFp16.h"
#include "ReferencePatterns.h"
#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "ReferencePdp.h"
#include "ReferenceSdp.h"
#include "ReferenceWinograd.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/Fp16.h"
#include "dla/Format/NvdlaWeightCompression.h"
#include "dla/Format/Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;

FailureOr<nv::PipelinePrecision>
reference::getPipelinePrecision(LayerOpInterface op, bool diagnose) {
  auto stated = op->getAttrOfType<PipelinePrecisionAttr>("pipeline_precision");
  // Every layer op states its precision question (DLA_LayerOp).
  FailureOr<nv::ConversionQuery> query =
      cast<PrecisionConversionOpInterface>(op.getOperation()).getConversionQuery();
  if (failed(query))
    return failure();
  nv::ConversionVerdict verdict = nv::checkConversion(*query);
  if (!verdict.valid) {
    if (diagnose)
      op->emitError(verdict.message);
    return failure();
  }
  // A stated precision is what --dla-check-precision wrote; one written by
  // hand that the table contradicts would compute in the wrong type.
  if (stated && stated.getValue() != *verdict.pipeline) {
    if (diagnose)
      op->emitOpError() << "states pipeline_precision "
                        << ::dlaformat::enumName(stated.getValue())
                        << " but the precision table gives "
                        << ::dlaformat::enumName(*verdict.pipeline);
    return failure();
  }
  return *verdict.pipeline;
}

namespace {

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

/// The operand as a plain row-major tensor: through a relayout when encoded.
/// A constant relayouted to an encoding (weights, bias) is read as the
/// constant itself: its storage bytes are produced once, at compile time, by
/// the packer, and not every weight format has an element-wise inverse to
/// execute (Winograd's transform); activations always go through the relayout.
Value readPlain(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!type.getEncoding())
    return v;
  if (auto relayout = v.getDefiningOp<RelayoutOp>()) {
    Value source = relayout.getSource();
    // A constant, or a constant rounded to the layer's precision (the
    // fused truncf that --dla-pack-weights folds).
    Value root = source;
    if (auto truncf = root.getDefiningOp<arith::TruncFOp>())
      root = truncf.getIn();
    if (!cast<RankedTensorType>(source.getType()).getEncoding() &&
        matchPattern(root, m_Constant())) {
      return source;
    }
  }
  return RelayoutOp::create(
      b, loc, RankedTensorType::get(type.getShape(), type.getElementType()), v);
}

/// The plain result written to `resultType`'s encoding.
Value writeEncoded(OpBuilder &b, Location loc, Value plain, RankedTensorType resultType) {
  if (!resultType.getEncoding())
    return plain;
  return RelayoutOp::create(b, loc, resultType, plain);
}

Type elementTypeOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }

/// Zero-free padding of the two spatial dims of an NCHW tensor with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> padding, Value value) {
  if (llvm::all_of(padding, [](int64_t p) { return p == 0; }))
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += padding[0] + padding[1];
  shape[3] += padding[2] + padding[3];
  SmallVector<OpFoldResult> low = {b.getIndexAttr(0), b.getIndexAttr(0),
                                   b.getIndexAttr(padding[0]), b.getIndexAttr(padding[2])};
  SmallVector<OpFoldResult> high = {b.getIndexAttr(0), b.getIndexAttr(0),
                                    b.getIndexAttr(padding[1]), b.getIndexAttr(padding[3])};
  return tensor::PadOp::create(b, loc, type.clone(shape), x, low, high, value);
}

Value add(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

/// Indexing map of an auxiliary operand broadcast over an NCHW iteration:
/// rank 0 (per layer), rank 1 (per channel) or rank 4 (per element, or per
/// channel as 1xCx1x1).
AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType in, RankedTensorType result) {
  switch (in.getRank()) {
  case 0:
    return AffineMap::get(4, 0, {}, ctx);
  case 1:
    return AffineMap::get(4, 0, {getAffineDimExpr(1, ctx)}, ctx);
  default: {
    // NCHW; a unit dimension of a larger result is broadcast (a 1xCx1x1
    // per-channel operand read from a layer's result).
    SmallVector<AffineExpr> dims;
    for (int64_t d = 0; d < 4; ++d)
      dims.push_back(in.getDimSize(d) == 1 && result.getDimSize(d) != 1
                         ? getAffineConstantExpr(0, ctx)
                         : getAffineDimExpr(d, ctx));
    return AffineMap::get(4, 0, dims, ctx);
  }
  }
}

/// An element-wise linalg.generic over an NCHW result of `resultType`
/// (plain) whose body combines the scalars of `inputs` (each broadcast by its
/// rank) into one value of the result's element type.
Value mapNchw(OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value in : inputs)
    maps.push_back(broadcastMap(ctx, cast<RankedTensorType>(in.getType()), resultType));
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(), resultType.getElementType());
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, body(nb, nloc, args.drop_back()));
             })
      .getResult(0);
}

RankedTensorType plainType(RankedTensorType t) {
  return RankedTensorType::get(t.getShape(), t.getElementType());
}

/// A layer op's reference pattern: the op's pipeline precision (valid:
/// checked before the conversion) handed to `rewrite`.
template <typename OpTy> struct LayerToReference : OpConversionPattern<OpTy> {
  using OpAdaptor = typename OpTy::Adaptor;
  LayerToReference(MLIRContext *ctx, ReferenceOptions options = {})
      : OpConversionPattern<OpTy>(ctx), options(options) {}

  /// Whether `op` computes NVDLA's fp16 arithmetic (ReferenceNvdlaFp16.h).
  bool nvdlaFp16(Operation *op) const { return usesNvdlaFp16(op, options.fp16Arithmetic); }

  ReferenceOptions options;

  virtual LogicalResult rewrite(OpTy op, OpAdaptor adaptor, nv::PipelinePrecision pipeline,
                                ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult matchAndRewrite(OpTy op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const final {
    FailureOr<nv::PipelinePrecision> pipeline =
        getPipelinePrecision(cast<LayerOpInterface>(*op), /*diagnose=*/false);
    if (failed(pipeline))
      return rewriter.notifyMatchFailure(op, "invalid precision conversion");
    return rewrite(op, adaptor, *pipeline, rewriter);
  }
};

//===----------------------------------------------------------------------===//
// dla.conv
//===----------------------------------------------------------------------===//

/// The SDP's output converter (identity when `cvt` is null) on an integer
/// pipeline value, then the 17-bit result to `out`: saturated to int8 /
/// int16, or Int17ToFp16 (sdp_c.cpp: FpIntToFloat<17,5,10>, nearest-even,
/// a magnitude from 65504 on saturating to +-65504, not infinity:
/// fp_nvdla.int17_to_fp16, checked against the model's compiled function
/// on every 17-bit value; seen on the v1 model, check_int16_fp16_out.py).
Value sdpConvertOutput(OpBuilder &b, Location loc, Value v, CvtAttr cvt, Type out) {
  Type i64 = b.getI64Type();
  if (v.getType() != i64)
    v = arith::ExtSIOp::create(b, loc, i64, v);
  v = sdpOutputConverter(b, loc, v, cvt ? cvt.getOffset() : 0, cvt ? cvt.getScale() : 1,
                         cvt ? cvt.getShift() : 0);
  if (isa<FloatType>(out)) {
    // 65505..65519 round to 65504 anyway: clamping first is the saturation.
    Value top = arith::ConstantIntOp::create(b, loc, i64, 65504);
    Value bottom = arith::ConstantIntOp::create(b, loc, i64, -65504);
    v = arith::MaxSIOp::create(b, loc, arith::MinSIOp::create(b, loc, v, top), bottom);
    return arith::SIToFPOp::create(b, loc, out, v);
  }
  return convertScalar(b, loc, v, NumberType{i64}, NumberType::of(out));
}

/// Column `k` of a plain batch-norm operand tensor<Cx2> (0: add / ALU,
/// 1: multiply / MUL) as tensor<C>.
Value batchnormColumn(OpBuilder &b, Location loc, Value plain, int64_t k) {
  auto type = cast<RankedTensorType>(plain.getType());
  int64_t c = type.getDimSize(0);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({c}, type.getElementType()), plain, ValueRange{},
      ValueRange{}, ValueRange{}, b.getDenseI64ArrayAttr({0, k}), b.getDenseI64ArrayAttr({c, 1}),
      b.getDenseI64ArrayAttr({1, 1}));
}

/// Whether every user of `conv` is a stage-form SDP fused to it: those read
/// the 32-bit accumulator, not the convolution's configured result.
bool deliversAccumulator(ConvOp conv) {
  return !conv->use_empty() && llvm::all_of(conv->getUsers(), [](Operation *user) {
    auto sdp = dyn_cast<SdpOp>(user);
    return sdp && sdp.getMode() == SdpMode::OnTheFly && sdp.isStageForm() &&
           sdp.getInput().getType().getElementType().isInteger();
  });
}

/// Whether every user of the fp16 `conv` is an on-the-fly SDP: on NVDLA
/// those receive CACC's fp32, not the convolution's fp16 result.
bool deliversFloatAccumulator(ConvOp conv) {
  return !conv->use_empty() && llvm::all_of(conv->getUsers(), [](Operation *user) {
    auto sdp = dyn_cast<SdpOp>(user);
    return sdp && sdp.getMode() == SdpMode::OnTheFly &&
           !sdp.getInput().getType().getElementType().isInteger();
  });
}

/// Whether compressed packed weights (K == C) hold nothing non-zero off the
/// diagonal k == c: the WMB bit of each element (an element the compressor
/// left out is all zero bytes: +0). What --dla-compile packs before the
/// reference lowering reads the weight.
bool isDiagonalPacked(WeightConstantOp op) {
  auto type = cast<RankedTensorType>(op.getResult().getType());
  auto weight = dyn_cast<WeightAttr>(type.getEncoding());
  if (!weight || !weight.getCompressed())
    return false;
  auto blobOf = [](Attribute a) -> std::optional<ArrayRef<char>> {
    auto resource = dyn_cast<DenseResourceElementsAttr>(a);
    if (!resource || !resource.getRawHandle().getBlob())
      return std::nullopt;
    return resource.getRawHandle().getBlob()->getData();
  };
  std::optional<ArrayRef<char>> wgs = blobOf(op.getWgs()), wmb = blobOf(op.getWmb()),
                                data = blobOf(op.getData());
  if (!wgs || !wmb || !data)
    return false;
  // The type verified: its layout and storage description exist.
  nv::NvdlaWeightLayout layout = *nv::NvdlaWeightLayout::create(weight.getParams(type.getShape()));
  const int64_t alignment = cast<LayoutEncodingAttr>(weight)
                                .getStorageDescription(type.getShape(), type.getElementType(),
                                                       [] { return InFlightDiagnostic(); })
                                ->buffers.front()
                                .alignment;
  if (!nv::checkSeparateSurfaces(layout, alignment, wgs->data(), wgs->size(), wmb->data(),
                                 wmb->size(), data->size()))
    return false;
  std::vector<bool> nonZero = nv::readSeparateWeightMask(layout, alignment, wmb->data());
  const int64_t eb = layout.getElementBytes();
  for (int64_t k = 0; k < type.getDimSize(0); ++k)
    for (int64_t c = 0; c < type.getDimSize(1); ++c)
      for (int64_t r = 0; c != k && r < type.getDimSize(2); ++r)
        for (int64_t s = 0; s < type.getDimSize(3); ++s) {
          ::dlaformat::Expected<int64_t> at = layout.getByteOffset(k, c, r, s);
          if (!at || nonZero[static_cast<size_t>(*at / eb)])
            return false;
        }
  return true;
}

/// Whether the weight is a compile-time constant of a per-channel
/// (depthwise) convolution run dense: K == C and every weight off the
/// diagonal k == c is zero (how --dla-convert-tosa runs a depthwise
/// convolution on the convolution core, over atomic-C slices).
bool isDepthwiseDense(Value weight) {
  auto type = cast<RankedTensorType>(weight.getType());
  const int64_t k = type.getDimSize(0), c = type.getDimSize(1);
  if (k != c || k == 1)
    return false;
  if (auto packed = weight.getDefiningOp<WeightConstantOp>())
    return isDiagonalPacked(packed);
  if (auto relayout = weight.getDefiningOp<RelayoutOp>())
    weight = relayout.getSource();
  std::optional<CompileTimeConstant> constant = matchCompileTimeConstant(weight);
  if (!constant)
    return false;
  std::optional<std::vector<char>> bytes = readCompileTimeBytes(*constant);
  Type element = type.getElementType();
  const int64_t eb = getElementBytes(element);
  const int64_t window = type.getDimSize(2) * type.getDimSize(3);
  if (!bytes || static_cast<int64_t>(bytes->size()) != k * c * window * eb)
    return false;
  // A float zero of either sign: its product with a finite input adds
  // nothing to a sum (that starts at +0).
  const bool isFloat = isa<FloatType>(element);
  for (int64_t i = 0, n = k * c * window; i < n; ++i) {
    if ((i / window) % c == i / (c * window))
      continue;
    for (int64_t j = 0; j < eb; ++j) {
      auto byte = static_cast<unsigned char>((*bytes)[i * eb + j]);
      if (isFloat && j == eb - 1)
        byte &= 0x7f; // little-endian: the sign bit is in the last byte
      if (byte)
        return false;
    }
  }
  return true;
}

/// An fp16 weight known at compile time, widened to f32 there rather than
/// by every run (the same values: f16 -> f32 is exact; the f16 rounding is
/// the packer's, which is the truncf's). Null when `plain` is not such a
/// constant.
Value widenedConstantWeight(OpBuilder &b, Location loc, Value plain, NumberType acc) {
  auto type = cast<RankedTensorType>(plain.getType());
  if (!type.getElementType().isF16() || !acc.type.isF32())
    return {};
  std::optional<CompileTimeConstant> constant = matchCompileTimeConstant(plain);
  if (!constant)
    return {};
  std::optional<std::vector<char>> bytes = readCompileTimeBytes(*constant);
  if (!bytes || static_cast<int64_t>(bytes->size()) != type.getNumElements() * 2)
    return {};
  std::vector<float> values(static_cast<size_t>(type.getNumElements()));
  ::dlaformat::convertFp16ToFp32(reinterpret_cast<const uint16_t *>(bytes->data()), values.data(),
                         type.getNumElements());
  auto wide = RankedTensorType::get(type.getShape(), acc.type);
  return arith::ConstantOp::create(b, loc, wide,
                                   DenseElementsAttr::get(wide, ArrayRef<float>(values)));
}

} // namespace

void reference::markDepthwiseWeight(ConvOp conv) {
  if (!conv->hasAttr(kDepthwiseWeightAttr) && isDepthwiseDense(conv.getWeight()))
    conv->setAttr(kDepthwiseWeightAttr, UnitAttr::get(conv.getContext()));
}

namespace {

/// The convolution sum in `init`'s type: `linalg.conv_2d_nchw_fchw`, or
/// `linalg.depthwise_conv_2d_nchw_chw` over the diagonal when `depthwise`.
/// The two are the same numbers: a zero weight's product adds nothing to
/// the sum (integers: exactly; floats: for finite inputs, the sum starts at
/// +0, so neither a sign of zero nor a rounding changes), and the
/// depthwise sum visits each channel's window in the same order; it does
/// C times less work.
Value convolutionSum(OpBuilder &b, Location loc, Value x, Value w, Value init, ConvOp op,
                     bool depthwise) {
  if (!depthwise)
    return linalg::Conv2DNchwFchwOp::create(b, loc, TypeRange{init.getType()},
                                            ValueRange{x, w}, ValueRange{init},
                                            b.getI64TensorAttr(op.getStrides()),
                                            b.getI64TensorAttr(op.getDilations()))
        .getResult(0);
  auto wType = cast<RankedTensorType>(w.getType());
  auto diagType = RankedTensorType::get(
      {wType.getDimSize(0), wType.getDimSize(2), wType.getDimSize(3)}, wType.getElementType());
  MLIRContext *ctx = b.getContext();
  AffineExpr c = getAffineDimExpr(0, ctx), r = getAffineDimExpr(1, ctx),
             s = getAffineDimExpr(2, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {c, c, r, s}, ctx),
                                 AffineMap::get(3, 0, {c, r, s}, ctx)};
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  Value empty = tensor::EmptyOp::create(b, loc, diagType.getShape(), diagType.getElementType());
  Value diag = linalg::GenericOp::create(
                   b, loc, TypeRange{diagType}, ValueRange{w}, ValueRange{empty}, maps,
                   iterators,
                   [](OpBuilder &nb, Location nl, ValueRange args) {
                     linalg::YieldOp::create(nb, nl, args[0]);
                   })
                   .getResult(0);
  return linalg::DepthwiseConv2DNchwChwOp::create(b, loc, TypeRange{init.getType()},
                                                  ValueRange{x, diag}, ValueRange{init},
                                                  b.getI64TensorAttr(op.getStrides()),
                                                  b.getI64TensorAttr(op.getDilations()))
      .getResult(0);
}

/// The direct convolution sum of the converted input `x` (in `acc`) and
/// the plain weight `w`.
Value directSum(OpBuilder &b, Location loc, ConvOp op, Value x, Value w, NumberType acc,
                int64_t padValue) {
  if (Value wide = widenedConstantWeight(b, loc, w, acc))
    w = wide;
  else
    w = convertTensor(b, loc, w, NumberType::of(elementTypeOf(w)), acc);

  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  if (xType.getDimSize(1) != wType.getDimSize(1)) {
    // Image input: only the weight's channels meet non-zero weights.
    SmallVector<int64_t> shape(xType.getShape());
    shape[1] = wType.getDimSize(1);
    x = tensor::ExtractSliceOp::create(
        b, loc, xType.clone(shape), x, ValueRange{}, ValueRange{}, ValueRange{},
        b.getDenseI64ArrayAttr({0, 0, 0, 0}), b.getDenseI64ArrayAttr(shape),
        b.getDenseI64ArrayAttr({1, 1, 1, 1}));
  }
  // Padded positions feed PAD_VALUE, after the converter (cmod/csc).
  x = padSpatial(b, loc, x, op.getPadding(),
                 scalarConstant(b, loc, acc.type, static_cast<double>(padValue)));

  RankedTensorType outType = op.getOutput().getType();
  Value init = filledTensor(b, loc, outType.getShape(), scalarConstant(b, loc, acc.type, 0));
  markDepthwiseWeight(op);
  return convolutionSum(b, loc, x, w, init, op,
                        op->hasAttr(kDepthwiseWeightAttr) &&
                            xType.getDimSize(1) == wType.getDimSize(1));
}

/// Direct and image convolutions compute the convolution sum (an image's
/// channels beyond the weight's C meet zero weights). Winograd convolutions
/// compute it as the hardware does, in the transformed domain from the
/// stored taps (ReferenceWinograd.h), in both forms: the buffer form reads
/// the taps from the layer's storage operand, the tensor form from the
/// storage bytes of its encoded weights.
struct ConvToReference : LayerToReference<ConvOp> {
  using LayerToReference::LayerToReference;

  LogicalResult rewrite(ConvOp op, OpAdaptor adaptor, nv::PipelinePrecision pipeline,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    NumberType acc{getAccumulatorType(ctx, pipeline, /*isSdp=*/false)};

    // Nothing silently computes less than asked: an fp16 convolution that
    // NVDLA's arithmetic does not cover keeps the ideal meaning below, and
    // says why.
    if (nvdlaFp16(op) && isFp16Conv(op)) {
      std::string why = whyIdealFp16Conv(op);
      if (why.empty() && op.getMode() == nv::ConvMode::Direct)
        return rewriteNvdlaFp16(op, adaptor, rewriter, Value());
      if (why.empty() && op.getMode() == nv::ConvMode::Winograd) {
        // Winograd from its stored taps; plain (unencoded) weights have none.
        Value taps = getWinogradTaps(adaptor.getWeight());
        if (!taps)
          taps = emitWinogradTapsOfTensor(rewriter, loc, adaptor.getWeight());
        if (taps)
          return rewriteNvdlaFp16(op, adaptor, rewriter, taps);
        why = "its weights hold no stored Winograd taps (plain weights, or encoded ones whose "
              "storage cannot be named); NVDLA's Winograd reads the taps G g G^T";
      }
      if (!why.empty())
        remarkIdealFp16(op, why);
    }
    Value x = readPlain(rewriter, loc, adaptor.getInput());
    // Integer pixels into a float pipeline: CDMA's converter makes fp16
    // (in both arithmetics: it is the layer's meaning, decision 16 of
    // docs/IntegerAttributes.md), then NVDLA's or the ideal convolution.
    // fp16 pixels pass the converter unchanged, NaNs too (cdma_cvt.cpp at
    // IN_PRECISION fp16; NAN_TO_ZERO stays 0: docs/NvdlaCModelV1.md "Image
    // input of fp16 pixels").
    if (acc.isFloat() && op.getMode() == nv::ConvMode::ImageInput) {
      if (isa<IntegerType>(elementTypeOf(x)))
        x = cdmaInputConverterFp16(rewriter, loc, op, x);
      if (nvdlaFp16(op) && isNvdlaFp16ImageConv(op))
        return rewriteNvdlaFp16(op, adaptor, rewriter, /*taps=*/Value(), x);
    }
    // Winograd weights are their stored taps: read from storage (buffer
    // form), or from the storage bytes of the encoded weights (tensor form).
    Value taps = getWinogradTaps(adaptor.getWeight());
    if (!taps)
      taps = emitWinogradTapsOfTensor(rewriter, loc, adaptor.getWeight());
    Value w = taps ? Value() : readPlain(rewriter, loc, adaptor.getWeight());
    // Integer pipelines read their input through CDMA's converter.
    if (!acc.isFloat())
      x = cdmaInputConverter(rewriter, loc, op, x,
                             pipeline == nv::PipelinePrecision::Int8 ? 8 : 16);
    x = convertTensor(rewriter, loc, x, NumberType::of(elementTypeOf(x)), acc);
    // (I64Attr reads back as uint64_t: the cast restores the sign.)
    const auto padValue = static_cast<int64_t>(op.getPadValue().value_or(0));
    RankedTensorType outType = op.getOutput().getType();
    // Winograd from storage: in the transformed domain.
    Value sum = taps ? winogradConvSum(rewriter, loc, op, x, taps, acc.type, padValue)
                     : directSum(rewriter, loc, op, x, w, acc, padValue);

    SmallVector<Value> inputs = {sum};
    NumberType biasType;
    if (Value bias = adaptor.getBias()) {
      Value plain = readPlain(rewriter, loc, bias);
      biasType = NumberType::of(elementTypeOf(bias));
      inputs.push_back(plain);
    }
    if (deliversAccumulator(op)) {
      // What CACC hands a stage-form SDP: SAT32(RHA(sum, clip_truncate)),
      // a plain i32 tensor the SDP's pattern reads (section 4.4).
      IntegerType i32 = rewriter.getI32Type();
      Value delivered = mapNchw(
          rewriter, loc, RankedTensorType::get(outType.getShape(), i32), {sum},
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value v = caccDelivery(b, l, args[0], op.getClipTruncate().value_or(0));
            return v.getType() == i32 ? v : Value(arith::TruncIOp::create(b, l, i32, v));
          });
      rewriter.replaceOp(op, delivered);
      return success();
    }
    NumberType out = NumberType::of(outType.getElementType());
    Value result = mapNchw(rewriter, loc, plainType(outType), inputs,
                           [&](OpBuilder &b, Location l, ValueRange args) {
                             Value v = args[0];
                             if (std::optional<int64_t> clip = op.getClipTruncate())
                               v = caccDelivery(b, l, v, *clip);
                             if (args.size() > 1)
                               v = add(b, l, v, convertScalar(b, l, args[1], biasType, acc));
                             return convertScalar(b, l, v, acc, out);
                           });
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }

  /// The remark of a convolution the hardware fp16 arithmetic does not
  /// cover (by location: op->emitRemark would print the op).
  static void remarkIdealFp16(ConvOp op, StringRef why) {
    mlir::emitRemark(op.getLoc())
        << "dla.conv " << std::string(::dlaformat::enumName(op.getMode()))
        << " keeps fp16-arithmetic=ideal's meaning, not NVDLA's arithmetic: "
        << why;
  }

  /// NVDLA's fp16 arithmetic: CACC's fp32 (the runtime's conv_fp16, or
  /// conv_wino_fp16 on the Winograd `taps` when given), the
  /// bias added as the SDP's X stage does (FpAdd of the widened fp16
  /// bias), then the output converter (Fp32ToFp16); on-the-fly SDPs
  /// receive the fp32 itself (a plain f32 tensor).
  /// `taps`: a Winograd convolution's stored taps; `image`: an image
  /// convolution's converted pixels (plain f16).
  LogicalResult rewriteNvdlaFp16(ConvOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter,
                                 Value taps, Value image = {}) const {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getOutput().getType();
    const bool delivers = deliversFloatAccumulator(op);
    if (!delivers && !outType.getElementType().isF16())
      return rewriter.notifyMatchFailure(op, "fp16 to a non-fp16 output is not modelled");
    SmallVector<Value> inputs;
    if (taps) {
      // Winograd: the stored taps, as the ideal Winograd reads them.
      Value x = readPlain(rewriter, loc, adaptor.getInput());
      inputs.push_back(emitNvdlaConvWinoFp16(rewriter, loc, op, x, taps));
    } else {
      Value w = readPlain(rewriter, loc, adaptor.getWeight());
      inputs.push_back(image ? emitNvdlaImageConvFp16(rewriter, loc, op, image, w)
                             : emitNvdlaConvFp16(rewriter, loc, op,
                                                 readPlain(rewriter, loc, adaptor.getInput()), w));
    }
    if (Value bias = adaptor.getBias())
      inputs.push_back(readPlain(rewriter, loc, bias));
    Type element = delivers ? rewriter.getF32Type() : rewriter.getF16Type();
    Value result = mapNchw(rewriter, loc, RankedTensorType::get(outType.getShape(), element),
                           inputs, [&](OpBuilder &b, Location l, ValueRange args) {
                             Value v = args[0];
                             if (args.size() > 1)
                               v = nvdlaAdd(b, l, v, nvdlaWiden(b, l, args[1]));
                             return delivers ? Value(arith::BitcastOp::create(
                                                   b, l, b.getF32Type(), v))
                                             : nvdlaToFp16(b, l, v);
                           });
    rewriter.replaceOp(op, delivers ? result : writeEncoded(rewriter, loc, result, outType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dla.sdp
//===----------------------------------------------------------------------===//

/// bias, then batch-norm (add, then multiply), then the element-wise operand
/// (added), then ReLU or PReLU, in the SDP's pipeline type; one rounding at
/// the output.
struct SdpToReference : LayerToReference<SdpOp> {
  using LayerToReference::LayerToReference;

  LogicalResult rewrite(SdpOp op, OpAdaptor adaptor, nv::PipelinePrecision pipeline,
                        ConversionPatternRewriter &rewriter) const override {
    // An fp16 layer's SDP pipeline is fp32 (its X stages' data path); it
    // writes fp16, or int16 through Fp16ToInt16 (nvdlaSdpOutput).
    Type outElement = op.getOutput().getType().getElementType();
    const bool nvdla = (pipeline == nv::PipelinePrecision::Fp16 ||
                        pipeline == nv::PipelinePrecision::Fp32) &&
                       nvdlaFp16(op) && (outElement.isF16() || outElement.isInteger(16)) &&
                       !op.getOutCvtAttr();
    if (op.isStageForm())
      return rewriteStages(op, adaptor, rewriter, nvdla);
    if (nvdla)
      return rewriteNvdlaFp16(op, adaptor, rewriter);
    Location loc = op.getLoc();
    NumberType acc{getAccumulatorType(rewriter.getContext(), pipeline, /*isSdp=*/true)};

    // Operands in a fixed order; each remembers its number type.
    SmallVector<Value> inputs;
    SmallVector<NumberType> types;
    auto push = [&](Value v) -> int {
      if (!v)
        return -1;
      types.push_back(NumberType::of(elementTypeOf(v)));
      inputs.push_back(readPlain(rewriter, loc, v));
      return static_cast<int>(inputs.size()) - 1;
    };
    int x = push(adaptor.getInput());
    int bias = push(adaptor.getBias());
    int bnAdd = -1, bnMul = -1;
    if (Value bn = adaptor.getBatchnorm()) {
      // tensor<Cx2> -> two tensor<C> columns (add, multiply).
      Value plain = readPlain(rewriter, loc, bn);
      for (int64_t k = 0; k < 2; ++k) {
        Value col = batchnormColumn(rewriter, loc, plain, k);
        types.push_back(NumberType::of(elementTypeOf(bn)));
        inputs.push_back(col);
        (k == 0 ? bnAdd : bnMul) = static_cast<int>(inputs.size()) - 1;
      }
    }
    int eltwise = push(adaptor.getEltwise());
    int prelu = push(adaptor.getPrelu());
    bool relu = op.getRelu();

    RankedTensorType outType = op.getOutput().getType();
    NumberType out = NumberType::of(outType.getElementType());
    Value result = mapNchw(
        rewriter, loc, plainType(outType), inputs, [&](OpBuilder &b, Location l, ValueRange args) {
          auto get = [&](int i) { return convertScalar(b, l, args[i], types[i], acc); };
          Value v = get(x);
          if (bias >= 0)
            v = add(b, l, v, get(bias));
          if (bnAdd >= 0)
            v = mul(b, l, add(b, l, v, get(bnAdd)), get(bnMul));
          if (eltwise >= 0)
            v = add(b, l, v, get(eltwise));
          Value zero = scalarConstant(b, l, acc.type, 0);
          if (relu)
            v = acc.isFloat() ? Value(arith::MaximumFOp::create(b, l, v, zero))
                              : Value(arith::MaxSIOp::create(b, l, v, zero));
          if (prelu >= 0) {
            Value negative =
                acc.isFloat()
                    ? Value(arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v, zero))
                    : Value(arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, v, zero));
            v = arith::SelectOp::create(b, l, negative, mul(b, l, v, get(prelu)), v);
          }
          if (CvtAttr cvt = op.getOutCvtAttr())
            return sdpConvertOutput(b, l, v, cvt, outType.getElementType());
          return convertScalar(b, l, v, acc, out);
        });
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }

  /// The implicit form on an fp16 pipeline, as NVDLA computes it: each
  /// step one of the X stages' fp32 operations in the implicit order (bias
  /// FpAdd; batch-norm FpAdd then FpMul; eltwise FpAdd; ReLU, or PReLU's
  /// FpMul of values with the sign bit set), operands widened by
  /// Fp16ToFp32, then the output converter. An on-the-fly SDP reads CACC's
  /// fp32 when its convolution delivered it.
  LogicalResult rewriteNvdlaFp16(SdpOp op, OpAdaptor adaptor,
                                 ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    declareNvdlaRuntime(rewriter, op);
    SmallVector<Value> inputs = {sdpInput(op, adaptor, rewriter)};
    auto push = [&](Value v) -> int {
      if (!v)
        return -1;
      inputs.push_back(v);
      return static_cast<int>(inputs.size()) - 1;
    };
    int bias = push(adaptor.getBias() ? readPlain(rewriter, loc, adaptor.getBias()) : Value());
    int bnAdd = -1, bnMul = -1;
    if (Value bn = adaptor.getBatchnorm()) {
      Value plain = readPlain(rewriter, loc, bn);
      bnAdd = push(batchnormColumn(rewriter, loc, plain, 0));
      bnMul = push(batchnormColumn(rewriter, loc, plain, 1));
    }
    int eltwise =
        push(adaptor.getEltwise() ? readPlain(rewriter, loc, adaptor.getEltwise()) : Value());
    int prelu = push(adaptor.getPrelu() ? readPlain(rewriter, loc, adaptor.getPrelu()) : Value());
    const bool relu = op.getRelu();
    RankedTensorType outType = op.getOutput().getType();
    Value result = mapNchw(
        rewriter, loc, plainType(outType), inputs, [&](OpBuilder &b, Location l, ValueRange args) {
          auto get = [&](int i) { return nvdlaWiden(b, l, args[i]); };
          Value v = get(0);
          if (bias >= 0)
            v = nvdlaAdd(b, l, v, get(bias));
          if (bnAdd >= 0)
            v = nvdlaMul(b, l, nvdlaAdd(b, l, v, get(bnAdd)), get(bnMul));
          if (eltwise >= 0)
            v = nvdlaAdd(b, l, v, get(eltwise));
          if (relu)
            v = nvdlaRelu(b, l, v);
          if (prelu >= 0) {
            Value nonNegative = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, v,
                                                      scalarConstant(b, l, b.getI32Type(), 0));
            v = arith::SelectOp::create(b, l, nonNegative, v, nvdlaMul(b, l, v, get(prelu)));
          }
          return nvdlaSdpOutput(b, l, v, outType.getElementType());
        });
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }

  /// The SDP's input, plain: CACC's fp32 (a plain f32 tensor) when an fp16
  /// convolution delivered it, else the input read through its relayout.
  Value sdpInput(SdpOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const {
    Value in = adaptor.getInput();
    if (op.getMode() == SdpMode::OnTheFly && elementTypeOf(in).isF32() &&
        !op.getInput().getType().getElementType().isF32())
      return in;
    return readPlain(rewriter, op.getLoc(), in);
  }

  /// The stage form: X1, X2, Y on 32-bit data, then the output converter
  /// (identity when absent), as the hardware (section 4.4). With `nvdla`
  /// (an fp16 pipeline computing NVDLA's arithmetic) the X stages are
  /// sdp_x_fp16's, the Y stage's multiplier and ALU sdp_y_fp16's and the
  /// output converter Fp32ToFp16.
  LogicalResult rewriteStages(SdpOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter,
                              bool nvdla) const {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    // Float stages compute in f32 (section 4.7).
    const bool isFloat = !op.getInput().getType().getElementType().isInteger();
    Type f32 = rewriter.getF32Type();
    // on_the_fly integer: the accumulator ConvToReference delivered (plain
    // i32); a float convolution delivers its result.
    Value input = op.getMode() == SdpMode::OnTheFly && !isFloat
                      ? adaptor.getInput()
                      : sdpInput(op, adaptor, rewriter);
    if (nvdla)
      declareNvdlaRuntime(rewriter, op);
    SmallVector<Value> inputs = {input};
    auto push = [&](Value v) {
      inputs.push_back(v);
      return static_cast<int>(inputs.size()) - 1;
    };
    auto readComponents = [&](nv::SdpMemOperand mem) -> std::pair<int, int> {
      Value v = getSdpMemoryOperand(op, mem);
      Value plain = readPlain(rewriter, loc, v);
      if (nv::sdpOperandComponents(mem) == 1) {
        int i = push(plain);
        return {i, i};
      }
      int alu = push(batchnormColumn(rewriter, loc, plain, 0));
      return {alu, push(batchnormColumn(rewriter, loc, plain, 1))};
    };
    // Per memory operand, the argument index of its ALU and MUL components
    // (read once, whichever units name it).
    std::optional<std::pair<int, int>> read[::dlaformat::enumCount<nv::SdpMemOperand>()];
    auto components = [&](nv::SdpMemOperand mem) -> std::pair<int, int> {
      auto &known = read[static_cast<size_t>(mem)];
      if (!known)
        known = readComponents(mem);
      return *known;
    };
    auto unitIndex = [&](const SdpOperand &o, bool isAlu) {
      if (!o.mem)
        return -1;
      auto [alu, mul] = components(*o.mem);
      return isAlu ? alu : mul;
    };
    struct StageArgs {
      int alu, mul;
    };
    StageArgs bs{-1, -1}, bn{-1, -1}, ew{-1, -1};
    if (SdpXAttr s = op.getBsAttr())
      bs = {unitIndex(s.getAluOperand(), true), unitIndex(s.getMulOperand(), false)};
    if (SdpXAttr s = op.getBnAttr())
      bn = {unitIndex(s.getAluOperand(), true), unitIndex(s.getMulOperand(), false)};
    if (SdpYAttr s = op.getEwAttr())
      ew = {unitIndex(s.getAluOperand(), true), unitIndex(s.getMulOperand(), false)};

    RankedTensorType outType = op.getOutput().getType();
    Type outElement = outType.getElementType();
    CvtAttr cvt = op.getOutCvtAttr();
    // The float LUT (verifyFloatEw: an fp16 output). Alone on the layer's
    // own fp16 input it answers from a table of the 65,536 inputs; after
    // other stages it reads their fp32 value, which the body hands over as
    // bits to the runtime's LUT (emitNvdlaLutFloatFp16).
    LutAttr floatLut = isFloat && op.getEwAttr() ? op.getEwAttr().getLut() : LutAttr();
    const bool lutAlone = floatLut && !op.getBsAttr() && !op.getBnAttr() &&
                          !op.getEwAttr().getMulOperand().isPresent() &&
                          !op.getEwAttr().getAlu() && elementTypeOf(input).isF16();
    const bool lutAfter = floatLut && !lutAlone;
    RankedTensorType bodyType =
        lutAfter ? plainType(outType).clone(rewriter.getI32Type()) : plainType(outType);
    Value result = mapNchw(
        rewriter, loc, bodyType, inputs, [&](OpBuilder &b, Location l, ValueRange args) {
          // Data and operands are signed integers, sign-extended, or
          // floats, extended to f32.
          auto arg = [&](int i) -> Value {
            if (i < 0)
              return {};
            Value v = args[i];
            if (isFloat)
              return v.getType() == f32 ? v : Value(arith::ExtFOp::create(b, l, f32, v));
            return v.getType() == i64 ? v : Value(arith::ExtSIOp::create(b, l, i64, v));
          };
          auto argRaw = [&](int i) { return i < 0 ? Value() : args[i]; };
          if (lutAlone)
            return sdpLookupFloatFp16(b, l, args[0], floatLut);
          Value v = arg(0);
          if (nvdla) {
            Value bits = nvdlaWiden(b, l, args[0]);
            if (SdpXAttr s = op.getBsAttr())
              bits = nvdlaSdpXStage(b, l, bits, s, argRaw(bs.alu), argRaw(bs.mul));
            if (SdpXAttr s = op.getBnAttr())
              bits = nvdlaSdpXStage(b, l, bits, s, argRaw(bn.alu), argRaw(bn.mul));
            if (SdpYAttr s = op.getEwAttr())
              bits = nvdlaSdpYStage(b, l, bits, s, argRaw(ew.alu), argRaw(ew.mul));
            return lutAfter ? bits : nvdlaSdpOutput(b, l, bits, outElement);
          }
          if (isFloat) {
            if (SdpXAttr s = op.getBsAttr())
              v = sdpXStageFloat(b, l, v, s, arg(bs.alu), arg(bs.mul));
            if (SdpXAttr s = op.getBnAttr())
              v = sdpXStageFloat(b, l, v, s, arg(bn.alu), arg(bn.mul));
            if (SdpYAttr s = op.getEwAttr())
              v = sdpYStageFloat(b, l, v, s, arg(ew.alu), arg(ew.mul));
            if (lutAfter)
              return Value(arith::BitcastOp::create(b, l, b.getI32Type(), v));
            // One rounding, at the output.
            return convertScalar(b, l, v, NumberType{f32}, NumberType::of(outElement));
          }
          if (SdpXAttr s = op.getBsAttr())
            v = sdpXStage(b, l, v, s, arg(bs.alu), arg(bs.mul));
          if (SdpXAttr s = op.getBnAttr())
            v = sdpXStage(b, l, v, s, arg(bn.alu), arg(bn.mul));
          if (SdpYAttr s = op.getEwAttr())
            v = sdpYStage(b, l, v, s, arg(ew.alu), arg(ew.mul));
          return sdpConvertOutput(b, l, v, cvt, outElement);
        });
    if (lutAfter)
      result = emitNvdlaLutFloatFp16(rewriter, loc, op, result, getLutProgram(floatLut));
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dla.pool
//===----------------------------------------------------------------------===//

struct PoolToReference : LayerToReference<PoolOp> {
  using LayerToReference::LayerToReference;

  LogicalResult rewrite(PoolOp op, OpAdaptor adaptor, nv::PipelinePrecision pipeline,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    NumberType acc{getAccumulatorType(ctx, pipeline, /*isSdp=*/false)};
    PoolKind kind = op.getKind();

    Value x = readPlain(rewriter, loc, adaptor.getInput());
    // fp16 on nv_full: the PDP's fp16 path (fp16 compares, fp17 sums).
    if (nvdlaFp16(op) && elementTypeOf(x).isF16() &&
        op.getOutput().getType().getElementType().isF16()) {
      Value result = emitNvdlaPoolFp16(rewriter, loc, op, x);
      rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, op.getOutput().getType()));
      return success();
    }
    x = convertTensor(rewriter, loc, x, NumberType::of(elementTypeOf(x)), acc);
    // Max / min pad with the identity of their reduction, so padding never
    // wins; average pads with zero and divides by the whole window.
    Value neutral = kind == PoolKind::Average
                        ? scalarConstant(rewriter, loc, acc.type, 0)
                        : extremeConstant(rewriter, loc, acc.type, kind == PoolKind::Min);
    x = padSpatial(rewriter, loc, x, op.getPadding(), neutral);

    RankedTensorType outType = op.getOutput().getType();
    ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides();
    Value window = tensor::EmptyOp::create(rewriter, loc, kernel, acc.type);
    Value init = filledTensor(rewriter, loc, outType.getShape(), neutral);
    // (n, c, oh, ow, kh, kw): the input at (n, c, oh*sy + kh, ow*sx + kw).
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineMap> maps = {
        AffineMap::get(6, 0, {d(0), d(1), d(2) * strides[0] + d(4), d(3) * strides[1] + d(5)},
                       ctx),
        AffineMap::get(6, 0, {d(4), d(5)}, ctx), AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)}, ctx)};
    SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
    iterators.append(2, utils::IteratorType::reduction);
    Value reduced =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), ValueRange{x, window}, ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = args[0], r = args[2], next;
              bool isFloat = acc.isFloat();
              switch (kind) {
              case PoolKind::Max:
                next = isFloat ? Value(arith::MaximumFOp::create(b, l, r, v))
                               : Value(arith::MaxSIOp::create(b, l, r, v));
                break;
              case PoolKind::Min:
                next = isFloat ? Value(arith::MinimumFOp::create(b, l, r, v))
                               : Value(arith::MinSIOp::create(b, l, r, v));
                break;
              case PoolKind::Average:
                next = add(b, l, r, v);
                break;
              }
              linalg::YieldOp::create(b, l, next);
            })
            .getResult(0);

    NumberType out = NumberType::of(outType.getElementType());
    double area = static_cast<double>(kernel[0]) * static_cast<double>(kernel[1]);
    // Integer averages are PDP's: padding registers, reciprocals, wrapping.
    Value result =
        kind == PoolKind::Average && !acc.isFloat()
            ? pdpIntegerAverage(rewriter, loc, op, reduced)
            : mapNchw(rewriter, loc, plainType(outType), ValueRange{reduced},
                      [&](OpBuilder &b, Location l, ValueRange args) {
                        Value v = args[0];
                        if (kind == PoolKind::Average)
                          v = arith::DivFOp::create(b, l, v,
                                                    scalarConstant(b, l, acc.type, area));
                        return convertScalar(b, l, v, acc, out);
                      });
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dla.lrn
//===----------------------------------------------------------------------===//

/// ONNX's LRN: the window of `size` channels starts (size-1)/2 before c and
/// is clipped to the tensor (zero padding), computed in f32 (fp16); integer
/// LRN, fp16 LRN on nv_full in hardware arithmetic and fp16 LRN with a
/// stated table compute as the CDP does.
struct LrnToReference : OpConversionPattern<LrnOp> {
  LrnToReference(MLIRContext *ctx, ReferenceOptions options)
      : OpConversionPattern<LrnOp>(ctx), options(options) {}
  ReferenceOptions options;

  LogicalResult matchAndRewrite(LrnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    NumberType f32{Float32Type::get(ctx)};
    Value x = readPlain(rewriter, loc, adaptor.getInput());
    // Integer LRN is the CDP's arithmetic (ReferenceCdp.cpp).
    if (elementTypeOf(x).isInteger()) {
      // The CDP converts no precision (the table rejects anything else).
      if (elementTypeOf(x) != op.getOutput().getType().getElementType())
        return rewriter.notifyMatchFailure(op, "integer LRN changing its precision");
      rewriter.replaceOp(op, writeEncoded(rewriter, loc, integerLrn(rewriter, loc, op, x),
                                          op.getOutput().getType()));
      return success();
    }
    // A stated float-mode table is the layer's meaning in both fp16 modes
    // (the ideal formula would ignore it), as the SDP's float LUT is.
    if ((op.getLutAttr() || usesNvdlaFp16(op, options.fp16Arithmetic)) &&
        elementTypeOf(x).isF16() && op.getOutput().getType().getElementType().isF16()) {
      rewriter.replaceOp(op, writeEncoded(rewriter, loc, emitNvdlaLrnFp16(rewriter, loc, op, x),
                                          op.getOutput().getType()));
      return success();
    }
    x = convertTensor(rewriter, loc, x, NumberType::of(elementTypeOf(x)), f32);

    int64_t size = op.getSize();
    Value squares = channelSquareSum(rewriter, loc, x, size);

    RankedTensorType outType = op.getOutput().getType();
    NumberType out = NumberType::of(outType.getElementType());
    double alpha = op.getAlpha().convertToDouble(), beta = op.getBeta().convertToDouble(),
           k = op.getK().convertToDouble();
    Value result = mapNchw(
        rewriter, loc, plainType(outType), ValueRange{x, squares},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value scaled = arith::MulFOp::create(
              b, l, args[1], scalarConstant(b, l, f32.type, alpha / static_cast<double>(size)));
          Value base = arith::AddFOp::create(b, l, scaled, scalarConstant(b, l, f32.type, k));
          Value denom = math::PowFOp::create(b, l, base, scalarConstant(b, l, f32.type, beta));
          Value v = arith::DivFOp::create(b, l, args[0], denom);
          return convertScalar(b, l, v, f32, out);
        });
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dla.clamp
//===----------------------------------------------------------------------===//

struct ClampToReference : LayerToReference<ClampOp> {
  using LayerToReference::LayerToReference;

  LogicalResult rewrite(ClampOp op, OpAdaptor adaptor, nv::PipelinePrecision pipeline,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NumberType acc{getAccumulatorType(rewriter.getContext(), pipeline, /*isSdp=*/true)};
    NumberType in = NumberType::of(elementTypeOf(op.getInput()));
    RankedTensorType outType = op.getOutput().getType();
    NumberType out = NumberType::of(outType.getElementType());
    const double lo = op.getMin().convertToDouble(), hi = op.getMax().convertToDouble();
    // NVDLA's fp16: the X stages the clamp runs as (ClampOp::getXStages:
    // FpMax / FpMin with the bounds' fp16 patterns), then Fp32ToFp16.
    // The register plan runs it as an SDP: int16 out through Fp16ToInt16.
    const bool nvdla =
        nvdlaFp16(op) && in.type.isF16() && (out.type.isF16() || out.type.isInteger(16));
    if (nvdla)
      declareNvdlaRuntime(rewriter, op);
    const std::pair<SdpXAttr, SdpXAttr> stages = op.getXStages();
    Value result = mapNchw(
        rewriter, loc, plainType(outType), {readPlain(rewriter, loc, adaptor.getInput())},
        [&](OpBuilder &b, Location l, ValueRange args) {
          if (nvdla) {
            Value bits = nvdlaWiden(b, l, args[0]);
            bits = nvdlaSdpXStage(b, l, bits, stages.first, Value(), Value());
            return nvdlaSdpOutput(b, l,
                                  nvdlaSdpXStage(b, l, bits, stages.second, Value(), Value()),
                                  out.type);
          }
          Value v = convertScalar(b, l, args[0], in, acc);
          Value min = scalarConstant(b, l, acc.type, lo), max = scalarConstant(b, l, acc.type, hi);
          v = acc.isFloat() ? Value(arith::MaximumFOp::create(b, l, v, min))
                            : Value(arith::MaxSIOp::create(b, l, v, min));
          v = acc.isFloat() ? Value(arith::MinimumFOp::create(b, l, v, max))
                            : Value(arith::MinSIOp::create(b, l, v, max));
          if (CvtAttr cvt = op.getOutCvtAttr())
            return sdpConvertOutput(b, l, v, cvt, outType.getElementType());
          return convertScalar(b, l, v, acc, out);
        });
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dla.upsample
//===----------------------------------------------------------------------===//

/// The values an SDP pass-through pass (dla.upsample, dla.interleave: every
/// stage bypassed, no converter) writes for the copied plain `result` of
/// `op`: unchanged, or with NVDLA's fp16 arithmetic (`nvdla`, fp16 data)
/// each taken to fp32 and back as v1's SDP takes it (NV_NVDLA_sdp.cpp
/// Fp16ToFp32, sdp_c.cpp Fp32ToFp16): every pattern kept (NaN payloads,
/// subnormals, -0) but the infinities, which NVDLA's formats saturate to
/// +-65504 (nvdla_float.h SetToInf: the largest finite value;
/// test_fp_nvdla.py test_sdp_pass_through_fp16 checks all 65,536).
Value sdpPassThrough(OpBuilder &b, Location loc, Operation *op, bool nvdla, Value result) {
  auto type = cast<RankedTensorType>(result.getType());
  if (!nvdla || !type.getElementType().isF16())
    return result;
  declareNvdlaRuntime(b, op);
  return mapNchw(b, loc, type, {result}, [](OpBuilder &nb, Location l, ValueRange args) {
    return nvdlaSdpOutput(nb, l, nvdlaWiden(nb, l, args[0]), args[0].getType());
  });
}

/// Nearest repeat: output[n, c, y, x] = input[n, c, y floordiv fy, x floordiv
/// fx] (ONNX Resize, nearest, integer scales); values are copied, no
/// arithmetic (but NVDLA's fp16 infinities: sdpPassThrough), so the
/// pipeline precision plays no part. With a border
/// [by, bx] the source index is clamp((y - by) floordiv fy, 0, H - 1) (and
/// so for x), which an affine map cannot say: the body extracts it.
struct UpsampleToReference : LayerToReference<UpsampleOp> {
  using LayerToReference::LayerToReference;

  LogicalResult rewrite(UpsampleOp op, OpAdaptor adaptor, nv::PipelinePrecision,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType outType = op.getOutput().getType();
    ArrayRef<int64_t> f = op.getFactors();
    if (op.getBorderAt(0) || op.getBorderAt(1)) {
      Value result = sdpPassThrough(rewriter, loc, op, nvdlaFp16(op),
                                    bordered(op, adaptor, rewriter));
      rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
      return success();
    }
    AffineExpr n, c, y, x;
    bindDims(ctx, n, c, y, x);
    SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {n, c, y.floorDiv(f[0]), x.floorDiv(f[1])}, ctx),
                                   AffineMap::getMultiDimIdentityMap(4, ctx)};
    Value init = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                         outType.getElementType());
    SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
    Value result =
        linalg::GenericOp::create(rewriter, loc, init.getType(),
                                  ValueRange{readPlain(rewriter, loc, adaptor.getInput())},
                                  ValueRange{init}, maps, iterators,
                                  [](OpBuilder &b, Location l, ValueRange args) {
                                    linalg::YieldOp::create(b, l, args[0]);
                                  })
            .getResult(0);
    result = sdpPassThrough(rewriter, loc, op, nvdlaFp16(op), result);
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }

  static Value bordered(UpsampleOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) {
    Location loc = op.getLoc();
    RankedTensorType outType = op.getOutput().getType();
    Value input = readPlain(rewriter, loc, adaptor.getInput());
    ArrayRef<int64_t> inShape = op.getInput().getType().getShape();
    const int64_t factor[2] = {op.getFactors()[0], op.getFactors()[1]};
    const int64_t border[2] = {op.getBorderAt(0), op.getBorderAt(1)};
    const int64_t last[2] = {inShape[2] - 1, inShape[3] - 1};
    Value init = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                         outType.getElementType());
    SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(4, rewriter.getContext())};
    SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
    return linalg::GenericOp::create(
               rewriter, loc, init.getType(), ValueRange{}, ValueRange{init}, maps, iterators,
               [&](OpBuilder &b, Location l, ValueRange) {
                 SmallVector<Value> at = {linalg::IndexOp::create(b, l, 0),
                                          linalg::IndexOp::create(b, l, 1)};
                 for (int axis = 0; axis < 2; ++axis) {
                   auto index = [&](int64_t v) {
                     return arith::ConstantIndexOp::create(b, l, v).getResult();
                   };
                   Value o = linalg::IndexOp::create(b, l, 2 + axis);
                   Value src = arith::FloorDivSIOp::create(
                       b, l, arith::SubIOp::create(b, l, o, index(border[axis])),
                       index(factor[axis]));
                   src = arith::MaxSIOp::create(b, l, src, index(0));
                   at.push_back(arith::MinSIOp::create(b, l, src, index(last[axis])));
                 }
                 linalg::YieldOp::create(b, l, tensor::ExtractOp::create(b, l, input, at).getResult());
               })
        .getResult(0);
  }
};

//===----------------------------------------------------------------------===//
// dla.interleave
//===----------------------------------------------------------------------===//

/// output[n, c, y fy + py, x fx + px] = phase[py fx + px][n, c, y, x]: each
/// phase inserted into the output with strides [1, 1, fy, fx] (the phases
/// cover every output element once), those of its rows and columns within
/// the output (a crop at the end leaves the last out); values are copied,
/// no arithmetic (but NVDLA's fp16 infinities: sdpPassThrough).
struct InterleaveToReference : LayerToReference<InterleaveOp> {
  using LayerToReference::LayerToReference;

  LogicalResult rewrite(InterleaveOp op, OpAdaptor adaptor, nv::PipelinePrecision,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType outType = op.getOutput().getType();
    ArrayRef<int64_t> out = outType.getShape();
    const int64_t fy = op.getFactors()[0], fx = op.getFactors()[1];
    Value result = tensor::EmptyOp::create(rewriter, loc, out, outType.getElementType());
    for (int64_t py = 0; py < fy; ++py)
      for (int64_t px = 0; px < fx; ++px) {
        const int64_t h = (out[2] - py + fy - 1) / fy, w = (out[3] - px + fx - 1) / fx;
        if (h <= 0 || w <= 0)
          continue;
        Value phase = readPlain(rewriter, loc, adaptor.getInputs()[py * fx + px]);
        SmallVector<int64_t> sizes = {out[0], out[1], h, w};
        if (cast<RankedTensorType>(phase.getType()).getShape() != ArrayRef<int64_t>(sizes))
          phase = tensor::ExtractSliceOp::create(
              rewriter, loc, phase, getAsIndexOpFoldResult(ctx, {0, 0, 0, 0}),
              getAsIndexOpFoldResult(ctx, sizes), getAsIndexOpFoldResult(ctx, {1, 1, 1, 1}));
        result = tensor::InsertSliceOp::create(
            rewriter, loc, phase, result, getAsIndexOpFoldResult(ctx, {0, 0, py, px}),
            getAsIndexOpFoldResult(ctx, sizes), getAsIndexOpFoldResult(ctx, {1, 1, fy, fx}));
      }
    result = sdpPassThrough(rewriter, loc, op, nvdlaFp16(op), result);
    rewriter.replaceOp(op, writeEncoded(rewriter, loc, result, outType));
    return success();
  }
};

} // namespace

void mlir::dla::populateDLAToLinalgPatterns(RewritePatternSet &patterns,
                                            ReferenceOptions options) {
  patterns.add<ConvToReference, SdpToReference, PoolToReference, ClampToReference,
               UpsampleToReference, InterleaveToReference>(patterns.getContext(), options);
  patterns.add<LrnToReference>(patterns.getContext(), options);
}
