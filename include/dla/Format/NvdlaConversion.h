//===- NvdlaConversion.h - NVDLA precision-conversion legality --*- C++ -*-===//
//
// Which precision conversions an NVDLA layer may perform, answered from the
// four tables of the in-memory format document ("Precision Conversion":
// convolution, SDP offline, LRN, pooling) and the prose rules around them.
// This is the only copy of those tables; the MLIR verifier and any frontend
// ask here. Pure C++17, no exceptions, no LLVM/MLIR.
//
// Terms
// -----
// * Layer kinds and the NVDLA unit that runs them:
//     Convolution  - convolution pipeline, CONV/CACC (CDMA..CACC)
//     SdpOffline   - SDP reading its input cube from memory (SDP RDMA)
//     SdpOnTheFly  - SDP fed directly by CACC (fused after a convolution)
//     Lrn          - CDP
//     Pooling      - PDP
// * "Real precision in pipeline" is PipelinePrecision (the SDP table uses
//   int32 / fp32, the others int8 / int16 / fp16).
// * An input is feature data of a precision, or an image. Images are
//   classified by their pixel format's "valid input precision" (pixel-format
//   table): int8 / int16 -> ImageInteger, fp16 -> ImageFp16; see imageInput().
//   (Unsigned pixels are integer images: "DMA logic will turn unsigned
//   integer value to signed integer value automatically".)
//
// Rules applied, in order (first rejecting rule decides, see ConversionRule)
// -------------------------------------------------------------------------
// Convolution:
//   - ConvMode::ImageInput takes images only        (ImageInputModeNeedsImage)
//   - Direct / Winograd take feature data only      (ImageNeedsImageInputMode)
//   - otherwise the convolution table decides.     (ConvolutionTable)
//     The table's feature-data rows are the identity, which is the prose
//     "Direct convolution (DC) mode and Winograd convolution mode do not
//     support precision conversion"; its image rows are erratum 4: an integer
//     image converts to int8, int16 and fp16 with pipeline and weight
//     precision equal to the output; an fp16 image only to fp16.
// SdpOffline, Lrn, Pooling:
//   - an image input is rejected                    (ImagesOnlyInConvolution)
//   - otherwise that layer's table decides (pooling with erratum 3 applied).
// SdpOnTheFly (input = the feeding convolution's configured output precision,
// ConversionQuery::convOutput; ConversionQuery::input is not consulted):
//   - convOutput unset: rejected                    (SdpOnTheFlyMissingInput)
//   - feeding convolution Winograd: output must equal the input
//                                                   (SdpOnTheFlyDirectOnly)
//     ("support free conversion of int16 <-> fp16 and int8 <-> int16 for DC
//     mode only": the offline table has no convolution in front of it, so
//     "DC mode" can only constrain the convolution feeding an on-the-fly SDP;
//     v1's SDP asserts WINOGRAD off on its int8-to-int16 path, below.)
//   - feeding convolution Direct or image input: the output must be valid in the SDP table
//     for that input AND have the input's bit depth (int8 -> int8;
//     int16 -> int16 / fp16; fp16 -> int16 / fp16; bit depth compared via
//     getBytesPerElement), or be int16 from int8    (SdpOnTheFlyBitDepth)
//     ("SDP takes precision of convolution pipeline output as input precision
//     then do another precision conversion, but the input precision and
//     output precision should have the same bit-depth.")
//   int8 -> int16 on the fly (decided from NVIDIA's code, issue 47: where the
//   code and the document disagree, the code wins). The document's two
//   sentences disagree for it (the bit-depth sentence forbids it, "free
//   conversion of ... int8 <-> int16 for DC mode only" allows it); NVIDIA's
//   code has the path:
//   * v1 C model, cmod/sdp/NV_NVDLA_sdp.cpp: SdpDataOperationThread (1358)
//     takes PROC_PRECISION int8 with OUT_PRECISION not int8 as
//     is_int8_to_int16 whether the data comes from SDP_RDMA or, on the fly,
//     from CACC (cc2pp_fifo_), asserting only batch 1 and WINOGRAD off
//     (1360-1363); WdmaSequenceDC (1465, 1497) and SendDmaWriteRequest
//     (2077, 2140-2168) write each int8 data-path atom as two int16
//     surfaces. The output converter saturates to OUT_PRECISION
//     (cmod/hls/sdp/sdp_c.cpp 67-75).
//   * cmod/cacc/NV_NVDLA_cacc.cpp: int8 CACC assembles in 48 bits and
//     delivers 32 bits (clip truncate, INT32 saturation: 798-839), as int16
//     does; the SDP's stages work on those 32 bits either way.
//   * firmware (nvdla-sw kmd/firmware/sdp.c 86-102, 368-372, 716-721):
//     PROC_PRECISION = map_proc_precision[dst][src], int8 for int8 -> int16,
//     programmed for on-the-fly and offline SDPs alike; neither sdp.c nor
//     conv.c refuses a precision pair.
//   * image input is a direct convolution from CACC on: CACC / CMAC have
//     CONV_MODE DIRECT or WINOGRAD only (conv.c map_conv 44-47), the pixel
//     format is CDMA's DATAIN_FORMAT, and the SDP never sees it. So the SDP
//     on the fly after image input converts as after a direct convolution
//     (issue 47: int16 -> fp16 after an int16 image pipeline checked on the
//     v1 model, docs/NvdlaCModelV1.md "int16 and fp16 after image input").
//   * NVIDIA's compiler never emits it (umd/core/src/compiler/engine-ast/
//     EngineNode.cpp suggestOutputSurfaceFormats: an output's precision is
//     the input's and the compute precision's, "until we figure out the CVT
//     business"): neither evidence for nor against.
//   int16 -> int8 on the fly stays refused: the int8 data path would take
//   CACC's 16-channel int16 atoms as 32-channel ones (v1 has no such path).
//   Batch mode is the register plan's refusal (the rules know no batch).
//   Pipeline precision comes from the SDP table cell (int32 / fp32).
//
// Message shape (ConversionVerdict::message; empty when valid)
// ------------------------------------------------------------
//   table decided:  invalid precision conversion for <table>: <in> -> <out> (valid: <outs>)
//   prose decided:  invalid precision conversion for <subject>: <in> -> <out> (valid: <outs>; <rule>)
// <table>   "convolution layer" | "SDP layer (offline mode)" | "LRN layer" |
//           "pooling layer"   (the document's "Precision conversion for ..."
//           table titles)
// <subject> for the convolution mode rules: "direct convolution layer",
//           "Winograd convolution layer", "image input convolution layer";
//           for ImagesOnlyInConvolution: the layer's table name;
//           for on-the-fly SDP: "on-the-fly SDP layer after <mode> convolution"
//           with <mode> "direct" | "Winograd" | "image input".
// <in>      "int8 feature data" | "int16 feature data" | "fp16 feature data" |
//           "integer image input" | "fp16 image input" |
//           "unspecified convolution output" (SdpOnTheFlyMissingInput)
// <out>     "int8" | "int16" | "fp16"
// <outs>    the legal outputs for that input in the order int8, int16, fp16,
//           joined by ", "; "none" when there are none
// <rule>    enumName() of the deciding prose rule, e.g.
//           "on-the-fly SDP keeps the bit depth or widens int8 to int16".
// Example: invalid precision conversion for LRN layer: int8 feature data -> fp16 (valid: int8)
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLACONVERSION_H
#define DLA_FORMAT_NVDLACONVERSION_H

