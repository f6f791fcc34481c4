//===- LayerOps.cpp - Verifiers of the NVDLA layer ops -------------------===//
//
// What ODS cannot say (DLALayerOps.td states ranks, element types and the
// lengths and signs of the window arrays): shapes that must agree between
// operands, the window arithmetic, and the rules of each convolution mode.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaRegisters.h"
#include "dla/Format/Window.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Checks output spatial sizes against the window arithmetic where static.
/// `kernel` and `dilation` give the window (dilation 1 for pooling); all of
/// it is the format library's checked window formula, so attribute values
/// near the int64 limits are reported rather than wrapped.
LogicalResult verifySpatial(Operation *op, RankedTensorType input, RankedTensorType output,
                            ArrayRef<int64_t> kernel, ArrayRef<int64_t> dilation,
                            ArrayRef<int64_t> strides, ArrayRef<int64_t> padding) {
  const char *names[2] = {"height", "width"};
  for (int i = 0; i < 2; ++i) {
    int64_t in = input.getDimSize(2 + i), k = kernel[i];
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k))
      continue;
    if (k < 1)
      return op->emitOpError() << "kernel " << names[i] << " must be at least 1, got " << k;
    std::optional<int64_t> window = fmt::dilatedExtent(k, dilation[i]);
    if (!window)
      return op->emitOpError() << "dilated kernel " << names[i] << " (" << k << " - 1) * "
                               << dilation[i] << " + 1 overflows 64 bits";
    std::optional<int64_t> padded = fmt::paddedExtent(in, padding[2 * i], padding[2 * i + 1]);
    if (!padded)
      return op->emitOpError() << "padded input " << names[i] << " " << in << " + "
                               << padding[2 * i] << " + " << padding[2 * i + 1]
                               << " overflows 64 bits";
    std::optional<int64_t> expected = fmt::windowPositions(*padded, *window, strides[i]);
    if (!expected)
      return op->emitOpError() << "window of " << names[i] << " " << *window
                               << " does not fit the padded input " << names[i] << " " << *padded;
    int64_t actual = output.getDimSize(2 + i);
    if (!ShapedType::isDynamic(actual) && actual != *expected)
      return op->emitOpError() << "output " << names[i] << " must be " << *expected << ", got "
                               << actual;
  }
  return success();
}


bool dimsMatch(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// Bias operand: per layer (rank 0), per channel (C) or per element (the
/// output's shape). ODS has checked the rank and the element type.
LogicalResult verifyBias(Operation *op, RankedTensorType bias, RankedTensorType output) {
  int64_t channels = output.getDimSize(1);
  bool perLayer = bias.getRank() == 0;
  bool perChannel = bias.getRank() == 1 && dimsMatch(bias.getDimSize(0), channels);
  bool perElement = bias.getRank() == 4 && succeeded(verifyCompatibleShape(bias, output));
  if (!perLayer && !perChannel && !perElement)
    return op->emitOpError() << "bias must be per layer (tensor<>), per channel (tensor<"
                             << channels << ">) or per element (the output shape), got "
                             << bias;
  return success();
}

} // namespace

LogicalResult mlir::dla::verifyRegisterField(Operation *op, const Twine &path, int64_t value,
                                             const nv::RegisterField &field,
                                             StringRef registerName) {
  if (field.holds(value))
    return success();
  StringRef name = registerName.empty() ? StringRef(field.name.data(), field.name.size())
                                        : registerName;
  InFlightDiagnostic diag = op->emitOpError() << path << " = " << value;
  if (field.step == 1) {
    diag << " is outside " << field.lo << ".." << field.hi;
  } else {
    diag << " is not one of " << field.lo;
    for (int64_t v = field.lo + field.step; v <= field.hi; v += field.step)
      diag << ", " << v;
  }
  return diag << " (" << name << ": " << StringRef(field.why.data(), field.why.size()) << ")";
}

