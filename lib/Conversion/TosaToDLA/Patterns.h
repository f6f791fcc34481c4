//===- Patterns.h - Patterns of --dla-convert-tosa --------------*- C++ -*-===//
//
// Shared between the pattern files and the pass. Every offloading pattern
// has a `why...` function that says why an op cannot be offloaded (empty
// when it can): the pattern refuses to match on a reason, and the pass puts
// the same reason in the remark of every op left on the host.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_PATTERNS_H
#define DLA_LIB_CONVERSION_TOSATODLA_PATTERNS_H

#include "dla/Conversion/TosaToDLA/TosaToDLA.h"
#include "dla/Format/NvdlaConversion.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaRegisters.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::dla::tosa_to_dla {

//===----------------------------------------------------------------------===//
// Boundary: NHWC/NCHW transposes, casts and constant transposition.
//===----------------------------------------------------------------------===//

/// Permutations between TOSA's NHWC and the layer ops' NCHW.
inline constexpr int32_t kToNchw[4] = {0, 3, 1, 2};
inline constexpr int32_t kToNhwc[4] = {0, 2, 3, 1};

/// The NCHW shape of an NHWC shape.
SmallVector<int64_t> toNchwShape(ArrayRef<int64_t> nhwc);

/// `nhwc` (a TOSA activation) as layer-op input: transposed to NCHW, cast to
/// `elementType`.
Value toLayerInput(OpBuilder &b, Location loc, Value nhwc, Type elementType);
/// A layer op's NCHW result back as a TOSA activation of type `nhwcType`.
Value toTosaResult(OpBuilder &b, Location loc, Value nchw, RankedTensorType nhwcType);

/// The dimension order an element-wise layer over same-shape rank-4
/// operands reads them in. Element-wise arithmetic is the same in any
/// order, and the importer keeps ONNX's NCHW between layers (each layer's
/// NHWC result transposed back): read as NHWC such an Add would cost a host
/// transpose per operand and one for its result. NCHW as it stands when
/// some operand is NCHW already (a transpose to NCHW, a layer op's or a
/// view's result) and none is a transpose to NHWC; NHWC otherwise.
class ElementwiseFrame {
public:
  explicit ElementwiseFrame(ValueRange operands);
  bool readsAsIs() const { return asIs; }
  /// `v` as the layer's input (toLayerInput, or a cast alone).
  Value input(OpBuilder &b, Location loc, Value v, Type elementType) const;
  /// The layer's result as the op's of type `type` (toTosaResult, or a
  /// cast alone).
  Value result(OpBuilder &b, Location loc, Value layer, RankedTensorType type) const;

private:
  bool asIs = false;
};

/// A depthwise convolution as dense ones over slices of `slice` channels
/// (the configuration's atomic C; ConvPatterns.cpp says why): for each
/// slice calls `emit(part, c0, n, kcrs, weight)` with `part` channels
/// [c0, c0 + n) of NCHW `input` and the slice's block-diagonal KCRS weight
/// bytes (n * M kernels over n channels) from HWCM `hwcm` of `hwcmShape`
/// (elements of `elementBytes`); returns the results concatenated on
/// channels into `outType`.
Value emitDepthwiseSlices(
    OpBuilder &b, Location loc, Value input, ArrayRef<char> hwcm, ArrayRef<int64_t> hwcmShape,
    int64_t elementBytes, int64_t slice, RankedTensorType outType,
    llvm::function_ref<Value(Value part, int64_t c0, int64_t n, ArrayRef<int64_t> kcrs,
                             ArrayRef<char> weight)>
        emit);

/// True when `v` is a constant (tosa.const, arith.constant, ...) whose bytes
/// can be read.
bool isReadableConstant(Value v);
/// Bytes of one element of `type` (or its element type), rounded up.
int64_t byteWidth(Type type);
/// Row-major bytes of constant `v`; empty on failure.
std::vector<char> readConstantBytes(Value v);
/// A constant of `type` (f32 or the target type) holding `bytes`, converted
/// to `elementType` by arith.truncf when the types differ (so that
/// --dla-pack-weights fuses the rounding into packing).
Value makeConstant(OpBuilder &b, Location loc, RankedTensorType type, ArrayRef<char> bytes,
                   Type elementType, StringRef blobName);
/// Transposes row-major `bytes` of `shape` (elements of `elementBytes`) by
/// `perms` (result dim i = source dim perms[i]).
std::vector<char> transposeBytes(ArrayRef<char> bytes, ArrayRef<int64_t> shape,
                                 int64_t elementBytes, ArrayRef<int64_t> perms);
/// The values of constant `v` as f32: f32 or f16 elements, or integers of
/// 8, 16 or 32 bits that f32 holds exactly; nullopt otherwise.
std::optional<std::vector<float>> readConstantValues(Value v);

/// The `channels` values of a per-channel constant of an NHWC activation
/// (shape 1x1x1xC, or 1x1x1x1 broadcast), or nullopt when `v` is none or
/// its values cannot be read (readConstantValues).
std::optional<std::vector<float>> readPerChannelConstant(Value v, int64_t channels);