#include "dla/Format/Expected.h"
#include "dla/Format/EnumTable.h"
#include "dla/Format/NvdlaPrecision.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla {

/// The layer whose conversion is asked about, with its NVDLA unit.
enum class LayerKind {
  Convolution, ///< convolution pipeline (CONV/CACC)
  SdpOffline,  ///< SDP, input cube read from memory
  SdpOnTheFly, ///< SDP fed by CACC: input is the convolution's output
  Lrn,         ///< CDP
  Pooling,     ///< PDP
};

/// Convolution mode. For SdpOnTheFly: the mode of the feeding convolution.
enum class ConvMode { Direct, Winograd, ImageInput, Last = ImageInput };

/// The keywords are the dialect's (`dla.conv image`); messages use the prose.
inline constexpr EnumEntry<ConvMode> kConvModeNames[] = {
    {ConvMode::Direct, "direct"},
    {ConvMode::Winograd, "winograd", "Winograd"},
    {ConvMode::ImageInput, "image", "image input"}};
constexpr const auto &enumEntries(ConvMode) { return kConvModeNames; }
static_assert(isInDeclarationOrder(kConvModeNames, &EnumEntry<ConvMode>::value));

/// "Configured input format": feature data of a precision, or an image
/// classified by its pixel format's valid input precision.
enum class InputKind {
  FeatureInt8,
  FeatureInt16,
  FeatureFp16,
  ImageInteger, ///< pixel precision int8 / int16 (incl. unsigned pixels)
  ImageFp16,    ///< pixel precision fp16
  Last = ImageFp16, ///< the last value: EnumTable.h checks each table's size
};

