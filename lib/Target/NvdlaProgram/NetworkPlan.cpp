//===- NetworkPlan.cpp - Surfaces and hardware layers of a function -------===//
//
// The function's layer ops in program order, grouped into hardware layers
// (a convolution with the SDP fused to it), and the emulator's ops after
// them (NvdlaProgram.h NetworkPlan::emulated); every value a layer reads or
// writes a surface, its format from its role (LayerOpInterface's
// getOperandRole), placed by the address plan with the lifetime from the
// layer that writes it to the last that reads it.
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaProgram.h"

#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/IR/FeatureCopy.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaWeightCompression.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Endian.h"

#include <functional>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
namespace nv = dlaformat::nvdla;

/// After the last layer: a lifetime that ends with the program.
static constexpr int64_t kEnd = 1 << 30;

namespace {
/// Whether the plan programs `precision` on `hardware`: int8 everywhere,
/// fp16 and int16 on nv_full (the configurations that have them; nv_full
/// runs on the v1 C model, docs/NvdlaCModelV1.md).
bool programsPrecision(nv::Precision precision, nv::HardwareKind hardware) {
  return precision == nv::Precision::Int8 ||
         nv::getHardwareConfig(hardware).hasPrecision(precision);
}

/// The weights of `v`: int8 NVDLA direct weights (image weights for an
/// image convolution; fp16 and int16 direct and image ones on nv_full; uncompressed
/// Winograd ones for a Winograd convolution, whose other limits
/// checkWinogradConv states). nv_small and nv_large run on the master C
/// model, nv_full on the v1 one (docs/NvdlaCModelV1.md). Compressed weights
/// must be a dla.weight_constant's: their sizes depend on their data, and
/// the registers hold them.
LogicalResult checkWeights(Value v, bool image, bool winograd, Location loc) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  auto weight = type ? dyn_cast_or_null<WeightAttr>(type.getEncoding()) : WeightAttr();
  if (winograd && weight && weight.getFormat() == nv::WeightFormat::Winograd &&
      !weight.getCompressed())
    return success();
  nv::WeightFormat format = image ? nv::WeightFormat::Image : nv::WeightFormat::Direct;
  // Image weights: int8, or fp16 and int16 on nv_full (CDMA converts the
  // pixels to the weights' precision: checkFp16Layer, checkInt16Layer).
  const bool imagePrecision = weight &&
                              (weight.getPrecision() == nv::Precision::Fp16 ||
                               weight.getPrecision() == nv::Precision::Int16) &&
                              programsPrecision(weight.getPrecision(), weight.getConfig());
  if (!weight || weight.getFormat() != format ||
      (weight.getPrecision() != nv::Precision::Int8 &&
       (image ? !imagePrecision
              : !programsPrecision(weight.getPrecision(), weight.getConfig()))))
    return emitError(loc) << "weights of a register program must be int8 "
                          << (image ? "image" : "direct")
                          << " NVDLA weights (fp16 or int16 direct and image ones on nv_full) "
                             "(#dla.weight<"
                          << (image ? "image" : "direct")
                          << ", int8, config = ...>), got " << v.getType();
  if (weight.getCompressed() && !v.getDefiningOp<WeightConstantOp>())
    return emitError(loc) << "compressed weights of a register program must be a "
                             "dla.weight_constant in its function (their compressed sizes are "
                             "in its registers), got "
                          << v.getType() << (isa<BlockArgument>(v) ? " as an argument" : "");
  return success();
}

/// The bytes of a compressed weight surface: dense_resource or dense i8.
std::optional<std::vector<uint8_t>> bytesOf(ElementsAttr a) {
  if (auto r = dyn_cast<DenseResourceElementsAttr>(a)) {
    AsmResourceBlob *blob = r.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    ArrayRef<char> d = blob->getData();
    return std::vector<uint8_t>(d.begin(), d.end());
  }
  if (auto d = dyn_cast<DenseIntElementsAttr>(a)) {
    std::vector<uint8_t> out;
    out.reserve(d.getNumElements());
    for (const APInt &e : d.getValues<APInt>())
      out.push_back(static_cast<uint8_t>(e.getZExtValue()));
    return out;
  }
  return std::nullopt;
}

/// A dla.weight_constant as one surface the program carries: WGS, WMB and
/// data where the format library places them in one compressed image
/// (their offsets depend on the shape only), WMB and data as long as the
/// CDMA and CSC consume them (the whole mask; the data's 128-byte
/// entries, both checked at the layer's end by the v1 model).
LogicalResult compressedSurface(WeightConstantOp op, Surface &s, PlannedSurface &p) {
  auto type = cast<RankedTensorType>(op.getType());
  auto weight = cast<WeightAttr>(type.getEncoding());
  dlaformat::Expected<nv::NvdlaWeightLayout> layout =
      nv::NvdlaWeightLayout::create(weight.getParams(type.getShape()));
  if (!layout)
    return op.emitOpError() << layout.message();
  std::optional<std::vector<uint8_t>> wgs = bytesOf(op.getWgs()), wmb = bytesOf(op.getWmb()),
                                      data = bytesOf(op.getData());
  if (!wgs || !wmb || !data)
    return op.emitOpError("holds its surfaces by name only (elided, or in a bundle's "
                          "weights/*.bin): a register program carries their bytes");
  const nv::AlignmentRule &rule = nv::getAlignment(nv::AlignedData::Weight);
  std::vector<int64_t> usedBytes;
  dlaformat::Status st = nv::checkSeparateSurfaces(
      *layout, rule.startAddress, wgs->data(), static_cast<int64_t>(wgs->size()), wmb->data(),
      static_cast<int64_t>(wmb->size()), static_cast<int64_t>(data->size()), &usedBytes);
  if (!st)
    return op.emitOpError("inconsistent compressed weights: ") << st.message();
  const nv::CompressedWeightSurface b =
      nv::getCompressedWeightLayoutBound(*layout).surfaces.front();
  const int64_t used = usedBytes.front();
  if (used == 0)
    return op.emitOpError("holds only zero weights: NVDLA's CDMA reads at least one entry of "
                          "compressed weight data; store them uncompressed");
  s.wgs = {b.wgsOffset, b.wgsBytes};
  s.wmb = {b.wmbOffset, b.wmbBytes};
  s.data = {b.dataOffset, nv::alignUp(used, rule.dataSize)};
  s.contents.assign(static_cast<size_t>(s.data.offset + s.data.bytes), 0);
  auto place = [&](const std::vector<uint8_t> &from, const Surface::CompressedPart &part) {
    std::copy_n(from.begin(), std::min<int64_t>(part.bytes, from.size()),
                s.contents.begin() + part.offset);
  };
  place(*wgs, s.wgs);
  place(*wmb, s.wmb);
  place(*data, s.data);
  p.bytes = static_cast<int64_t>(s.contents.size());
  p.alignment = rule.startAddress;
  return success();
}

/// The image of an image convolution: NVDLA pixel data.
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>> pixelLayout(Value v, Location loc) {
  auto type = cast<RankedTensorType>(v.getType());
  auto pixel = dyn_cast_or_null<PixelAttr>(type.getEncoding());
  if (!pixel)
    return emitError(loc) << "the image of a register program must be NVDLA pixel data "
                             "(#dla.pixel<...>), got "
                          << type;
  return bindTensorLayout(type, [&] { return emitError(loc); });
}