LogicalResult mlir::dla::verifyWindowRegisters(Operation *op, ArrayRef<int64_t> kernel,
                                               ArrayRef<int64_t> strides,
                                               ArrayRef<int64_t> padding,
                                               const ::dlaformat::nvdla::WindowFields &fields) {
  const char *dims[2] = {"[0]", "[1]"};
  for (int d = 0; d < 2; ++d) {
    if (failed(verifyRegisterField(op, Twine("kernel") + dims[d], kernel[d], fields.kernel[d])) ||
        failed(verifyRegisterField(op, Twine("stride") + dims[d], strides[d], fields.stride[d])))
      return failure();
  }
  for (int i = 0; i < 4; ++i)
    if (failed(verifyRegisterField(op, "pad[" + Twine(i) + "]", padding[i], fields.padding[i])))
      return failure();
  return success();
}

LogicalResult mlir::dla::verifyElementwiseShape(Operation *op, RankedTensorType input,
                                                RankedTensorType output) {
  if (failed(verifyCompatibleShape(input, output)))
    return op->emitOpError() << "output shape must equal the input shape, got " << input
                             << " and " << output;
  return success();
}

LogicalResult mlir::dla::verifySdpOutputConverter(Operation *op, CvtAttr cvt,
                                                  RankedTensorType input,
                                                  RankedTensorType output) {
  if (!cvt)
    return success();
  if (!input.getElementType().isInteger())
    return op->emitOpError() << "out_cvt is an integer register: this SDP computes in fp32";
  if (failed(verifyRegisterField(op, "out_cvt.offset", cvt.getOffset(), nv::kSdpCvtOffset)) ||
      failed(verifyRegisterField(op, "out_cvt.scale", cvt.getScale(), nv::kSdpCvtScale)))
    return failure();
  return verifyRegisterField(op, "out_cvt.shift", cvt.getShift(), nv::kSdpCvtShift);
}

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyConvTypes(Operation *op, nv::ConvMode mode,
                                         RankedTensorType input, RankedTensorType weight,
                                         RankedTensorType bias, RankedTensorType output,
                                         ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                                         ArrayRef<int64_t> dilations) {
  // ODS admits any pixel precision; only `image` mode reads pixels.
  if (mode != nv::ConvMode::ImageInput && !getPrecision(input.getElementType()))
    return emitNotAPrecision(op, "input", input.getElementType());

  int64_t inC = input.getDimSize(1), wC = weight.getDimSize(1);
  if (mode == nv::ConvMode::ImageInput) {
    if (!ShapedType::isDynamic(inC) && !ShapedType::isDynamic(wC) && wC > inC)
      return op->emitOpError() << "weight has " << wC
                               << " input channels but the image has only " << inC;
  } else if (!dimsMatch(inC, wC)) {
    return op->emitOpError() << "weight has " << wC << " input channels, the input has " << inC;
  }
  if (!dimsMatch(input.getDimSize(0), output.getDimSize(0)))
    return op->emitOpError() << "output batch " << output.getDimSize(0)
                             << " differs from input batch " << input.getDimSize(0);
  if (!dimsMatch(weight.getDimSize(0), output.getDimSize(1)))
    return op->emitOpError() << "output has " << output.getDimSize(1)
                             << " channels, the weight has " << weight.getDimSize(0) << " kernels";

  const int64_t kernel[2] = {weight.getDimSize(2), weight.getDimSize(3)};
  if (failed(verifySpatial(op, input, output, kernel, dilations, strides, padding)))
    return failure();

  if (mode == nv::ConvMode::Winograd) {
    ArrayRef<int64_t> s = strides;
    if (s[0] != s[1])
      return op->emitOpError() << "Winograd convolution needs equal strides, got [" << s[0]
                               << ", " << s[1] << "]";
    if (dilations[0] != 1 || dilations[1] != 1)
      return op->emitOpError("Winograd convolution does not support dilation");
    int64_t r = weight.getDimSize(2), sz = weight.getDimSize(3);
    auto extended = [&](int64_t k) { return fmt::strideExtendedExtent(k, s[0]); };
    if (!ShapedType::isDynamic(r) && !ShapedType::isDynamic(sz) &&
        (extended(r) != 3 || extended(sz) != 3))
      return op->emitOpError() << "Winograd convolution needs a 3x3 kernel after channel "
                               << "extension, got " << r << "x" << sz << " with stride " << s[0]
                               << " (" << extended(r) << "x" << extended(sz) << ")";
  }
  if (bias && failed(verifyBias(op, bias, output)))
    return failure();
  return success();
}