//===----------------------------------------------------------------------===//
// Patterns and their reasons.
//===----------------------------------------------------------------------===//

/// Multiply-accumulates of an op whose result elements are each a sum of
/// `perOutput` products (0 for shapes that are not static).
int64_t macsPerOutput(Operation *op, int64_t perOutput);

std::string whyNotConv(tosa::Conv2DOp op, const OffloadTarget &target);
std::string whyNotDepthwise(tosa::DepthwiseConv2DOp op, const OffloadTarget &target);
std::string whyNotMaxPool(tosa::MaxPool2dOp op, const OffloadTarget &target);
std::string whyNotAvgPool(tosa::AvgPool2dOp op, const OffloadTarget &target);
std::string whyNotClamp(tosa::ClampOp op, const OffloadTarget &target);
/// Empty for a nearest resize by integer factors that repeats pixels
/// (dla.upsample), else what the resize is and why it stays on the host
/// (ResizePatterns.cpp).
std::string whyNotResize(tosa::ResizeOp op, const OffloadTarget &target);
std::string whyNotAdd(tosa::AddOp op, const OffloadTarget &target);
std::string whyNotMul(tosa::MulOp op, const OffloadTarget &target);
/// A product of two feature maps, or of a feature map and a per-channel
/// tensor computed at run time (ProductPatterns.cpp).
std::string whyNotProduct(tosa::MulOp op, const OffloadTarget &target);
/// A product by a constant runs as a 1x1 convolution (MatMulPatterns.cpp).
std::string whyNotMatMul(tosa::MatMulOp op, const OffloadTarget &target);
/// The same, with B's one [K, P] matrix read into `kp` when it can run.
std::string whyNotMatMul(tosa::MatMulOp op, const OffloadTarget &target, std::vector<char> &kp);
/// An integer product of two run-time tensors runs as a convolution by the
/// right operand read as weights (ActivationProducts.cpp).
std::string whyNotActivationProduct(tosa::MatMulOp op, const OffloadTarget &target);
/// A rescale offloads with the layer it rescales (QuantizedPatterns.cpp).
std::string whyNotRescale(tosa::RescaleOp op, const OffloadTarget &target);
/// Whether integer `clamp` is the ReLU at the zero point of a rescale that
/// offloads (then it runs as that layer's ReLU).
bool isFusedQuantizedRelu(tosa::ClampOp clamp, const OffloadTarget &target);

/// Empty when a window (kernel and strides [h, w], padding [top, bottom,
/// left, right]) fits the register fields `w`, else which field it
/// overflows ("kernel width 12 is outside 1..8 (KERNEL_WIDTH: ...)").
std::string whyNotWindow(const ::dlaformat::nvdla::WindowFields &w, ArrayRef<int64_t> kernel,
                         ArrayRef<int64_t> strides, ArrayRef<int64_t> padding);
/// The same for a convolution (CSC / CDMA fields, dilation too), as a
/// reason ("its ...").
std::string whyNotConvWindow(ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> padding, ArrayRef<int64_t> dilations);

/// The same for a convolution's input channels (DATAIN_CHANNEL).
/// `channelsCut`: the pipeline's layers are cut by input channels where
/// they exceed one layer's (--dla-split-convolutions, fp16). More kernels
/// than one layer writes (DATAOUT_CHANNEL) are cut by that pass in every
/// precision.
std::string whyNotConvChannels(int64_t channels, bool channelsCut);

/// whyNotConvWindow of a tosa.conv2d or tosa.depthwise_conv2d, and a
/// conv2d's input channels (a depthwise one is cut into channel groups).
template <typename OpTy>
std::string whyNotConvRegisters(OpTy op, bool channelsCut) {
  ArrayRef<int64_t> w = cast<ShapedType>(op.getWeight().getType()).getShape();
  if constexpr (std::is_same_v<OpTy, tosa::Conv2DOp>)
    if (std::string why = whyNotConvChannels(w[3], channelsCut); !why.empty())
      return why;
  // conv2d's weight is OHWI, depthwise's HWCM.
  const int64_t kernel[2] = {std::is_same_v<OpTy, tosa::Conv2DOp> ? w[1] : w[0],
                             std::is_same_v<OpTy, tosa::Conv2DOp> ? w[2] : w[1]};
  return whyNotConvWindow(kernel, op.getStride(), op.getPad(), op.getDilation());
}

/// One dla.pool of a chain (orders as dla.pool's).
struct PoolStage {
  int64_t kernel[2], stride[2], pad[4];
};
/// The dla.pool layers that compute max (else average) pooling of an input
/// of extents `inHW` with a window the PDP registers may not hold: the
/// window itself when they do, else a chain whose result is the same
/// (WindowLimits.cpp). Failure with `why` (a reason) when there is none.
/// An average chain rounds each stage's output (fp16, or an integer
/// rounded half away from zero; a mean never saturates):
/// averageChainError states the bound.
FailureOr<SmallVector<PoolStage>> planPoolChain(bool max, ArrayRef<int64_t> inHW,
                                                ArrayRef<int64_t> kernel,
                                                ArrayRef<int64_t> strides,
                                                ArrayRef<int64_t> padding, std::string &why);