/// The feature layout of `v`: NVDLA feature data of a programmed precision.
FailureOr<std::unique_ptr<nv::FeatureBoundLayout>> featureLayout(Value v, Location loc) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  auto feature = type ? dyn_cast_or_null<FeatureAttr>(type.getEncoding()) : FeatureAttr();
  if (!feature)
    return emitError(loc) << "a surface of a register program must be NVDLA feature data "
                             "(#dla.feature), got "
                          << v.getType();
  if (!programsPrecision(feature.getPrecision(), feature.getConfig()))
    return emitError(loc)
           << "only int8 feature data (and fp16 or int16 on nv_full) is programmed yet, got "
           << v.getType();
  nv::FeatureConfig config;
  config.precision = feature.getPrecision();
  config.lineStride = feature.getLineStride();
  config.surfaceStride = feature.getSurfaceStride();
  config.batchStride = feature.getBatchStride();
  config.hardware = feature.getConfig();
  auto bound = nv::FeatureBoundLayout::bind(config, type.getShape().vec());
  if (!bound)
    return emitError(loc) << bound.message();
  return std::move(*bound);
}

/// Whether `v` is fp16 NVDLA data (feature data or weights).
bool isFp16(Value v) {
  Attribute enc = cast<RankedTensorType>(v.getType()).getEncoding();
  if (auto f = dyn_cast_or_null<FeatureAttr>(enc))
    return f.getPrecision() == nv::Precision::Fp16;
  if (auto w = dyn_cast_or_null<WeightAttr>(enc))
    return w.getPrecision() == nv::Precision::Fp16;
  return false;
}

/// Feature data's precision, or none (an image, CACC's unencoded result).
std::optional<nv::Precision> featurePrecisionOf(Value v) {
  if (auto f = dyn_cast_or_null<FeatureAttr>(cast<RankedTensorType>(v.getType()).getEncoding()))
    return f.getPrecision();
  return std::nullopt;
}

/// Whether `hw` is an SDP of a `pipeline` pipeline: offline from
/// `pipeline` feature data, or on the fly after a convolution of
/// `pipeline` weights (an image convolution's pixels enter its weights'
/// precision through CDMA's converter).
bool isSdpOfPipeline(const HardwareLayer &hw, nv::Precision pipeline) {
  if (auto sdp = dyn_cast<SdpOp>(hw.op))
    return !hw.fused && sdp.getMode() == SdpMode::Offline &&
           featurePrecisionOf(hw.op->getOperand(0)) == pipeline;
  auto conv = dyn_cast<ConvOp>(hw.op);
  if (!conv || !isa_and_nonnull<SdpOp>(hw.fused))
    return false;
  auto weight = dyn_cast_or_null<WeightAttr>(
      cast<RankedTensorType>(conv.getWeight().getType()).getEncoding());
  return weight && weight.getPrecision() == pipeline;
}

/// Whether `hw` is an SDP of an int16 pipeline writing fp16, with no fp16
/// data but its result: offline from int16 data, or on the fly after a
/// convolution of an int16 pipeline (int16 feature data, or an image into
/// int16 image weights: CACC on, it is a direct one). It processes in
/// int16 (sdp.c map_proc_precision[fp16][int16]; NV_NVDLA_sdp.cpp has no
/// data-path change, int16 and fp16 atoms both 16 two-byte elements): the
/// integer stages and output converter, then the converter's 17-bit value to
/// fp16 (cmod/hls/sdp/sdp_c.cpp 53-66, Int17ToFp16: nearest even,
/// saturating at +-65504), the CPU execution's sdpConvertOutput. The
/// integer rules (checkInt16Layer) apply to it, not the fp16 ones.
bool int16PipelineWritesFp16(const HardwareLayer &hw) {
  if (featurePrecisionOf(hw.result()) != nv::Precision::Fp16)
    return false;
  for (Operation *member : {hw.op, hw.fused})
    if (member && llvm::any_of(member->getOperands(), isFp16))
      return false;
  return isSdpOfPipeline(hw, nv::Precision::Int16);
}

/// Whether `hw` is an SDP of an fp16 pipeline writing int16: offline from
/// fp16 data, or on the fly after a convolution of an fp16 pipeline (fp16
/// weights). It processes in fp16 (sdp.c map_proc_precision[int16][fp16],
/// D_DATA_FORMAT 0x6): the fp32 stages, Fp32ToFp16, then Fp16ToInt16
/// (sdp_c.cpp 41-49: half away from zero, saturating; the output converter
/// skipped), the CPU execution's nvdlaSdpOutput. The fp16 rules
/// (checkFp16Layer) apply to it; the precision rules allow it
/// (NvdlaConversion.h: the offline table, and on the fly the bit depth kept).
bool fp16PipelineWritesInt16(const HardwareLayer &hw) {
  if (featurePrecisionOf(hw.result()) != nv::Precision::Int16)
    return false;
  // Its operands are fp16: the verifier's (an fp16 SDP's stages read fp16).
  return isSdpOfPipeline(hw, nv::Precision::Fp16);
}