/// CDMA's input converter and mean (docs/IntegerAttributes.md sections 3, 6.2).
static LogicalResult verifyConvInputConverter(ConvOp op) {
  CvtAttr cvt = op.getInputCvtAttr();
  std::optional<ArrayRef<int64_t>> mean = op.getMean();
  if (!cvt && !mean)
    return success();
  // Integer pixels into an fp16 pipeline: the integer converter, then
  // Int17ToFp16 (decision 16: cmod/hls/cdma_libs/cdma_cvt.cpp).
  const bool intImage = op.getMode() == nv::ConvMode::ImageInput &&
                        isa<IntegerType>(op.getInput().getType().getElementType());
  if (!op.getWeight().getType().getElementType().isInteger() && !intImage)
    return op.emitOpError() << (cvt ? "input_cvt" : "mean")
                         << " is an integer register: this convolution computes in fp32";
  if (mean) {
    if (op.getMode() != nv::ConvMode::ImageInput)
      return op.emitOpError("mean applies to image mode only (MEAN_FORMAT is a pixel-input "
                         "register)");
    if (!cvt)
      return op.emitOpError("mean needs input_cvt: the converter subtracts the mean (CVT_EN = 0 "
                         "passes pixels unchanged)");
    if (cvt.getOffset() != 0)
      return op.emitOpError() << "input_cvt.offset = " << cvt.getOffset()
                           << " is unused with mean (MEAN_FORMAT replaces CVT_OFFSET): write 0";
    // A pixel has at most four components, one mean register each.
    int64_t channels = op.getInput().getType().getDimSize(1);
    if (!ShapedType::isDynamic(channels) && channels > 4)
      return op.emitOpError() << "mean covers 4 pixel components (MEAN_RY .. MEAN_AX); the image "
                              "has "
                           << channels << " channels";
  }
  if (cvt && (failed(verifyRegisterField(op, "input_cvt.offset", cvt.getOffset(),
                                   nv::kCdmaCvtOffset)) ||
              failed(verifyRegisterField(op, "input_cvt.scale", cvt.getScale(),
                                   nv::kCdmaCvtScale)) ||
              failed(verifyRegisterField(op, "input_cvt.shift", cvt.getShift(),
                                   nv::kCdmaCvtTruncate))))
    return failure();
  if (mean)
    for (auto [i, value] : llvm::enumerate(*mean))
      if (failed(verifyRegisterField(op, "mean[" + Twine(i) + "]", value, nv::kCdmaMean[i])))
        return failure();
  return success();
}

LogicalResult ConvOp::verify() {
  auto bias = getBias() ? cast<RankedTensorType>(getBias().getType()) : RankedTensorType();
  if (failed(verifyConvTypes(*this, getMode(), getInput().getType(), getWeight().getType(), bias,
                             getOutput().getType(), getStrides(), getPadding(),
                             getDilations())))
    return failure();
  ArrayRef<int64_t> weight = getWeight().getType().getShape();
  const int64_t kernel[2] = {weight[2], weight[3]};
  if (failed(verifyWindowRegisters(*this, kernel, getStrides(), getPadding(), nv::kConvWindow)))
    return failure();
  for (int d = 0; d < 2; ++d)
    if (failed(verifyRegisterField(*this, "dilation[" + Twine(d) + "]", getDilations()[d],
                                   d == 0 ? nv::kConvDilationY : nv::kConvDilationX)))
      return failure();
  if (std::optional<int64_t> clip = getClipTruncate()) {
    if (!getWeight().getType().getElementType().isInteger())
      return emitOpError("clip_truncate is an integer register: this convolution computes in "
                         "fp32");
    if (failed(verifyRegisterField(*this, "clip_truncate", *clip, nv::kCaccClipTruncate)))
      return failure();
  }
  if (std::optional<int64_t> pad = getPadValue()) {
    Type weight = getWeight().getType().getElementType();
    if (!weight.isInteger())
      return emitOpError("pad_value is an integer register: this convolution computes in fp32");
    if (failed(verifyRegisterField(*this, "pad_value", *pad,
                                   weight.getIntOrFloatBitWidth() == 8 ? nv::kCdmaPadValueInt8
                                                                       : nv::kCdmaPadValue)))
      return failure();
  }
  return verifyConvInputConverter(*this);
}

