//===- NvdlaConversion.cpp - NVDLA precision-conversion legality ---------===//
//
// The four "Precision conversion for ..." tables of the NVDLA in-memory
// format document, as data, plus the prose rules. See NvdlaConversion.h.
//
//===----------------------------------------------------------------------===//
#include "dla/Format/NvdlaConversion.h"

#include <utility>

namespace dlaformat::nvdla {

namespace {

using P = Precision;
using PP = PipelinePrecision;
using IK = InputKind;

constexpr std::string_view kImageIntegerRow = "image input (uint8/int16/uint16)";
constexpr std::string_view kImageFp16Row = "image input (fp16)";
constexpr std::string_view kInt8Row = "int8 feature data";
constexpr std::string_view kInt16Row = "int16 feature data";
constexpr std::string_view kFp16Row = "fp16 feature data";

constexpr std::string_view kErratum4 =
    "erratum 4: any integer pixel precision, not only uint8/int16/uint16";
constexpr std::string_view kErratum3 =
    "erratum 3: the document repeats int16 here; this row is fp16 (invalid)";

ConversionCell cell(IK input, P output, std::optional<PP> pipeline,
                    std::optional<P> weight, std::string_view row,
                    std::string_view erratum = {}) {
  return ConversionCell{input, output, pipeline, weight, row, erratum};
}

constexpr std::nullopt_t kInvalid = std::nullopt;

// Table "Precision conversion for convolutional layer".
// Columns: input, output, real precision in pipeline, weight precision.
const std::vector<ConversionCell> &convolutionCells() {
  static const std::vector<ConversionCell> cells = {
      cell(IK::ImageInteger, P::Int8, PP::Int8, P::Int8, kImageIntegerRow, kErratum4),
      cell(IK::ImageInteger, P::Int16, PP::Int16, P::Int16, kImageIntegerRow, kErratum4),
      cell(IK::ImageInteger, P::Fp16, PP::Fp16, P::Fp16, kImageIntegerRow, kErratum4),
      cell(IK::ImageFp16, P::Int8, kInvalid, kInvalid, kImageFp16Row),
      cell(IK::ImageFp16, P::Int16, kInvalid, kInvalid, kImageFp16Row),
      cell(IK::ImageFp16, P::Fp16, PP::Fp16, P::Fp16, kImageFp16Row),
      cell(IK::FeatureInt8, P::Int8, PP::Int8, P::Int8, kInt8Row),
      cell(IK::FeatureInt8, P::Int16, kInvalid, kInvalid, kInt8Row),
      cell(IK::FeatureInt8, P::Fp16, kInvalid, kInvalid, kInt8Row),
      cell(IK::FeatureInt16, P::Int8, kInvalid, kInvalid, kInt16Row),
      cell(IK::FeatureInt16, P::Int16, PP::Int16, P::Int16, kInt16Row),
      cell(IK::FeatureInt16, P::Fp16, kInvalid, kInvalid, kInt16Row),
      cell(IK::FeatureFp16, P::Int8, kInvalid, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Int16, kInvalid, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Fp16, PP::Fp16, P::Fp16, kFp16Row),
  };
  return cells;
}

// Table "Precision conversion for SDP layer (offline mode)".
const std::vector<ConversionCell> &sdpOfflineCells() {
  static const std::vector<ConversionCell> cells = {
      cell(IK::FeatureInt8, P::Int8, PP::Int32, kInvalid, kInt8Row),
      cell(IK::FeatureInt8, P::Int16, PP::Int32, kInvalid, kInt8Row),
      cell(IK::FeatureInt8, P::Fp16, kInvalid, kInvalid, kInt8Row),
      cell(IK::FeatureInt16, P::Int8, PP::Int32, kInvalid, kInt16Row),
      cell(IK::FeatureInt16, P::Int16, PP::Int32, kInvalid, kInt16Row),
      cell(IK::FeatureInt16, P::Fp16, PP::Int32, kInvalid, kInt16Row),
      cell(IK::FeatureFp16, P::Int8, kInvalid, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Int16, PP::Fp32, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Fp16, PP::Fp32, kInvalid, kFp16Row),
  };
  return cells;
}

// Table "Precision conversion for LRN layer".
const std::vector<ConversionCell> &lrnCells() {
  static const std::vector<ConversionCell> cells = {
      cell(IK::FeatureInt8, P::Int8, PP::Int8, kInvalid, kInt8Row),
      cell(IK::FeatureInt8, P::Int16, kInvalid, kInvalid, kInt8Row),
      cell(IK::FeatureInt8, P::Fp16, kInvalid, kInvalid, kInt8Row),
      cell(IK::FeatureInt16, P::Int8, kInvalid, kInvalid, kInt16Row),
      cell(IK::FeatureInt16, P::Int16, PP::Int16, kInvalid, kInt16Row),
      cell(IK::FeatureInt16, P::Fp16, kInvalid, kInvalid, kInt16Row),
      cell(IK::FeatureFp16, P::Int8, kInvalid, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Int16, kInvalid, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Fp16, PP::Fp16, kInvalid, kFp16Row),
  };
  return cells;
}

// Table "Precision conversion for pooling layer", erratum 3 applied.
const std::vector<ConversionCell> &poolingCells() {
  static const std::vector<ConversionCell> cells = {
      cell(IK::FeatureInt8, P::Int8, PP::Int8, kInvalid, kInt8Row),
      cell(IK::FeatureInt8, P::Int16, kInvalid, kInvalid, kInt8Row),
      cell(IK::FeatureInt8, P::Fp16, kInvalid, kInvalid, kInt8Row, kErratum3),
      cell(IK::FeatureInt16, P::Int8, kInvalid, kInvalid, kInt16Row),
      cell(IK::FeatureInt16, P::Int16, PP::Int16, kInvalid, kInt16Row),
      cell(IK::FeatureInt16, P::Fp16, kInvalid, kInvalid, kInt16Row),
      cell(IK::FeatureFp16, P::Int8, kInvalid, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Int16, kInvalid, kInvalid, kFp16Row),
      cell(IK::FeatureFp16, P::Fp16, PP::Fp16, kInvalid, kFp16Row),
  };
  return cells;
}

constexpr Precision kAllOutputs[] = {P::Int8, P::Int16, P::Fp16};

std::string joinOutputs(const std::vector<Precision> &outputs) {
  if (outputs.empty())
    return "none";
  std::string text;
  for (Precision p : outputs) {
    if (!text.empty())
      text += ", ";
    text += enumName(p);
  }
  return text;
}

bool contains(const std::vector<Precision> &outputs, Precision p) {
  for (Precision q : outputs)
    if (q == p)
      return true;
  return false;
}

/// Fills the message of an invalid verdict.
void reject(ConversionVerdict &verdict, std::string_view subject,
            std::string_view input, Precision output) {
  verdict.valid = false;
  verdict.pipeline.reset();
  verdict.weight.reset();
  std::string msg = "invalid precision conversion for ";
  msg += subject;
  msg += ": ";
  msg += input;
  msg += " -> ";
  msg += enumName(output);
  msg += " (valid: ";
  msg += joinOutputs(verdict.validOutputs);
  if (!isTableRule(verdict.decidedBy)) {
    msg += "; ";
    msg += enumName(verdict.decidedBy);
  }
  msg += ")";
  verdict.message = std::move(msg);
}

std::vector<Precision> tableOutputs(ConversionTable table, InputKind input) {
  std::vector<Precision> outputs;
  for (Precision p : kAllOutputs) {
    const ConversionCell *c = findCell(table, input, p);
    if (c && c->valid())
      outputs.push_back(p);
  }
  return outputs;
}

/// A verdict straight from a table cell.
ConversionVerdict fromTable(ConversionTable table, InputKind input,
                            Precision output) {
  ConversionVerdict verdict;
  verdict.decidedBy = tableRule(table);
  verdict.validOutputs = tableOutputs(table, input);
  const ConversionCell *c = findCell(table, input, output);
  if (c && c->valid()) {
    verdict.valid = true;
    verdict.pipeline = c->pipeline;
    verdict.weight = c->weight;
    return verdict;
  }
  reject(verdict, enumName(table), enumName(input), output);
  return verdict;
}

std::string convolutionSubject(ConvMode mode) {
  std::string s(enumProse(mode));
  s += " convolution layer";
  return s;
}

ConversionVerdict checkOnTheFlySdp(const ConversionQuery &query) {
  ConversionVerdict verdict;
  std::string subject = "on-the-fly SDP layer after ";
  subject += enumProse(query.convMode);
  subject += " convolution";
  if (!query.convOutput) {
    verdict.decidedBy = ConversionRule::SdpOnTheFlyMissingInput;
    reject(verdict, subject, "unspecified convolution output", query.output);
    return verdict;
  }
  Precision in = *query.convOutput;
  InputKind input = featureInput(in);
  // int8 -> int16 is v1's int8-to-int16 SDP path, which asserts WINOGRAD
  // off (the file comment of NvdlaConversion.h has the evidence).
  const bool widens = in == Precision::Int8;
  if (query.convMode == ConvMode::Winograd) {
    verdict.decidedBy = ConversionRule::SdpOnTheFlyDirectOnly;
    verdict.validOutputs = {in};
  } else {
    // After image input as after a direct convolution: from CACC on an
    // image convolution is a direct one (NvdlaConversion.h).
    verdict.decidedBy = ConversionRule::SdpOnTheFlyBitDepth;
    for (Precision p : tableOutputs(ConversionTable::SdpOffline, input))
      if (getBytesPerElement(p) == getBytesPerElement(in) ||
          (widens && p == Precision::Int16))
        verdict.validOutputs.push_back(p);
  }
  if (!contains(verdict.validOutputs, query.output)) {
    reject(verdict, subject, enumName(input), query.output);
    return verdict;
  }
  const ConversionCell *c =
      findCell(ConversionTable::SdpOffline, input, query.output);
  // Every output kept above is valid in the SDP table.
  verdict.valid = true;
  verdict.pipeline = c ? c->pipeline : std::nullopt;
  return verdict;
}

} // namespace

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

ConversionQuery ConversionQuery::convolution(ConvMode mode, InputKind input,
                                             Precision output) {
  ConversionQuery q;
  q.layer = LayerKind::Convolution;
  q.convMode = mode;
  q.input = input;
  q.output = output;
  return q;
}

ConversionQuery ConversionQuery::sdpOffline(InputKind input, Precision output) {
  ConversionQuery q;
  q.layer = LayerKind::SdpOffline;
  q.input = input;
  q.output = output;
  return q;
}

ConversionQuery ConversionQuery::sdpOnTheFly(ConvMode producerMode,
                                             Precision convOutput,
                                             Precision output) {
  ConversionQuery q;
  q.layer = LayerKind::SdpOnTheFly;
  q.convMode = producerMode;
  q.input = featureInput(convOutput);
  q.output = output;
  q.convOutput = convOutput;
  return q;
}

ConversionQuery ConversionQuery::lrn(InputKind input, Precision output) {
  ConversionQuery q;
  q.layer = LayerKind::Lrn;
  q.input = input;
  q.output = output;
  return q;
}

ConversionQuery ConversionQuery::pooling(InputKind input, Precision output) {
  ConversionQuery q;
  q.layer = LayerKind::Pooling;
  q.input = input;
  q.output = output;
  return q;
}

ConversionVerdict checkConversion(const ConversionQuery &query) {
  switch (query.layer) {
  case LayerKind::Convolution: {
    bool image = isImage(query.input);
    if (query.convMode == ConvMode::ImageInput && !image) {
      ConversionVerdict verdict;
      verdict.decidedBy = ConversionRule::ImageInputModeNeedsImage;
      reject(verdict, convolutionSubject(query.convMode),
             enumName(query.input), query.output);
      return verdict;
    }
    if (query.convMode != ConvMode::ImageInput && image) {
      ConversionVerdict verdict;
      verdict.decidedBy = ConversionRule::ImageNeedsImageInputMode;
      reject(verdict, convolutionSubject(query.convMode),
             enumName(query.input), query.output);
      return verdict;
    }
    return fromTable(ConversionTable::Convolution, query.input, query.output);
  }
  case LayerKind::SdpOnTheFly:
    return checkOnTheFlySdp(query);
  case LayerKind::SdpOffline:
  case LayerKind::Lrn:
  case LayerKind::Pooling: {
    ConversionTable table = baseTable(query.layer);
    if (isImage(query.input)) {
      ConversionVerdict verdict;
      verdict.decidedBy = ConversionRule::ImagesOnlyInConvolution;
      reject(verdict, enumName(table), enumName(query.input),
             query.output);
      return verdict;
    }
    return fromTable(table, query.input, query.output);
  }
  }
  ConversionVerdict verdict; // unreachable for valid enumerators
  verdict.decidedBy = ConversionRule::ConvolutionTable;
  reject(verdict, "unknown layer", enumName(query.input), query.output);
  return verdict;
}

Status verifyConversion(const ConversionQuery &query) {
  ConversionVerdict verdict = checkConversion(query);
  if (verdict.valid)
    return Status::success();
  return makeError(std::move(verdict.message));
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

const std::vector<ConversionCell> &conversionTable(ConversionTable table) {
  switch (table) {
  case ConversionTable::Convolution:
    return convolutionCells();
  case ConversionTable::SdpOffline:
    return sdpOfflineCells();
  case ConversionTable::Lrn:
    return lrnCells();
  case ConversionTable::Pooling:
    return poolingCells();
  }
  return convolutionCells();
}

const ConversionCell *findCell(ConversionTable table, InputKind input,
                               Precision output) {
  for (const ConversionCell &c : conversionTable(table))
    if (c.input == input && c.output == output)
      return &c;
  return nullptr;
}

const std::vector<ConversionTable> &allConversionTables() {
  static const std::vector<ConversionTable> tables = {
      ConversionTable::Convolution, ConversionTable::SdpOffline,
      ConversionTable::Lrn, ConversionTable::Pooling};
  return tables;
}

ConversionTable baseTable(LayerKind layer) {
  switch (layer) {
  case LayerKind::Convolution:
    return ConversionTable::Convolution;
  case LayerKind::SdpOffline:
  case LayerKind::SdpOnTheFly:
    return ConversionTable::SdpOffline;
  case LayerKind::Lrn:
    return ConversionTable::Lrn;
  case LayerKind::Pooling:
    return ConversionTable::Pooling;
  }
  return ConversionTable::Convolution;
}

ConversionRule tableRule(ConversionTable table) {
  switch (table) {
  case ConversionTable::Convolution:
    return ConversionRule::ConvolutionTable;
  case ConversionTable::SdpOffline:
    return ConversionRule::SdpOfflineTable;
  case ConversionTable::Lrn:
    return ConversionRule::LrnTable;
  case ConversionTable::Pooling:
    return ConversionRule::PoolingTable;
  }
  return ConversionRule::ConvolutionTable;
}

bool isTableRule(ConversionRule rule) {
  switch (rule) {
  case ConversionRule::ConvolutionTable:
  case ConversionRule::SdpOfflineTable:
  case ConversionRule::LrnTable:
  case ConversionRule::PoolingTable:
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

std::string_view getHardwareUnit(LayerKind layer) {
  switch (layer) {
  case LayerKind::Convolution:
    return "CONV/CACC";
  case LayerKind::SdpOffline:
  case LayerKind::SdpOnTheFly:
    return "SDP";
  case LayerKind::Lrn:
    return "CDP";
  case LayerKind::Pooling:
    return "PDP";
  }
  return "unknown unit";
}

//===----------------------------------------------------------------------===//
// Input kinds
//===----------------------------------------------------------------------===//

InputKind featureInput(Precision precision) {
  switch (precision) {
  case Precision::Int8:
    return InputKind::FeatureInt8;
  case Precision::Int16:
    return InputKind::FeatureInt16;
  case Precision::Fp16:
    return InputKind::FeatureFp16;
  }
  return InputKind::FeatureFp16;
}

InputKind imageInput(Precision pixelPrecision) {
  return pixelPrecision == Precision::Fp16 ? InputKind::ImageFp16
                                           : InputKind::ImageInteger;
}

bool isImage(InputKind input) {
  return input == InputKind::ImageInteger || input == InputKind::ImageFp16;
}

std::optional<Precision> featurePrecision(InputKind input) {
  switch (input) {
  case InputKind::FeatureInt8:
    return Precision::Int8;
  case InputKind::FeatureInt16:
    return Precision::Int16;
  case InputKind::FeatureFp16:
    return Precision::Fp16;
  case InputKind::ImageInteger:
  case InputKind::ImageFp16:
    return std::nullopt;
  }
  return std::nullopt;
}

PipelinePrecision toPipelinePrecision(Precision precision) {
  switch (precision) {
  case Precision::Int8:
    return PipelinePrecision::Int8;
  case Precision::Int16:
    return PipelinePrecision::Int16;
  case Precision::Fp16:
    return PipelinePrecision::Fp16;
  }
  return PipelinePrecision::Fp16;
}

} // namespace dlaformat::nvdla