/// fp16 layers: a direct or Winograd convolution without an input
/// converter, or an image convolution of integer or fp16 pixels, without a
/// padding value, its result feature data (the SDP's converter rounding
/// CACC's fp32 to fp16) or taken on the fly by an SDP of its X stages; an
/// offline SDP of its X stages and its Y stage (multiplier, ALU, then
/// LUT); pooling (PDP); LRN (CDP, fp16 in and out); the pass-through
/// passes of an upsampling or an interleave (an offline SDP, fp16 in and
/// out, every stage bypassed).
LogicalResult checkFp16Layer(const HardwareLayer &hw) {
  bool fp16 = false;
  for (Operation *member : {hw.op, hw.fused})
    if (member)
      fp16 |= llvm::any_of(member->getOperands(), isFp16) ||
              llvm::any_of(member->getResults(), isFp16);
  if (!fp16 || int16PipelineWritesFp16(hw))
    return success();
  // An SDP's fp32 steps: its X stages and its Y stage's multiplier and ALU
  // (fp16 memory operands; the Y stage's register operands fp32), then the
  // Y stage's LUT in float mode on their fp32 value (the CPU execution's
  // dla_nvdla_sdp_lut_float_fp16), without an output converter.
  auto fp32Stages = [](SdpOp sdp) {
    return sdp && (sdp.getBsAttr() || sdp.getBnAttr() || sdp.getEwAttr()) &&
           !sdp.getOutCvtAttr();
  };
  if (auto sdp = dyn_cast<SdpOp>(hw.op);
      fp32Stages(sdp) && sdp.getMode() == SdpMode::Offline)
    return success();
  // Offline pooling (the PDP's fp16 path: fp16 compares, fp17 sums).
  if (isa<PoolOp>(hw.op) && !hw.fused)
    return success();
  // Nearest upsampling and pixel shuffles (DescribeUpsample.cpp): offline
  // SDP passes with every stage bypassed and no output converter, fp16 in
  // and out (the ops' verifiers: no conversion). v1's SDP takes each value
  // to fp32 (NV_NVDLA_sdp.cpp: nvdla_float.h Fp16ToFp32) and back
  // (sdp_c.cpp: Fp32ToFp16) with nothing between; NAN_TO_ZERO stays 0. The
  // two keep every fp16 pattern (NaN payloads, subnormals, -0) but the
  // infinities, which become +-65504 (NVDLA's infinity is the largest
  // finite value): test_fp_nvdla.py test_sdp_pass_through_fp16 on all
  // 65,536 against the compiled functions; the CPU execution's hardware
  // arithmetic does the same (ReferencePatterns.cpp sdpPassThrough).
  if (isa<UpsampleOp, InterleaveOp>(hw.op))
    return success();
  // LRN (the CDP's fp16 path, its tables in float mode): the CDP converts
  // no precision in fp16 (its converters are integer-only), so fp16 in and out.
  if (auto lrn = dyn_cast<LrnOp>(hw.op)) {
    if (!isFp16(lrn.getInput()) || !isFp16(lrn.getResult()))
      return lrn.emitOpError("computes in fp16 from or to another precision: the CDP's fp16 "
                             "LRN reads and writes fp16");
    return success();
  }
  auto conv = dyn_cast<ConvOp>(hw.op);
  // On the fly: the stages take CACC's fp32 (as offline).
  const bool fusedFits = fp32Stages(dyn_cast_or_null<SdpOp>(hw.fused));
  // Winograd: the CPU execution computes the PRA / CMAC / CACC steps as
  // the hardware does (NvdlaConvFp16.h convWinoFp16); checkWinogradConv
  // refuses the Winograd forms not programmed. Image input: 8- or 16-bit
  // integer pixels CDMA converts to fp16 (its converter into an fp16
  // pipeline, fp_nvdla.cdma_cvt_image_fp16), or fp16 pixels, which CDMA's
  // converter passes unchanged (cmod/hls/cdma_libs/cdma_cvt.cpp: IN_PRECISION
  // fp16 is the identity; the verifier refuses their mean and input_cvt).
  Type pixels = conv ? conv.getInput().getType().getElementType() : Type();
  const bool image = conv && conv.getMode() == nv::ConvMode::ImageInput;
  const bool imageFits = image && pixels &&
                         (pixels.isF16() || pixels.isInteger(8) || pixels.isInteger(16));
  if (!conv || (hw.fused && !fusedFits) || (image && !imageFits) ||
      (conv.getInputCvtAttr() && !image) || conv.getPadValue())
    return hw.op->emitOpError(
        "computes in fp16: the fp16 layers programmed yet are a direct or Winograd convolution (no "
        "input converter) or an image convolution (8- or 16-bit integer or fp16 pixels), without "
        "a padding value, alone or with an SDP on the fly of its X stages and Y stage's "
        "multiplier, ALU and LUT, an offline SDP of those stages (X stages: bs and bn, or the "
        "implicit form with at most two memory operands, three without relu; no out_cvt), "
        "pooling, LRN, upsampling and interleaves");
  return success();
}

/// Whether `hw` is an image convolution of an int16 pipeline (int16 image
/// weights) writing int16, alone or with an SDP on the fly keeping int16:
/// CDMA converts the pixels to int16 (cmod/cdma NV_NVDLA_cdma.cpp
/// convert_8to16, or 16-bit components at IN_PRECISION int16, the
/// converter saturating to 16 bits), CSC, CMAC and CACC run int16 as for
/// int16 feature data (the precision rules' erratum 4 image row;
/// docs/NvdlaCModelV1.md "Image input in int16").
bool int16ImagePipeline(const HardwareLayer &hw) {
  auto conv = dyn_cast<ConvOp>(hw.op);
  if (!conv || conv.getMode() != nv::ConvMode::ImageInput ||
      featurePrecisionOf(hw.result()) != nv::Precision::Int16)
    return false;
  auto weight = dyn_cast_or_null<WeightAttr>(
      cast<RankedTensorType>(conv.getWeight().getType()).getEncoding());
  return weight && weight.getPrecision() == nv::Precision::Int16;
}

/// Whether `hw` is a convolution of an int8 pipeline (int8 feature data or
/// an image into int8 weights) whose SDP on the fly writes int16: v1's
/// int8-to-int16 SDP path (NV_NVDLA_sdp.cpp is_int8_to_int16), which the
/// precision rules allow after direct and image input convolutions
/// (NvdlaConversion.h).
bool widensInt8Pipeline(const HardwareLayer &hw) {
  auto conv = dyn_cast<ConvOp>(hw.op);
  if (!conv || !hw.fused || featurePrecisionOf(hw.result()) != nv::Precision::Int16)
    return false;
  auto weight = dyn_cast_or_null<WeightAttr>(
      cast<RankedTensorType>(conv.getWeight().getType()).getEncoding());
  return weight && weight.getPrecision() == nv::Precision::Int8;
}

/// int16 layers (nv_full): the layer's data and its result both int16, an
/// offline SDP between int16 and int8, which processes in int8 (sdp.c
/// map_proc_precision, UnitPrograms.h sdpProcPrecision; v1's
/// NV_NVDLA_sdp.cpp: SDP_RDMA's int16-to-int8 buffer, the WDMA's
/// int8-to-int16 path), a direct or image input convolution of an int8
/// pipeline whose SDP on the fly writes int16 (the same WDMA path), an
/// image convolution of an int16 pipeline writing int16, or an int16
/// pipeline's SDP writing fp16 (int16PipelineWritesFp16), or an fp16
/// pipeline's SDP writing int16 (fp16PipelineWritesInt16). A conversion the
/// precision rules refuse (a convolution writing another precision than its
/// pipeline's, an SDP on the fly narrowing int16 to int8 or widening after
/// Winograd: NvdlaConversion.h, --dla-check-precision) is refused with their
/// message. With every operand encoded, the rules and the verifiers leave
/// only the cases above; the final refusal is reached by layers whose
/// weights or feature data carry no encoding (the cases recognise a pipeline
/// by those encodings; checkWeights and featureLayout, which would refuse
/// such operands, come later): NvdlaTrace/invalid.mlir pins both.
LogicalResult checkInt16Layer(const HardwareLayer &hw) {
  auto layer = cast<LayerOpInterface>(hw.op);
  std::optional<nv::Precision> in;
  bool image = false;
  for (unsigned i = 0; i < hw.op->getNumOperands(); ++i) {
    LayerOperandRole role = layer.getOperandRole(i);
    image |= role == LayerOperandRole::Image;
    if (role == LayerOperandRole::Feature && !in)
      in = featurePrecisionOf(hw.op->getOperand(i));
  }
  std::optional<nv::Precision> out = featurePrecisionOf(hw.result());
  // An image convolution's pipeline is its weights' precision (CDMA
  // converts the pixels to it): int16 image weights make an int16 layer
  // whatever the result.
  auto conv = dyn_cast<ConvOp>(hw.op);
  auto weight = conv ? dyn_cast_or_null<WeightAttr>(
                           cast<RankedTensorType>(conv.getWeight().getType()).getEncoding())
                     : WeightAttr();
  const bool int16 = in == nv::Precision::Int16 || out == nv::Precision::Int16 ||
                     (weight && weight.getPrecision() == nv::Precision::Int16);
  if (!int16 || (in == out && !image))
    return success();
  auto name = [](std::optional<nv::Precision> p) {
    return p ? std::string(::dlaformat::enumName(*p)) : std::string("non-feature");
  };
  const std::string what = "reads " + (image ? std::string("an image") : name(in) + " data") +
                           " and writes " + name(out);
  for (Operation *member : {hw.op, hw.fused})
    if (auto conversion = dyn_cast_or_null<PrecisionConversionOpInterface>(member)) {
      FailureOr<nv::ConversionQuery> query = conversion.getConversionQuery();
      if (failed(query))
        return failure();
      nv::ConversionVerdict verdict = nv::checkConversion(*query);
      if (!verdict.valid)
        return member->emitOpError() << what << ": " << verdict.message;
      // The convolution table's weights are its pipeline's (erratum 4: an
      // image converts to the weights' precision, CDMA's PROC_PRECISION).
      if (member == hw.op && conv && weight && verdict.weight &&
          weight.getPrecision() != *verdict.weight)
        return conv.emitOpError()
               << what << " through " << ::dlaformat::enumName(weight.getPrecision())
               << " weights: the convolution's own result is its pipeline's precision, its "
                  "weights' (the convolution table: "
               << ::dlaformat::enumName(*verdict.weight) << " weights)";
    }
  if (int16ImagePipeline(hw) || int16PipelineWritesFp16(hw) || fp16PipelineWritesInt16(hw))
    return success();
  if (widensInt8Pipeline(hw))
    return success();
  const bool integers = (in == nv::Precision::Int8 || in == nv::Precision::Int16) &&
                        (out == nv::Precision::Int8 || out == nv::Precision::Int16);
  if (auto sdp = dyn_cast<SdpOp>(hw.op);
      sdp && !hw.fused && sdp.getMode() == SdpMode::Offline && integers)
    return success();
  return hw.op->emitOpError() << what
                              << ": between int16 and other precisions the register plan "
                                 "programs only an offline SDP between int16 and int8, an int8 "
                                 "pipeline's SDP on the fly writing int16 (they process in int8, "
                                 "sdp.c map_proc_precision), an image convolution into int16 "
                                 "image weights writing int16, and between int16 and fp16 an SDP "
                                 "(offline or on the fly) of an int16 pipeline writing fp16 or of "
                                 "an fp16 pipeline writing int16";
}