//===----------------------------------------------------------------------===//
// SdpOp
//===----------------------------------------------------------------------===//

/// `prelu`: tensor<C>, or another layer's 1xCx1x1 result read in place,
/// which on NVDLA feature data must be a cube the SDP's DMA reads as its
/// per-channel run (the format library's bindFeatureAsPerChannel).
static LogicalResult verifyPrelu(Operation *op, RankedTensorType prelu, int64_t channels) {
  if (prelu.getRank() == 1) {
    if (!dimsMatch(prelu.getDimSize(0), channels))
      return op->emitOpError() << "prelu must be tensor<" << channels << "> (per channel), got "
                               << prelu;
    return success();
  }
  ArrayRef<int64_t> s = prelu.getShape();
  if (!dimsMatch(s[0], 1) || !dimsMatch(s[1], channels) || !dimsMatch(s[2], 1) ||
      !dimsMatch(s[3], 1))
    return op->emitOpError() << "prelu read from a layer's result must be tensor<1x" << channels
                             << "x1x1> (one value per channel), got " << prelu;
  Attribute encoding = prelu.getEncoding();
  if (!encoding || !prelu.hasStaticShape())
    return success();
  if (!isa<FeatureAttr>(encoding))
    return op->emitOpError() << "prelu read from a layer's result must be feature data "
                                "(#dla.feature), got "
                             << prelu;
  FailureOr<std::unique_ptr<fmt::BoundLayout>> bound =
      bindTensorLayout(prelu, [op] { return op->emitOpError(); });
  if (failed(bound))
    return failure();
  auto run = nv::bindFeatureAsPerChannel(static_cast<const nv::FeatureBoundLayout &>(**bound),
                                         nv::AuxKind::PReLU);
  if (!run)
    return op->emitOpError() << "prelu " << prelu << ": " << run.message();
  return success();
}

static LogicalResult verifySdpTypes(Operation *op, RankedTensorType input,
                                        RankedTensorType bias, RankedTensorType batchnorm,
                                        RankedTensorType eltwise, RankedTensorType prelu,
                                        RankedTensorType output, bool relu) {
  if (failed(verifyElementwiseShape(op, input, output)))
    return failure();
  if (relu && prelu)
    return op->emitOpError("relu and prelu are mutually exclusive");
  int64_t channels = output.getDimSize(1);
  if (bias && failed(verifyBias(op, bias, output)))
    return failure();
  if (batchnorm) {
    if (!dimsMatch(batchnorm.getDimSize(0), channels) || !dimsMatch(batchnorm.getDimSize(1), 2))
      return op->emitOpError() << "batchnorm must be tensor<" << channels
                               << "x2> (add and multiply per channel), got " << batchnorm;
  }
  if (eltwise && failed(verifyCompatibleShape(eltwise, output)))
    return op->emitOpError() << "eltwise operand must have the output shape, got " << eltwise;
  if (prelu && failed(verifyPrelu(op, prelu, channels)))
    return failure();
  return success();
}

LogicalResult SdpOp::verify() {
  auto typeOf = [](Value v) {
    return v ? cast<RankedTensorType>(v.getType()) : RankedTensorType();
  };
  if (failed(verifyElementwiseShape(*this, getInput().getType(), getOutput().getType())))
    return failure();
  if (getMode() == SdpMode::OnTheFly && !getInput().getDefiningOp<ConvOp>())
    return emitOpError("on_the_fly SDP must take its input directly from a dla.conv");
  if (failed(verifySdpTypes(*this, getInput().getType(), typeOf(getBias()),
                            typeOf(getBatchnorm()), typeOf(getEltwise()), typeOf(getPrelu()),
                            getOutput().getType(), getRelu())))
    return failure();
  if (failed(verifySdpStages(*this)))
    return failure();
  return verifySdpOutputConverter(*this, getOutCvtAttr(), getInput().getType(),
                                  getOutput().getType());
}