/// What rounding each of the `stages` layers of an integer average chain
/// costs, as a remark's words: within 53/64 a layer of the exact mean, at
/// most floor(53 stages / 64 + 1/2) from the mean rounded once.
std::string averageChainError(size_t stages);

void populateConvPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                          const OffloadTarget &target);
void populatePoolPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                          const OffloadTarget &target);
/// Clamp, add and mul (the products of run-time tensors among them).
void populateSdpPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                         const OffloadTarget &target);
/// tosa.resize (nearest repeats) -> dla.upsample.
void populateResizePatterns(RewritePatternSet &patterns, OffloadRules &rules,
                            const OffloadTarget &target);
/// A convolution read by a pixel shuffle (a transposed convolution as
/// TOSA decomposes it) -> a convolution per output phase and
/// dla.interleave (PixelShufflePatterns.cpp).
void populatePixelShufflePatterns(RewritePatternSet &patterns, const OffloadTarget &target);
/// TOSA's quantized layers (conv2d / depthwise / add with their rescale).
void populateQuantizedPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                               const OffloadTarget &target);
/// Products of run-time tensors on the SDP's multiplier (its rule is mul's,
/// populateSdpPatterns').
void populateProductPatterns(RewritePatternSet &patterns, const OffloadTarget &target);
/// An integer tosa.matmul of two run-time tensors as a dla.conv by
/// dla.as_weights (its rule is matmul's, populateMatMulPatterns').
void populateActivationProductPatterns(RewritePatternSet &patterns, const OffloadTarget &target);
/// tosa.matmul by a constant (and a per-column constant added to it) as
/// tosa.conv2d.
void populateMatMulPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                            const OffloadTarget &target);
/// Cancels transpose pairs and cast pairs that restore their input exactly;
/// joins values before their exact widening casts.
void populateCleanupPatterns(RewritePatternSet &patterns);
/// Reshape / transpose / reverse / pad of a constant folded into a constant
/// (dense_resource weights included: ConstantFolds.cpp).
void populateConstantFoldPatterns(RewritePatternSet &patterns);

/// Softmax of a layer's dequantized int8 logits as dla.emu_softmax
/// (EmulatorPatterns.cpp), when `target` says so.
void populateEmulatorPatterns(RewritePatternSet &patterns, const OffloadTarget &target);
/// tosa.concat along channels of feature data -> dla.channel_concat
/// (ChannelJoins.cpp).
void populateChannelJoinPatterns(RewritePatternSet &patterns, const OffloadTarget &target);
/// Why a join along channels of feature data stays on the host; nullopt
/// when it runs as a view or is no such join (data movement on the host).
std::optional<std::string> whyNotChannelJoin(tosa::ConcatOp op, const OffloadTarget &target);

/// A view pattern's remark from its planner `plan(why)` (a LogicalResult
/// or FailureOr): nullopt when the op is a view, or no op of the kind
/// (`why` left empty).
template <typename PlanFn> std::optional<std::string> whyNotView(PlanFn plan) {
  std::string why;
  if (succeeded(plan(why)) || why.empty())
    return std::nullopt;
  return why;
}

/// A pattern replacing a `SourceOp` by a view: `rewrite(op, rewriter,
/// target, why)` plans and replaces it, or fails with `why` (empty: no op
/// of the kind), which is then the match failure's reason.
template <typename SourceOp> struct ViewRewrite : OpRewritePattern<SourceOp> {
  using Rewrite = LogicalResult (*)(SourceOp, PatternRewriter &, const OffloadTarget &,
                                    std::string &);
  ViewRewrite(MLIRContext *context, const OffloadTarget &target, Rewrite rewrite)
      : OpRewritePattern<SourceOp>(context), target(target), rewrite(rewrite) {}
  LogicalResult matchAndRewrite(SourceOp op, PatternRewriter &rewriter) const override {
    std::string why;
    if (succeeded(rewrite(op, rewriter, target, why)))
      return success();
    return rewriter.notifyMatchFailure(op, why.empty() ? "no view of feature data" : why);
  }
  OffloadTarget target;
  Rewrite rewrite;
};

/// tosa.slice along channels of a layer's result -> dla.channel_slice
/// (ChannelSlices.cpp), and why such a slice stays on the host.
void populateChannelSlicePatterns(RewritePatternSet &patterns, const OffloadTarget &target);
std::optional<std::string> whyNotChannelSlice(tosa::SliceOp op, const OffloadTarget &target);
/// tosa.reshape of a layer's result's positions that keeps every byte in
/// place -> dla.reshape_view (ReshapeViews.cpp), and why another reshape of
/// a layer's result stays on the host.
void populateReshapeViewPatterns(RewritePatternSet &patterns, const OffloadTarget &target);
std::optional<std::string> whyNotReshapeView(tosa::ReshapeOp op, const OffloadTarget &target);
/// Runs SDP layers on the fly after a convolution and merges consecutive
/// SDP stages into one layer.
void populateSdpFusionPatterns(RewritePatternSet &patterns, const OffloadTarget &target);


} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_PATTERNS_H