/// An image convolution's pixels into its pipeline, as the precision rules
/// allow (NvdlaConversion.h, --dla-check-precision: the one source; CDMA's
/// PROC_PRECISION is the weights'). checkFp16Layer and checkInt16Layer ask
/// them where fp16 or int16 is in the layer; this asks for every image,
/// so that fp16 pixels into an int8 pipeline (which CDMA's converter would
/// pass unchanged as int8 bytes: cdma_cvt.cpp at IN_PRECISION fp16) are
/// refused too.
LogicalResult checkImageConversion(const HardwareLayer &hw) {
  auto conv = dyn_cast<ConvOp>(hw.op);
  if (!conv || conv.getMode() != nv::ConvMode::ImageInput)
    return success();
  auto conversion = cast<PrecisionConversionOpInterface>(hw.op);
  FailureOr<nv::ConversionQuery> query = conversion.getConversionQuery();
  if (failed(query))
    return failure();
  nv::ConversionVerdict verdict = nv::checkConversion(*query);
  if (verdict.valid)
    return success();
  auto weight = dyn_cast_or_null<WeightAttr>(conv.getWeight().getType().getEncoding());
  return conv.emitOpError() << "reads an image into "
                            << (weight ? ::dlaformat::enumName(weight.getPrecision()) : "plain")
                            << " image weights: " << verdict.message;
}

/// The int16 feature value an SDP between int16 and int8 (checkInt16Layer)
/// moves in pairs of surfaces, or null: SDP_RDMA's int16-to-int8 buffer
/// reads an even number of int16 surfaces (one int8 atom from two), the
/// WDMA's int8-to-int16 path writes one (two int16 atoms from one int8
/// atom), offline or on the fly after an int8 pipeline (NV_NVDLA_sdp.cpp).
Value pairedSurface(const HardwareLayer &hw) {
  if (widensInt8Pipeline(hw))
    return hw.result();
  if (!isa<SdpOp>(hw.op) || hw.fused)
    return {};
  std::optional<nv::Precision> in = featurePrecisionOf(hw.op->getOperand(0)),
                               out = featurePrecisionOf(hw.result());
  if (in == nv::Precision::Int16 && out == nv::Precision::Int8)
    return hw.op->getOperand(0);
  if (in == nv::Precision::Int8 && out == nv::Precision::Int16)
    return hw.result();
  return {};
}

/// Feature data read by an SDP stage as its element-wise operand (a
/// layer's result feeding a residual add or a product): per-element operand
/// data of the feature's precision (one-byte int8, two-byte int16 / fp16
/// components) has the feature format's atoms and strides.
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>>
featureAsOperand(const nv::FeatureBoundLayout &feature, ArrayRef<int64_t> shape, Location loc) {
  nv::AuxConfig c;
  c.kind = nv::AuxKind::ElementWise;
  c.mode = nv::AuxMode::PerElement;
  c.precision = feature.getConfig().precision;
  c.hardware = feature.getConfig().hardware;
  c.dataSize =
      nv::getBytesPerElement(c.precision) == 1 ? nv::DataSize::OneByte : nv::DataSize::TwoByte;
  c.lineStride = feature.getLineStride();
  c.surfaceStride = feature.getSurfaceStride();
  auto bound = nv::AuxBoundLayout::bind(c, shape.vec(), nv::getBytesPerElement(c.precision));
  if (!bound)
    return emitError(loc) << bound.message();
  std::unique_ptr<::dlaformat::BoundLayout> layout = std::move(*bound);
  assert(layout->getStorageBytes() == feature.getStorageBytes() && "one layout, two names");
  return layout;
}

/// A 1xCx1x1 feature result read by an SDP stage as its per-channel
/// operand (a squeeze-excitation's gate, `prelu`): the run of channels the
/// cube holds byte for byte (NvdlaAux.h bindFeatureAsPerChannel).
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>>
featureAsChannelOperand(const nv::FeatureBoundLayout &feature, Location loc) {
  auto run = nv::bindFeatureAsPerChannel(feature, nv::AuxKind::PReLU);
  if (!run)
    return emitError(loc) << run.message();
  return std::unique_ptr<::dlaformat::BoundLayout>(std::move(*run));
}

/// Whether `v` (or the tensor a channel view of it shows) is computed by
/// NVIDIA's runtime emulator.
bool computedByEmulator(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<EmulatorOpInterface>(def))
    return true;
  if (auto slice = dyn_cast<ChannelSliceOp>(def))
    return computedByEmulator(slice.getSource());
  if (auto concat = dyn_cast<ChannelConcatOp>(def))
    return llvm::any_of(concat.getInputs(), computedByEmulator);
  if (auto weights = dyn_cast<AsWeightsOp>(def))
    return computedByEmulator(weights.getSource());
  if (auto reshape = dyn_cast<ReshapeViewOp>(def))
    return computedByEmulator(reshape.getSource());
  return false;
}

/// Whether `use` is the per-channel (`prelu`) operand of an SDP.
bool isChannelOperand(Operation *member, OpOperand &use) {
  auto sdp = dyn_cast<SdpOp>(member);
  return sdp && !sdp.getPreluMutable().empty() &&
         use.getOperandNumber() == sdp.getPreluMutable()[0].getOperandNumber();
}

/// The inputs of a batch `v` holds, as its encoding says (feature and
/// per-element operand data: N); 1 without one.
int64_t batchOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  auto layout = type ? dyn_cast_or_null<LayoutEncodingAttr>(type.getEncoding())
                     : LayoutEncodingAttr();
  return layout ? layout.getBatchInputs(type.getShape()) : 1;
}