//===----------------------------------------------------------------------===//
// PoolOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyPoolTypes(Operation *op, RankedTensorType input,
                                         RankedTensorType output, ArrayRef<int64_t> kernel,
                                         ArrayRef<int64_t> strides, ArrayRef<int64_t> padding) {
  for (int d = 0; d < 2; ++d)
    if (!dimsMatch(input.getDimSize(d), output.getDimSize(d)))
      return op->emitOpError() << "output " << (d == 0 ? "batch" : "channels") << " "
                               << output.getDimSize(d) << " differs from the input's "
                               << input.getDimSize(d);
  const int64_t noDilation[2] = {1, 1};
  return verifySpatial(op, input, output, kernel, noDilation, strides, padding);
}

LogicalResult PoolOp::verify() {
  if (failed(verifyPoolTypes(*this, getInput().getType(), getOutput().getType(), getKernel(),
                             getStrides(), getPadding())))
    return failure();
  if (failed(verifyWindowRegisters(*this, getKernel(), getStrides(), getPadding(),
                                   nv::kPdpWindow)))
    return failure();
  // PDP's integer average registers (docs/IntegerAttributes.md 5.1, 6.2).
  const char *stated = getRecipKernelWidthAttr()    ? "recip_kernel_width"
                       : getRecipKernelHeightAttr() ? "recip_kernel_height"
                       : getPadValuesAttr()         ? "pad_values"
                                                    : nullptr;
  if (!stated)
    return success();
  if (!getInput().getType().getElementType().isInteger())
    return emitOpError() << stated << " is an integer register: this PDP computes in fp16";
  if (getKind() != PoolKind::Average)
    return emitOpError() << stated
                         << " applies to average pooling only (max and min ignore padded "
                            "positions)";
  if (std::optional<int64_t> r = getRecipKernelWidth())
    if (failed(verifyRegisterField(*this, "recip_kernel_width", *r, nv::kPdpRecipKernelWidth)))
      return failure();
  if (std::optional<int64_t> r = getRecipKernelHeight())
    if (failed(verifyRegisterField(*this, "recip_kernel_height", *r, nv::kPdpRecipKernelHeight)))
      return failure();
  std::optional<ArrayRef<int64_t>> pads = getPadValues();
  if (!pads)
    return success();
  for (auto [i, value] : llvm::enumerate(*pads))
    if (failed(verifyRegisterField(*this, "pad_values[" + Twine(i) + "]", value, nv::kPdpPadValue[i])))
      return failure();
  // Seven registers suffice (decision 20): with padding of at most 7, an
  // 8-wide window always holds an input position, a narrower one has at
  // most 7 positions.
  return success();
}

//===----------------------------------------------------------------------===//
// LrnOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyLrnTypes(Operation *op, RankedTensorType input,
                                        RankedTensorType output, int64_t size) {
  if (failed(verifyElementwiseShape(op, input, output)))
    return failure();
  // The window's zero padding widens the channels: checked like pooling's.
  int64_t channels = input.getDimSize(1);
  fmt::CentredPadding pad = fmt::centredWindowPadding(size);
  if (!ShapedType::isDynamic(channels) && !fmt::paddedExtent(channels, pad.before, pad.after))
    return op->emitOpError() << "channels padded for the window of size " << size << ", "
                             << channels << " + " << pad.before << " + " << pad.after
                             << ", overflow 64 bits";
  return success();
}

LogicalResult LrnOp::verify() {
  if (failed(verifyLrnTypes(*this, getInput().getType(), getOutput().getType(), getSize())))
    return failure();
  // Tables derived from alpha, beta and k (every LRN without a stated
  // lut) sample (k + alpha / size * s)^-beta for s >= 0.
  const double alpha = getAlpha().convertToDouble(), beta = getBeta().convertToDouble(),
               k = getK().convertToDouble();
  if (!getLutAttr() && !(std::isfinite(alpha) && std::isfinite(beta) && std::isfinite(k) &&
                         alpha >= 0 && k > 0))
    return emitOpError() << "has alpha = " << alpha << ", beta = " << beta << ", k = " << k
                         << ": (k + alpha / size * sum of squares)^-beta is a finite real "
                            "number for every input only with finite values, k > 0 and "
                            "alpha >= 0";
  return verifyLrnRegisters(*this);
}