inline constexpr EnumEntry<InputKind> kInputKindNames[] = {
    {InputKind::FeatureInt8, "int8 feature data"},
    {InputKind::FeatureInt16, "int16 feature data"},
    {InputKind::FeatureFp16, "fp16 feature data"},
    {InputKind::ImageInteger, "integer image input"},
    {InputKind::ImageFp16, "fp16 image input"}};
constexpr const auto &enumEntries(InputKind) { return kInputKindNames; }
static_assert(isInDeclarationOrder(kInputKindNames, &EnumEntry<InputKind>::value));

/// "Real precision in pipeline".
enum class PipelinePrecision { Int8, Int16, Fp16, Int32, Fp32, Last = Fp32 };

inline constexpr EnumEntry<PipelinePrecision> kPipelinePrecisionNames[] = {
    {PipelinePrecision::Int8, "int8"},
    {PipelinePrecision::Int16, "int16"},
    {PipelinePrecision::Fp16, "fp16"},
    {PipelinePrecision::Int32, "int32"},
    {PipelinePrecision::Fp32, "fp32"}};
constexpr const auto &enumEntries(PipelinePrecision) { return kPipelinePrecisionNames; }
static_assert(
    isInDeclarationOrder(kPipelinePrecisionNames, &EnumEntry<PipelinePrecision>::value));

/// The four tables of the document.
enum class ConversionTable { Convolution, SdpOffline, Lrn, Pooling, Last = Pooling };

/// The document's table titles ("Precision conversion for <name>").
inline constexpr EnumEntry<ConversionTable> kConversionTableNames[] = {
    {ConversionTable::Convolution, "convolution layer"},
    {ConversionTable::SdpOffline, "SDP layer (offline mode)"},
    {ConversionTable::Lrn, "LRN layer"},
    {ConversionTable::Pooling, "pooling layer"}};
constexpr const auto &enumEntries(ConversionTable) { return kConversionTableNames; }
static_assert(isInDeclarationOrder(kConversionTableNames, &EnumEntry<ConversionTable>::value));

/// What decided a verdict: one of the four tables, or a prose rule.
enum class ConversionRule {
  // Tables.
  ConvolutionTable,
  SdpOfflineTable,
  LrnTable,
  PoolingTable,
  // Prose rules.
  ImageInputModeNeedsImage, ///< "image input mode reads images only"
  ImageNeedsImageInputMode, ///< "direct and Winograd convolution read feature data only"
  ImagesOnlyInConvolution,  ///< "only the convolution pipeline reads images"
  SdpOnTheFlyDirectOnly,    ///< "SDP converts precision after direct convolution only"
  SdpOnTheFlyBitDepth,      ///< "on-the-fly SDP keeps the bit depth or widens int8 to int16"
  SdpOnTheFlyMissingInput,  ///< "on-the-fly SDP needs the convolution's output precision"
  Last = SdpOnTheFlyMissingInput, ///< the last value: EnumTable.h checks each table's size
};

/// Table rules: the table's title; prose rules: the sentence above.
inline constexpr EnumEntry<ConversionRule> kConversionRuleNames[] = {
    {ConversionRule::ConvolutionTable, kConversionTableNames[0].name},
    {ConversionRule::SdpOfflineTable, kConversionTableNames[1].name},
    {ConversionRule::LrnTable, kConversionTableNames[2].name},
    {ConversionRule::PoolingTable, kConversionTableNames[3].name},
    {ConversionRule::ImageInputModeNeedsImage, "image input mode reads images only"},
    {ConversionRule::ImageNeedsImageInputMode,
     "direct and Winograd convolution read feature data only"},
    {ConversionRule::ImagesOnlyInConvolution, "only the convolution pipeline reads images"},
    {ConversionRule::SdpOnTheFlyDirectOnly,
     "SDP converts precision after direct convolution only"},
    {ConversionRule::SdpOnTheFlyBitDepth,
     "on-the-fly SDP keeps the bit depth or widens int8 to int16"},
    {ConversionRule::SdpOnTheFlyMissingInput,
     "on-the-fly SDP needs the convolution's output precision"}};