/// A dla.relayout the program runs: feature data to feature data of the
/// same precision and configuration (only strides or a view's offset
/// differ, so whole atoms move unchanged), copied by BDMA on a
/// configuration that has it. Other relayouts convert between formats,
/// which no unit of NVDLA does by itself.
LogicalResult checkCopy(RelayoutOp copy) {
  if (!isFeatureCopy(copy))
    return copy.emitOpError() << "converts " << copy.getSource().getType() << " to "
                              << copy.getType()
                              << ": a register program copies NVDLA feature data to feature "
                                 "data of the same precision and configuration only (BDMA)";
  if (!isBdmaCopy(copy))
    return copy.emitOpError() << "copies feature data between two layouts: "
                              << nv::getHardwareConfig(
                                     cast<FeatureAttr>(copy.getType().getEncoding()).getConfig())
                                     .name
                              << " has no BDMA (BDMA_ENABLE), the unit that copies them; copy "
                                 "on the host (the relayout outside the program)";
  return success();
}

/// Refuses a stride wider than the register it is written to
/// (NvdlaHardware.h): the hardware would use the truncated value.
LogicalResult checkStride(StringRef surface, StringRef what, int64_t stride, int64_t max,
                          StringRef registers, Location loc) {
  if (stride <= max)
    return success();
  return emitError(loc) << "surface '" << surface << "' has a " << what << " of " << stride
                        << " bytes, beyond the " << max << " " << registers << " holds";
}

/// The strides of `s` a DMA engine's stride registers receive.
LogicalResult checkDmaStrides(const Surface &s, StringRef name, Location loc) {
  constexpr int64_t max = nv::kMaxDmaStrideBytes;
  constexpr StringRef regs = "a DMA stride register (32 bits)";
  std::optional<std::pair<int64_t, int64_t>> cube; // line, surface
  if (s.feature)
    cube = {s.feature->getLineStride(), s.feature->getSurfaceStride()};
  else if (s.aux)
    if (const auto &c = static_cast<const nv::AuxBoundLayout *>(s.aux.get())->getCube())
      cube = {c->getLineStride(), c->getSurfaceStride()};
  if (cube && (failed(checkStride(name, "line stride", cube->first, max, regs, loc)) ||
               failed(checkStride(name, "surface stride", cube->second, max, regs, loc))))
    return failure();
  if (auto *pixel = static_cast<const nv::PixelBoundLayout *>(s.pixel.get()))
    for (int plane : {0, 1})
      if (failed(checkStride(name, plane ? "second plane's line stride" : "line stride",
                             pixel->getLineStride(plane), max, regs, loc)))
        return failure();
  return success();
}

/// A convolution's output strides: NVIDIA's firmware writes them to CACC's
/// narrower registers too, whatever SDP follows.
LogicalResult checkCaccStrides(const Surface &out, Location loc) {
  constexpr int64_t max = nv::kMaxCaccStrideBytes;
  if (failed(checkStride(out.name, "line stride", out.feature->getLineStride(), max,
                         "CACC's D_LINE_STRIDE (24 bits)", loc)))
    return failure();
  return checkStride(out.name, "surface stride", out.feature->getSurfaceStride(), max,
                     "CACC's D_SURF_STRIDE (24 bits)", loc);
}

/// The memory `dla.memory` (FeatureCopy.h) asks for `v`: an argument's
/// attribute, or that of the op whose result `v` is; none without one; a
/// located error for a value other than "dram" and "cvsram".
FailureOr<std::optional<DescMemType>> requestedMemory(Value v, Location loc) {
  Attribute a;
  if (auto arg = dyn_cast<BlockArgument>(v))
    a = cast<func::FuncOp>(arg.getOwner()->getParentOp())
            .getArgAttr(arg.getArgNumber(), kMemoryAttrName);
  else
    a = v.getDefiningOp()->getAttr(kMemoryAttrName);
  if (!a)
    return std::optional<DescMemType>();
  if (auto name = dyn_cast<StringAttr>(a); name && name.getValue() == "dram")
    return std::optional<DescMemType>(DescMemType::Mc);
  if (auto name = dyn_cast<StringAttr>(a); name && name.getValue() == "cvsram")
    return std::optional<DescMemType>(DescMemType::Cv);
  return emitError(loc) << kMemoryAttrName << " must be \"dram\" or \"cvsram\", got " << a;
}

/// What may lie in the CV-SRAM: the program's arguments and results, a
/// BDMA copy's source and result (CFG_CMD's SRC_RAM_TYPE / DST_RAM_TYPE,
/// bdma.c map_mem), a direct convolution's feature input (CDMA's
/// D_DAIN_RAM_TYPE, conv.c map_ram; v1's sanity3_cvsram trace reads its
/// input there) and an SDP's feature input and result (SDP_RDMA's
/// SRC_RAM_TYPE, the WDMA's DST_RAM_TYPE, sdp.c map_ram_type;
/// sanity3_cvsram's SDP writes there). The other RAM type registers (PDP,
/// CDP, weights, the SDP's operand DMAs) are written MC: their surfaces
/// are refused in the CV-SRAM, named. NVIDIA's runtime emulator
/// works on the CPU's mapping of DRAM buffers (NVIDIA's compiler keeps
/// CV-SRAM from a network with EMU tasks: umd/core/src/compiler/Memory.cpp
/// "can't allow cvsram if EMU is involved").
LogicalResult checkCvsramUses(const NetworkPlan &plan, const llvm::DenseSet<Value> &fusedResults) {
  auto inCvsram = [&](Value v) {
    auto it = plan.surfaceOf.find(v);
    return it != plan.surfaceOf.end() && plan.surfaces[it->second].memory == DescMemType::Cv;
  };
  for (const HardwareLayer &layer : plan.layers) {
    for (Operation *member : {layer.op, layer.fused}) {
      if (!member)
        continue;
      for (OpOperand &use : member->getOpOperands()) {
        if (fusedResults.contains(use.get()) || !inCvsram(use.get()))
          continue;
        auto conv = dyn_cast<ConvOp>(member);
        const bool feature = isa<ConvOp, SdpOp>(member) &&
                             cast<LayerOpInterface>(member).getOperandRole(
                                 use.getOperandNumber()) == LayerOperandRole::Feature;
        if (isa<RelayoutOp>(member) ||
            (feature && (!conv || conv.getMode() == nv::ConvMode::Direct)))
          continue;
        return member->emitOpError()
               << "reads operand #" << use.getOperandNumber() << " from the CV-SRAM ("
               << kMemoryAttrName
               << "): the register plan programs CV-SRAM reads for BDMA copies and the feature "
                  "input of a direct convolution or an SDP only";
      }
    }
    Operation *writer = layer.fused ? layer.fused : layer.op;
    if (inCvsram(layer.result()) && !isa<RelayoutOp, SdpOp>(writer))
      return writer->emitOpError()
             << "writes its result to the CV-SRAM (" << kMemoryAttrName
             << "): the register plan programs CV-SRAM writes for BDMA copies and SDPs only";
  }
  for (Operation *op : plan.emulated)
    for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (inCvsram(v))
        return op->emitOpError() << "runs on NVIDIA's runtime emulator, which works on DRAM "
                                    "buffers: a value it reads or writes lies in the CV-SRAM ("
                                 << kMemoryAttrName << ")";
  return success();
}

} // namespace