constexpr const auto &enumEntries(ConversionRule) { return kConversionRuleNames; }
static_assert(isInDeclarationOrder(kConversionRuleNames, &EnumEntry<ConversionRule>::value));

/// One cell (row) of a table: input x output.
struct ConversionCell {
  InputKind input;
  Precision output;
  /// Real precision in pipeline; nullopt for "Invalid case".
  std::optional<PipelinePrecision> pipeline;
  /// Corresponding weight precision (convolution table only; nullopt when
  /// invalid or for the other tables).
  std::optional<Precision> weight;
  /// The row's "Configured input format" label as printed in the document.
  std::string_view documentRow;
  /// Non-empty when an erratum of the spec README changed this cell.
  std::string_view erratum;

  bool valid() const { return pipeline.has_value(); }
};

struct ConversionQuery {
  LayerKind layer = LayerKind::Convolution;
  /// Convolution: its mode. SdpOnTheFly: the feeding convolution's mode.
  /// Ignored otherwise.
  ConvMode convMode = ConvMode::Direct;
  /// The layer's input. Not consulted for SdpOnTheFly.
  InputKind input = InputKind::FeatureInt8;
  /// Configured output precision.
  Precision output = Precision::Int8;
  /// SdpOnTheFly only: the feeding convolution's configured output precision,
  /// which is SDP's input precision. Required for SdpOnTheFly.
  std::optional<Precision> convOutput;

  static ConversionQuery convolution(ConvMode mode, InputKind input,
                                     Precision output);
  static ConversionQuery sdpOffline(InputKind input, Precision output);
  static ConversionQuery sdpOnTheFly(ConvMode producerMode,
                                     Precision convOutput, Precision output);
  static ConversionQuery lrn(InputKind input, Precision output);
  static ConversionQuery pooling(InputKind input, Precision output);
};

struct ConversionVerdict {
  bool valid = false;
  /// Real precision in pipeline; set iff valid.
  std::optional<PipelinePrecision> pipeline;
  /// Weight precision; set iff valid and the layer is a convolution.
  std::optional<Precision> weight;
  /// The legal outputs for this query's layer, mode and input, in the order
  /// int8, int16, fp16 (possibly empty).
  std::vector<Precision> validOutputs;
  ConversionRule decidedBy = ConversionRule::ConvolutionTable;
  /// The ready diagnostic (shape in the file comment); empty when valid.
  std::string message;

  explicit operator bool() const { return valid; }
};

/// Decide a query. Never fails: invalid queries get an invalid verdict.
ConversionVerdict checkConversion(const ConversionQuery &query);

/// checkConversion as a Status carrying the verdict's message.
Status verifyConversion(const ConversionQuery &query);

/// Every cell of a table, row-major in the document's order (input rows
/// int8/int16/fp16 output within each). The convolution table has 15 cells:
/// ImageInteger, ImageFp16, FeatureInt8, FeatureInt16, FeatureFp16 rows;
/// the others 9: FeatureInt8, FeatureInt16, FeatureFp16 rows.
const std::vector<ConversionCell> &conversionTable(ConversionTable table);
/// The cell for (input, output), or nullptr if the table has no such row
/// (images outside the convolution table).
const ConversionCell *findCell(ConversionTable table, InputKind input,
                               Precision output);
/// All four tables in declaration order.
const std::vector<ConversionTable> &allConversionTables();

/// The table a layer kind is checked against. SdpOnTheFly answers SdpOffline:
/// on-the-fly SDP narrows that table (see the file comment).
ConversionTable baseTable(LayerKind layer);
ConversionRule tableRule(ConversionTable table);
bool isTableRule(ConversionRule rule);

/// "CONV/CACC", "SDP", "SDP", "CDP", "PDP".
std::string_view getHardwareUnit(LayerKind layer);

/// Feature data of a precision.
InputKind featureInput(Precision precision);
/// An image whose pixel format has this valid input precision
/// (int8 / int16 -> ImageInteger, fp16 -> ImageFp16).
InputKind imageInput(Precision pixelPrecision);
bool isImage(InputKind input);
/// The precision of feature data; nullopt for images.
std::optional<Precision> featurePrecision(InputKind input);
/// The pipeline precision equal to a data precision.
PipelinePrecision toPipelinePrecision(Precision precision);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLACONVERSION_H