int64_t regplan::batchInputs(const HardwareLayer &hw) {
  // A copy moves every input itself (describeBdma).
  if (isa<RelayoutOp>(hw.op))
    return 1;
  int64_t n = batchOf(hw.result());
  for (Operation *member : {hw.op, hw.fused})
    for (Value v : member ? member->getOperands() : ValueRange())
      n = std::max(n, batchOf(v));
  return n;
}

bool regplan::runsInBatchMode(const HardwareLayer &hw) {
  const int64_t n = batchInputs(hw);
  auto conv = dyn_cast<ConvOp>(hw.op);
  // v1 asserts batch 1 on its int8-to-int16 SDP path (SdpDataOperationThread):
  // such a layer runs once per input.
  if (n == 1 || !conv || conv.getMode() != nv::ConvMode::Direct || widensInt8Pipeline(hw))
    return false;
  auto feature = dyn_cast_or_null<FeatureAttr>(conv.getInput().getType().getEncoding());
  if (!feature)
    return false;
  const nv::HardwareConfig &config = nv::getHardwareConfig(feature.getConfig());
  if (!nv::whyNotBatch(config, n).empty())
    return false;
  // CSC holds every input's rows one after another: a batch runs in batch
  // mode only whole in the buffer beside the weights, not by bands.
  std::optional<nv::ConvBufferQuery> q = getConvBufferQuery(conv, conv.getMode());
  if (!q || conv.getRowsPerPart())
    return false;
  q->batches = n;
  dlaformat::Expected<nv::ConvBufferPlan> buffer = nv::planConvBuffer(config, *q);
  if (!buffer || buffer->mode == nv::ConvBufferMode::PartialHeight)
    return false;
  // The SDP's operand DMAs have batch strides (D_BS/BN/EW_BATCH_STRIDE)
  // that NVIDIA's firmware does not write: a per-element operand of the
  // batch is read one input at a time.
  if (hw.fused)
    for (Value v : hw.fused->getOperands())
      if (v != hw.op->getResult(0) && batchOf(v) != 1)
        return false;
  return true;
}

CubeAddress NetworkPlan::cube(Value v) const {
  const Surface &s = surface(v);
  auto shape = cast<RankedTensorType>(v.getType()).getShape();
  if (s.pixel) // an image: its pixels, the format's channels, plane 0's lines
    return CubeAddress{addressOf(v), shape[3], shape[2], shape[1],
                       static_cast<const nv::PixelBoundLayout *>(s.pixel.get())->getLineStride(),
                       0};
  return CubeAddress{addressOf(v), shape[3], shape[2], shape[1], s.feature->getLineStride(),
                     s.feature->getSurfaceStride()};
}

FailureOr<NetworkPlan> regplan::planNetwork(func::FuncOp func, uint64_t base,
                                            uint64_t cvsramBase) {
  NetworkPlan plan;
  plan.func = func;
  plan.base = base;
  plan.cvsramBase = cvsramBase;
  // A convolution's bias is its SDP's; an fp16 SDP's steps and a clamp
  // are X stages.
  splitConvolutionBiases(func);
  stateFp16SdpStages(func);
  stateClampStages(func);
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();

  // Hardware layers, and what each operand is read as.
  llvm::DenseSet<Value> weightValues, imageWeights, winogradWeights, pixelValues, auxValues, channelValues;
  // Feature surfaces the SDP reads or writes in pairs of int16 surfaces
  // (pairedSurface): an odd count gets one more surface's bytes.
  llvm::DenseSet<Value> pairedValues;
  llvm::DenseSet<Operation *> fusedOps;
  // Channel views: one surface per tensor, each view at an offset into its
  // parent's (ViewOps.cpp); `viewOf` maps a view to its parent.
  llvm::DenseMap<Value, std::pair<Value, int64_t>> viewOf;
  SmallVector<WeightConstantOp> constants;
  for (Operation &op : body) {
    if (&op == terminator || fusedOps.contains(&op))
      continue;
    if (auto slice = dyn_cast<ChannelSliceOp>(op)) {
      viewOf[slice.getResult()] = {
          slice.getSource(), getChannelViewByteOffset(slice.getSource().getType(),
                                                      static_cast<int64_t>(slice.getOffset()))};
      continue;
    }
    if (auto concat = dyn_cast<ChannelConcatOp>(op)) {
      for (auto [input, first] : llvm::zip_equal(concat.getInputs(), concat.getInputChannels()))
        viewOf[input] = {concat.getResult(), getChannelViewByteOffset(concat.getType(), first)};
      continue;
    }
    // A map read as weights: the convolution reads its source's bytes.
    if (auto weights = dyn_cast<AsWeightsOp>(op)) {
      viewOf[weights.getResult()] = {weights.getSource(), 0};
      continue;
    }
    // A map's positions reshaped in place: its source's bytes.
    if (auto reshape = dyn_cast<ReshapeViewOp>(op)) {
      viewOf[reshape.getResult()] = {reshape.getSource(), 0};
      continue;
    }
    if (isa<EmulatorOpInterface>(op)) {
      plan.emulated.push_back(&op);
      continue;
    }
    // Compressed weights the program carries (a surface of their own).
    if (auto constant = dyn_cast<WeightConstantOp>(op)) {
      constants.push_back(constant);
      continue;
    }
    // A copy between two feature layouts: a BDMA layer (DescribeBdma.cpp).
    if (auto copy = dyn_cast<RelayoutOp>(op)) {
      if (failed(checkCopy(copy)))
        return failure();
      for (Value in : op.getOperands())
        if (computedByEmulator(in))
          return op.emitOpError("reads a value NVIDIA's runtime emulator computes, in an EMU "
                                "task after the DLA task that runs the layers");
      plan.layers.push_back(HardwareLayer{&op, nullptr});
      continue;
    }
    auto layer = dyn_cast<LayerOpInterface>(op);
    if (!layer)
      return op.emitOpError("is not a hardware layer: a register program holds layer ops "
                            "(dla.conv, dla.sdp, dla.pool, dla.lrn, ...) and, after them, ops "
                            "of NVIDIA's runtime emulator only");
    for (Value in : op.getOperands())
      if (computedByEmulator(in))
        return op.emitOpError("reads a value NVIDIA's runtime emulator computes, in an EMU task "
                              "after the DLA task that runs the layers");
    SmallVector<Operation *> members = getHardwareLayer(layer);
    // The verifiers let an on-the-fly SDP read only a dla.conv, which
    // comes first and fuses nothing itself.
    assert(members.front() == &op && members.size() <= 2 && "a convolution and its SDP");
    HardwareLayer hw{&op, members.size() == 2 ? members[1] : nullptr};
    if (failed(checkFp16Layer(hw)) || failed(checkInt16Layer(hw)) ||
        failed(checkImageConversion(hw)))
      return failure();
    if (Value paired = pairedSurface(hw))
      pairedValues.insert(paired);
    if (hw.fused) {
      if (!op.hasOneUse())
        return op.emitOpError("result never reaches memory (its SDP reads it on the fly), but "
                              "other ops use it");
      fusedOps.insert(hw.fused);
    }
    for (Operation *member : members) {
      auto m = cast<LayerOpInterface>(member);
      bool image = llvm::any_of(llvm::seq<unsigned>(member->getNumOperands()), [&](unsigned i) {
        return m.getOperandRole(i) == LayerOperandRole::Image;
      });
      for (OpOperand &use : member->getOpOperands()) {
        switch (m.getOperandRole(use.getOperandNumber())) {
        case LayerOperandRole::Feature:
          break;
        case LayerOperandRole::Image:
          pixelValues.insert(use.get());
          break;
        case LayerOperandRole::Weight:
          weightValues.insert(use.get());
          if (image)
            imageWeights.insert(use.get());
          if (auto conv = dyn_cast<ConvOp>(member); conv && conv.getMode() == nv::ConvMode::Winograd)
            winogradWeights.insert(use.get());
          break;
        case LayerOperandRole::ConvBias:
          llvm_unreachable("splitConvolutionBiases moved every bias to an SDP");
        case LayerOperandRole::SdpOperand:
          auxValues.insert(use.get());
          if (isChannelOperand(member, use))
            channelValues.insert(use.get());
          break;
        }
      }
    }
    plan.layers.push_back(hw);
  }

  // A feature surface an SDP stage reads: its per-channel run (`prelu`) or
  // per-element data; a surface holds one operand layout.
  auto readAsOperand = [&](const nv::FeatureBoundLayout &feature, Value v,
                           Location loc) -> FailureOr<std::unique_ptr<::dlaformat::BoundLayout>> {
    if (!channelValues.contains(v))
      return featureAsOperand(feature, cast<RankedTensorType>(v.getType()).getShape(), loc);
    for (OpOperand &use : v.getUses())
      if (auto layer = dyn_cast<LayerOpInterface>(use.getOwner());
          layer && layer.getOperandRole(use.getOperandNumber()) == LayerOperandRole::SdpOperand &&
          !isChannelOperand(use.getOwner(), use))
        return emitError(loc) << "a layer's result is read both per channel (an SDP's prelu) and "
                                 "per element (another SDP operand): its surface holds one of "
                                 "the two";
    return featureAsChannelOperand(feature, loc);
  };
  // Surfaces and lifetimes (in layer indices).
  std::function<LogicalResult(Value, std::string, int64_t, Location)> addSurface;
  // A view's surface: its own cube (the parent's strides), placed where
  // its parent is (added first, from the view's first writer on).
  auto addView = [&](Value v, std::string name, int64_t first, Location loc) -> LogicalResult {
    auto [parent, offset] = viewOf.lookup(v);
    if (!plan.surfaceOf.count(parent) &&
        failed(addSurface(parent, name + ".parent", first, loc)))
      return failure();
    const Surface &p = plan.surfaces[plan.surfaceOf.at(parent)];
    Surface s;
    if (weightValues.contains(v)) {
      // dla.as_weights: the parent's bytes are the weight stream (of a
      // direct or image layout: Winograd taps are not read in place).
      if (failed(checkWeights(v, imageWeights.contains(v), /*winograd=*/false, loc)))
        return failure();
      auto layout = bindTensorLayout(cast<RankedTensorType>(v.getType()),
                                     [&] { return emitError(loc); });
      if (failed(layout))
        return failure();
      if (!p.feature || p.feature->getStorageBytes() != (*layout)->getStorageBytes())
        return emitError(loc) << "weights " << v.getType()
                              << " read in place must be a feature surface of their size";
      // The parent starts where weights may (256 bytes: the document's
      // weight start address).
      PlannedSurface &parentPlace = plan.placement[p.placed];
      parentPlace.alignment = std::max(parentPlace.alignment, (*layout)->getStorageAlignment());
    } else {
      auto layout = featureLayout(v, loc);
      if (failed(layout))
        return failure();
      s.feature = std::move(*layout);
      if (pairedValues.contains(v) && s.feature->getNumSurfaces() % 2)
        return emitError(loc) << "a view of " << s.feature->getNumSurfaces()
                              << " int16 surfaces is read or written by an SDP converting "
                                 "between int16 and int8, which moves int16 surfaces in pairs "
                                 "(NV_NVDLA_sdp.cpp): the one beyond would be its parent's";
    }
    if (auxValues.contains(v)) {
      auto operand = readAsOperand(*s.feature, v, loc);
      if (failed(operand))
        return failure();
      s.aux = std::move(*operand);
    }
    s.value = v;
    s.name = std::move(name);
    s.memory = p.memory;
    s.placed = p.placed;
    s.viewOffset = p.viewOffset + offset;
    plan.surfaceOf[v] = plan.surfaces.size();
    plan.surfaces.push_back(std::move(s));
    return success();
  };
  addSurface = [&](Value v, std::string name, int64_t first, Location loc) -> LogicalResult {
    if (viewOf.count(v))
      return addView(v, std::move(name), first, loc);
    PlannedSurface p;
    Surface s;
    auto type = cast<RankedTensorType>(v.getType());
    std::unique_ptr<::dlaformat::BoundLayout> *bound = nullptr;
    if (pixelValues.contains(v)) {
      auto layout = pixelLayout(v, loc);
      if (failed(layout))
        return failure();
      s.pixel = std::move(*layout);
      bound = &s.pixel;
    } else if (auxValues.contains(v) && !isa_and_nonnull<FeatureAttr>(type.getEncoding())) {
      if (!isa_and_nonnull<BiasAttr, BatchNormAttr, PReLUAttr, EltwiseAttr>(type.getEncoding()))
        return emitError(loc) << "an SDP memory operand of a register program must be NVDLA "
                                 "operand data (#dla.bias, #dla.batchnorm, #dla.prelu, "
                                 "#dla.eltwise) or feature data, got "
                              << type;
      auto layout = bindTensorLayout(type, [&] { return emitError(loc); });
      if (failed(layout))
        return failure();
      s.aux = std::move(*layout);
      bound = &s.aux;
    } else if (weightValues.contains(v)) {
      if (failed(checkWeights(v, imageWeights.contains(v),
                              winogradWeights.contains(v), loc)))
        return failure();
      if (auto constant = v.getDefiningOp<WeightConstantOp>()) {
        if (failed(compressedSurface(constant, s, p)))
          return failure();
      } else if (auto encoding = dyn_cast<LayoutEncodingAttr>(type.getEncoding());
          encoding && winogradWeights.contains(v)) {
        // Winograd weights have no element-wise layout: one stream of
        // transformed taps, placed by its storage description.
        auto storage = encoding.getStorageDescription(
            type.getShape(), type.getElementType(),
            [&] { return emitError(loc); });
        if (failed(storage))
          return failure();
        p.bytes = storage->buffers.front().bytes;
        p.alignment = storage->buffers.front().alignment;
      } else {
        auto layout = bindTensorLayout(type, [&] { return emitError(loc); });
        if (failed(layout))
          return failure();
        p.bytes = (*layout)->getStorageBytes();
        p.alignment = (*layout)->getStorageAlignment();
      }
    } else {
      auto layout = featureLayout(v, loc);
      if (failed(layout))
        return failure();
      s.feature = std::move(*layout);
      p.bytes = s.feature->getStorageBytes();
      p.alignment = s.feature->getStorageAlignment();
      // The SDP between int16 and int8 reads or writes the surface after
      // an odd last one too (its lanes beyond the channels, never checked),
      // after the last input of a batch too (one operation per input, in
      // order: an earlier input's surface beyond is overwritten by the next).
      if (const nv::AtomCube &cube = s.feature->getCube();
          pairedValues.contains(v) && cube.getNumSurfaces() % 2)
        p.bytes = std::max(p.bytes, (cube.getSpec().batches - 1) * cube.getBatchStride() +
                                        (cube.getNumSurfaces() + 1) * cube.getSurfaceStride());
      if (auxValues.contains(v)) {
        auto operand = readAsOperand(*s.feature, v, loc);
        if (failed(operand))
          return failure();
        s.aux = std::move(*operand);
      }
    }
    if (bound) {
      p.bytes = (*bound)->getStorageBytes();
      p.alignment = (*bound)->getStorageAlignment();
    }
    if (failed(checkDmaStrides(s, name, loc)))
      return failure();
    FailureOr<std::optional<DescMemType>> memory = requestedMemory(v, loc);
    if (failed(memory))
      return failure();
    s.memory = memory->value_or(DescMemType::Mc);
    p.name = name;
    p.first = p.last = first;
    s.value = v;
    s.name = std::move(name);
    s.placed = plan.placement.size();
    plan.surfaceOf[v] = plan.surfaces.size();
    plan.surfaces.push_back(std::move(s));
    plan.placement.push_back(p);
    return success();
  };
  for (BlockArgument a : func.getArguments())
    if (failed(addSurface(a, "arg" + std::to_string(a.getArgNumber()), -1, func.getLoc())))
      return failure();
  for (auto [index, constant] : llvm::enumerate(constants))
    if (weightValues.contains(constant.getResult()) &&
        failed(addSurface(constant.getResult(), "const" + std::to_string(index), -1,
                          constant.getLoc())))
      return failure();
  for (auto [index, layer] : llvm::enumerate(plan.layers)) {
    // Every value a layer reads is an argument or an earlier layer's
    // result: other ops were refused, a fused result has one use.
    for (Operation *member : {layer.op, layer.fused}) {
      if (!member)
        continue;
      for (Value in : member->getOperands()) {
        if (member == layer.fused && in == layer.op->getResult(0))
          continue;
        if (!plan.surfaceOf.count(in) && viewOf.count(in) &&
            failed(addSurface(in, "view" + std::to_string(plan.surfaces.size()),
                              static_cast<int64_t>(index), member->getLoc())))
          return failure();
        auto it = plan.surfaceOf.find(in);
        assert(it != plan.surfaceOf.end() && "an operand that is no surface");
        plan.placement[plan.surfaces[it->second].placed].last = static_cast<int64_t>(index);
      }
    }
    if (failed(addSurface(layer.result(), "layer" + std::to_string(index),
                          static_cast<int64_t>(index), layer.result().getLoc())))
      return failure();
    if (isa<ConvOp>(layer.op) &&
        failed(checkCaccStrides(plan.surface(layer.result()), layer.op->getLoc())))
      return failure();
  }
  if (plan.layers.empty())
    return func.emitError("a program without layers has nothing to check");
  // The emulator's ops run after every layer: their results are written
  // then, and nothing they read may be overwritten before (live to the end).
  const auto afterLayers = static_cast<int64_t>(plan.layers.size());
  for (auto [index, op] : llvm::enumerate(plan.emulated)) {
    for (Value in : op->getOperands()) {
      if (!plan.surfaceOf.count(in) && viewOf.count(in) &&
          failed(addSurface(in, "view" + std::to_string(plan.surfaces.size()), afterLayers,
                            op->getLoc())))
        return failure();
      auto it = plan.surfaceOf.find(in);
      if (it == plan.surfaceOf.end() || !plan.surfaces[it->second].feature ||
          weightValues.contains(in) || auxValues.contains(in))
        return op->emitOpError("reads a value that is no feature surface of a layer, an "
                               "emulator op or an argument");
      plan.placement[plan.surfaces[it->second].placed].last = kEnd;
    }
    for (Value r : op->getResults()) {
      if (failed(addSurface(r, "emu" + std::to_string(index), afterLayers, op->getLoc())))
        return failure();
      plan.placement[plan.surface(r).placed].last = kEnd;
    }
  }
  for (Value r : terminator->getOperands()) {
    if (!plan.surfaceOf.count(r) && viewOf.count(r) &&
        failed(addSurface(r, "view" + std::to_string(plan.surfaces.size()),
                          static_cast<int64_t>(plan.layers.size()), terminator->getLoc())))
      return failure();
    auto it = plan.surfaceOf.find(r);
    if (it == plan.surfaceOf.end() || !plan.surfaces[it->second].feature ||
        weightValues.contains(r) || auxValues.contains(r))
      return terminator->emitOpError("returns a value that is no feature surface of a layer or "
                                     "argument");
    plan.placement[plan.surfaces[it->second].placed].last = kEnd;
  }
  // One address space for the plan: the configuration of its layers' data.
  const nv::HardwareConfig &config = nv::getHardwareConfig(
      plan.surface(plan.layers.front().result()).feature->getConfig().hardware);

  // dla.memory only where the plan owns a surface by it (not on a view,
  // which lies in its parent's memory, or a result read on the fly).
  llvm::DenseSet<Value> fusedResults;
  for (const HardwareLayer &layer : plan.layers)
    if (layer.fused)
      fusedResults.insert(layer.op->getResult(0));
  for (Operation &op : body) {
    if (!op.hasAttr(kMemoryAttrName) || &op == terminator)
      continue;
    if (op.getNumResults() != 1 || viewOf.count(op.getResult(0)) ||
        !plan.surfaceOf.count(op.getResult(0)))
      return op.emitOpError()
             << "has " << kMemoryAttrName
             << ", but its result is no surface of its own: a channel view lies in its parent's "
                "memory, a result its SDP reads on the fly in none";
  }
  bool anyCvsram = false;
  for (const Surface &s : plan.surfaces)
    anyCvsram |= s.memory == DescMemType::Cv;
  if (anyCvsram) {
    if (std::string why = nv::whyNotCvsram(config); !why.empty()) {
      for (const Surface &s : plan.surfaces)
        if (s.memory == DescMemType::Cv)
          return emitError(isa<BlockArgument>(s.value) ? func.getLoc() : s.value.getLoc())
                 << s.name << " is placed in the CV-SRAM (" << kMemoryAttrName << "): " << why;
    }
    if (failed(checkCvsramUses(plan, fusedResults)))
      return failure();
  }

  // Each memory's surfaces placed apart (a placement's memory is its
  // owner's, the first surface placed there), from its own base.
  std::vector<DescMemType> memoryOfPlacement(plan.placement.size(), DescMemType::Mc);
  for (const Surface &s : llvm::reverse(plan.surfaces))
    memoryOfPlacement[s.placed] = s.memory;
  for (DescMemType memory : {DescMemType::Mc, DescMemType::Cv}) {
    std::vector<size_t> indices;
    std::vector<PlannedSurface> placement;
    for (size_t i = 0; i < plan.placement.size(); ++i)
      if (memoryOfPlacement[i] == memory) {
        indices.push_back(i);
        placement.push_back(plan.placement[i]);
      }
    AddressPlanResult placed =
        planAddresses(placement, getNvdlaAddressSpace(config, plan.baseOf(memory)));
    if (!placed.ok()) {
      Location loc = func.getLoc();
      for (const Surface &s : plan.surfaces)
        if (placed.surface && indices[*placed.surface] == s.placed &&
            !isa<BlockArgument>(s.value))
          loc = s.value.getLoc();
      return emitError(loc) << placed.error;
    }
    for (auto [i, p] : llvm::zip_equal(indices, placement))
      plan.placement[i].offset = p.offset;
    (memory == DescMemType::Mc ? plan.extent : plan.cvsramExtent) = placed.extent;
  }
  return plan;
}
