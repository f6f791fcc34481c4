//===- NvdlaConversionTest.cpp - NVDLA precision-conversion legality -----===//
//
// The expected verdicts below are copied by hand from the "Precision
// Conversion" section of /work/shared/spec/nvdla/format.rst (four tables and
// the prose rules) with the README errata 3 and 4 applied. They are not
// generated from the library's tables.
//
//===----------------------------------------------------------------------===//
#include "dla/Format/NvdlaConversion.h"

#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace dlaformat::nvdla;

namespace {

//===----------------------------------------------------------------------===//
// The document's tables, cell by cell.
//===----------------------------------------------------------------------===//

/// One cell as printed: the row label ("Configured input format"), the
/// configured output precision, the "Real precision in pipeline" and (for the
/// convolution table) the "Corresponding weight precision". "Invalid case" is
/// spelled as in the document; "-" means the table has no weight column.
struct DocCell {
  const char *table;
  const char *row;
  const char *output;
  const char *pipeline;
  const char *weight;
  const char *note;
};

constexpr const char *kInvalid = "Invalid case";

void PrintTo(const DocCell &c, std::ostream *os) {
  *os << c.table << ": " << c.row << " -> " << c.output << " = " << c.pipeline
      << " / " << c.weight;
}

// clang-format off
const DocCell kDocCells[] = {
  // Precision conversion for convolutional layer.
  // Erratum 4: "image input (uint8/int16/uint16)" means any integer image.
  {"conv", "image input (uint8/int16/uint16)", "int8",  "int8",  "int8",  "erratum 4"},
  {"conv", "image input (uint8/int16/uint16)", "int16", "int16", "int16", "erratum 4"},
  {"conv", "image input (uint8/int16/uint16)", "fp16",  "fp16",  "fp16",  "erratum 4"},
  {"conv", "image input (fp16)",               "int8",  kInvalid, kInvalid, ""},
  {"conv", "image input (fp16)",               "int16", kInvalid, kInvalid, ""},
  {"conv", "image input (fp16)",               "fp16",  "fp16",  "fp16",  ""},
  {"conv", "int8 feature data",                "int8",  "int8",  "int8",  ""},
  {"conv", "int8 feature data",                "int16", kInvalid, kInvalid, ""},
  {"conv", "int8 feature data",                "fp16",  kInvalid, kInvalid, ""},
  {"conv", "int16 feature data",               "int8",  kInvalid, kInvalid, ""},
  {"conv", "int16 feature data",               "int16", "int16", "int16", ""},
  {"conv", "int16 feature data",               "fp16",  kInvalid, kInvalid, ""},
  {"conv", "fp16 feature data",                "int8",  kInvalid, kInvalid, ""},
  {"conv", "fp16 feature data",                "int16", kInvalid, kInvalid, ""},
  {"conv", "fp16 feature data",                "fp16",  "fp16",  "fp16",  ""},
  // Precision conversion for SDP layer (offline mode).
  {"sdp", "int8 feature data",  "int8",  "int32",  "-", ""},
  {"sdp", "int8 feature data",  "int16", "int32",  "-", ""},
  {"sdp", "int8 feature data",  "fp16",  kInvalid, "-", ""},
  {"sdp", "int16 feature data", "int8",  "int32",  "-", ""},
  {"sdp", "int16 feature data", "int16", "int32",  "-", ""},
  {"sdp", "int16 feature data", "fp16",  "int32",  "-", ""},
  {"sdp", "fp16 feature data",  "int8",  kInvalid, "-", ""},
  {"sdp", "fp16 feature data",  "int16", "fp32",   "-", ""},
  {"sdp", "fp16 feature data",  "fp16",  "fp32",   "-", ""},
  // Precision conversion for LRN layer.
  {"lrn", "int8 feature data",  "int8",  "int8",   "-", ""},
  {"lrn", "int8 feature data",  "int16", kInvalid, "-", ""},
  {"lrn", "int8 feature data",  "fp16",  kInvalid, "-", ""},
  {"lrn", "int16 feature data", "int8",  kInvalid, "-", ""},
  {"lrn", "int16 feature data", "int16", "int16",  "-", ""},
  {"lrn", "int16 feature data", "fp16",  kInvalid, "-", ""},
  {"lrn", "fp16 feature data",  "int8",  kInvalid, "-", ""},
  {"lrn", "fp16 feature data",  "int16", kInvalid, "-", ""},
  {"lrn", "fp16 feature data",  "fp16",  "fp16",   "-", ""},
  // Precision conversion for pooling layer.
  // Erratum 3: the document prints int16 twice; the second is fp16.
  {"pool", "int8 feature data",  "int8",  "int8",   "-", ""},
  {"pool", "int8 feature data",  "int16", kInvalid, "-", ""},
  {"pool", "int8 feature data",  "fp16",  kInvalid, "-", "erratum 3"},
  {"pool", "int16 feature data", "int8",  kInvalid, "-", ""},
  {"pool", "int16 feature data", "int16", "int16",  "-", ""},
  {"pool", "int16 feature data", "fp16",  kInvalid, "-", ""},
  {"pool", "fp16 feature data",  "int8",  kInvalid, "-", ""},
  {"pool", "fp16 feature data",  "int16", kInvalid, "-", ""},
  {"pool", "fp16 feature data",  "fp16",  "fp16",   "-", ""},
};
// clang-format on

//===----------------------------------------------------------------------===//
// Translating the document's words (test-local, independent of the library).
//===----------------------------------------------------------------------===//

Precision precisionOf(const std::string &s) {
  if (s == "int8")
    return Precision::Int8;
  if (s == "int16")
    return Precision::Int16;
  EXPECT_EQ(s, "fp16");
  return Precision::Fp16;
}

PipelinePrecision pipelineOf(const std::string &s) {
  if (s == "int8")
    return PipelinePrecision::Int8;
  if (s == "int16")
    return PipelinePrecision::Int16;
  if (s == "fp16")
    return PipelinePrecision::Fp16;
  if (s == "int32")
    return PipelinePrecision::Int32;
  EXPECT_EQ(s, "fp32");
  return PipelinePrecision::Fp32;
}

InputKind inputOf(const std::string &row) {
  if (row == "image input (uint8/int16/uint16)")
    return InputKind::ImageInteger;
  if (row == "image input (fp16)")
    return InputKind::ImageFp16;
  if (row == "int8 feature data")
    return InputKind::FeatureInt8;
  if (row == "int16 feature data")
    return InputKind::FeatureInt16;
  EXPECT_EQ(row, "fp16 feature data");
  return InputKind::FeatureFp16;
}

ConversionTable tableOf(const std::string &t) {
  if (t == "conv")
    return ConversionTable::Convolution;
  if (t == "sdp")
    return ConversionTable::SdpOffline;
  if (t == "lrn")
    return ConversionTable::Lrn;
  EXPECT_EQ(t, "pool");
  return ConversionTable::Pooling;
}

ConversionRule ruleOf(const std::string &t) {
  if (t == "conv")
    return ConversionRule::ConvolutionTable;
  if (t == "sdp")
    return ConversionRule::SdpOfflineTable;
  if (t == "lrn")
    return ConversionRule::LrnTable;
  return ConversionRule::PoolingTable;
}

/// The query that asks the document's cell: convolution rows of images in
/// image input mode, feature rows in `featureMode`.
ConversionQuery queryOf(const DocCell &c, ConvMode featureMode) {
  InputKind in = inputOf(c.row);
  Precision out = precisionOf(c.output);
  std::string t = c.table;
  if (t == "conv")
    return ConversionQuery::convolution(
        isImage(in) ? ConvMode::ImageInput : featureMode, in, out);
  if (t == "sdp")
    return ConversionQuery::sdpOffline(in, out);
  if (t == "lrn")
    return ConversionQuery::lrn(in, out);
  return ConversionQuery::pooling(in, out);
}

std::string cellName(const testing::TestParamInfo<DocCell> &info) {
  std::string name = std::string(info.param.table) + "_" + info.param.row +
                     "_to_" + info.param.output;
  for (char &ch : name)
    if (!isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return name;
}

//===----------------------------------------------------------------------===//
// Every cell of every table.
//===----------------------------------------------------------------------===//

class DocumentCell : public testing::TestWithParam<DocCell> {};

TEST_P(DocumentCell, CheckConversionAgreesWithDocument) {
  const DocCell &c = GetParam();
  bool expectValid = std::string(c.pipeline) != kInvalid;
  std::vector<ConvMode> modes = {ConvMode::Direct};
  if (std::string(c.table) == "conv" && !isImage(inputOf(c.row)))
    modes.push_back(ConvMode::Winograd); // the table does not tell DC from Winograd
  for (ConvMode mode : modes) {
    SCOPED_TRACE(std::string(enumProse(mode)));
    ConversionVerdict v = checkConversion(queryOf(c, mode));
    EXPECT_EQ(v.valid, expectValid);
    EXPECT_EQ(static_cast<bool>(v), expectValid);
    EXPECT_EQ(v.decidedBy, ruleOf(c.table));
    if (expectValid) {
      ASSERT_TRUE(v.pipeline.has_value());
      EXPECT_EQ(*v.pipeline, pipelineOf(c.pipeline));
      EXPECT_TRUE(v.message.empty());
      if (std::string(c.weight) == "-") {
        EXPECT_FALSE(v.weight.has_value());
      } else {
        ASSERT_TRUE(v.weight.has_value());
        EXPECT_EQ(*v.weight, precisionOf(c.weight));
      }
    } else {
      EXPECT_FALSE(v.pipeline.has_value());
      EXPECT_FALSE(v.weight.has_value());
      std::string prefix = "invalid precision conversion for " +
                           std::string(enumName(tableOf(c.table))) +
                           ": ";
      EXPECT_EQ(v.message.rfind(prefix, 0), 0u) << v.message;
      EXPECT_FALSE(verifyConversion(queryOf(c, mode)).ok());
    }
  }
}

TEST_P(DocumentCell, ListedCellAgreesWithDocument) {
  const DocCell &c = GetParam();
  const ConversionCell *cell =
      findCell(tableOf(c.table), inputOf(c.row), precisionOf(c.output));
  ASSERT_NE(cell, nullptr);
  EXPECT_EQ(cell->documentRow, c.row);
  bool expectValid = std::string(c.pipeline) != kInvalid;
  EXPECT_EQ(cell->valid(), expectValid);
  if (expectValid) {
    EXPECT_EQ(*cell->pipeline, pipelineOf(c.pipeline));
  }
  if (expectValid && std::string(c.weight) != "-") {
    ASSERT_TRUE(cell->weight.has_value());
    EXPECT_EQ(*cell->weight, precisionOf(c.weight));
  } else {
    EXPECT_FALSE(cell->weight.has_value());
  }
  // Cells changed by an erratum say so; no others do.
  EXPECT_EQ(cell->erratum.empty(), std::string(c.note).empty());
  if (!std::string(c.note).empty()) {
    EXPECT_NE(cell->erratum.find(c.note), std::string_view::npos)
        << cell->erratum;
  }
}

INSTANTIATE_TEST_SUITE_P(FormatRst, DocumentCell, testing::ValuesIn(kDocCells),
                         cellName);

TEST(NvdlaConversionTables, ListingIsExactlyTheDocumentInOrder) {
  for (ConversionTable t : allConversionTables()) {
    std::vector<const DocCell *> doc;
    for (const DocCell &c : kDocCells)
      if (tableOf(c.table) == t)
        doc.push_back(&c);
    const std::vector<ConversionCell> &cells = conversionTable(t);
    ASSERT_EQ(cells.size(), doc.size()) << enumName(t);
    for (size_t i = 0; i < cells.size(); ++i) {
      EXPECT_EQ(cells[i].input, inputOf(doc[i]->row));
      EXPECT_EQ(cells[i].output, precisionOf(doc[i]->output));
    }
  }
  EXPECT_EQ(conversionTable(ConversionTable::Convolution).size(), 15u);
  EXPECT_EQ(conversionTable(ConversionTable::SdpOffline).size(), 9u);
  EXPECT_EQ(conversionTable(ConversionTable::Lrn).size(), 9u);
  EXPECT_EQ(conversionTable(ConversionTable::Pooling).size(), 9u);
  EXPECT_EQ(allConversionTables().size(), 4u);
}

TEST(NvdlaConversionTables, EachInputOutputPairAppearsOnce) {
  for (ConversionTable t : allConversionTables()) {
    std::set<std::pair<int, int>> seen;
    for (const ConversionCell &c : conversionTable(t))
      EXPECT_TRUE(seen.insert({static_cast<int>(c.input),
                               static_cast<int>(c.output)})
                      .second)
          << enumName(t);
  }
}

TEST(NvdlaConversionTables, NoImageRowsOutsideConvolution) {
  for (ConversionTable t : {ConversionTable::SdpOffline, ConversionTable::Lrn,
                            ConversionTable::Pooling})
    for (Precision out : {Precision::Int8, Precision::Int16, Precision::Fp16}) {
      EXPECT_EQ(findCell(t, InputKind::ImageInteger, out), nullptr);
      EXPECT_EQ(findCell(t, InputKind::ImageFp16, out), nullptr);
    }
}

TEST(NvdlaConversionTables, ValidOutputsPerRow) {
  using V = std::vector<Precision>;
  const V i8 = {Precision::Int8}, i16 = {Precision::Int16},
          f16 = {Precision::Fp16},
          all = {Precision::Int8, Precision::Int16, Precision::Fp16};
  auto conv = [](ConvMode m, InputKind in) {
    return checkConversion(ConversionQuery::convolution(m, in, Precision::Int8))
        .validOutputs;
  };
  EXPECT_EQ(conv(ConvMode::ImageInput, InputKind::ImageInteger), all);
  EXPECT_EQ(conv(ConvMode::ImageInput, InputKind::ImageFp16), f16);
  EXPECT_EQ(conv(ConvMode::Direct, InputKind::FeatureInt8), i8);
  EXPECT_EQ(conv(ConvMode::Direct, InputKind::FeatureInt16), i16);
  EXPECT_EQ(conv(ConvMode::Direct, InputKind::FeatureFp16), f16);
  EXPECT_EQ(conv(ConvMode::Winograd, InputKind::FeatureInt16), i16);

  auto sdp = [](InputKind in) {
    return checkConversion(ConversionQuery::sdpOffline(in, Precision::Int8))
        .validOutputs;
  };
  EXPECT_EQ(sdp(InputKind::FeatureInt8), (V{Precision::Int8, Precision::Int16}));
  EXPECT_EQ(sdp(InputKind::FeatureInt16), all);
  EXPECT_EQ(sdp(InputKind::FeatureFp16), (V{Precision::Int16, Precision::Fp16}));

  for (InputKind in : {InputKind::FeatureInt8, InputKind::FeatureInt16,
                       InputKind::FeatureFp16}) {
    V same = {*featurePrecision(in)};
    EXPECT_EQ(checkConversion(ConversionQuery::lrn(in, Precision::Int8))
                  .validOutputs,
              same);
    EXPECT_EQ(checkConversion(ConversionQuery::pooling(in, Precision::Int8))
                  .validOutputs,
              same);
  }
}

//===----------------------------------------------------------------------===//
// Errata.
//===----------------------------------------------------------------------===//

// Erratum 3: pooling, int8 feature data rows: int16 appears twice; the second
// row is fp16 (invalid).
TEST(NvdlaConversionErrata, Erratum3PoolingInt8ToFp16IsTheInvalidRow) {
  ConversionVerdict v = checkConversion(
      ConversionQuery::pooling(InputKind::FeatureInt8, Precision::Fp16));
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.decidedBy, ConversionRule::PoolingTable);
  EXPECT_EQ(v.message, "invalid precision conversion for pooling layer: int8 "
                       "feature data -> fp16 (valid: int8)");
  // The int8 rows cover all three outputs, each once.
  int int8Rows = 0;
  std::set<Precision> outs;
  for (const ConversionCell &c : conversionTable(ConversionTable::Pooling))
    if (c.input == InputKind::FeatureInt8) {
      ++int8Rows;
      outs.insert(c.output);
    }
  EXPECT_EQ(int8Rows, 3);
  EXPECT_EQ(outs.size(), 3u);
  EXPECT_FALSE(
      findCell(ConversionTable::Pooling, InputKind::FeatureInt8, Precision::Fp16)
          ->erratum.empty());
}

// Erratum 4: any integer pixel precision converts to all three outputs with
// pipeline and weight precision equal to the output; fp16 images only to fp16.
TEST(NvdlaConversionErrata, Erratum4IntegerImagesConvertToAllThree) {
  // Pixel-format "valid input precision" int8 (e.g. T_R8, T_A8B8G8R8) and
  // int16 (e.g. T_R10, T_A2B10G10R10, T_R16) are both integer images; the
  // document's row label (uint8/int16/uint16) omits int8 pixels.
  for (Precision pixel : {Precision::Int8, Precision::Int16}) {
    EXPECT_EQ(imageInput(pixel), InputKind::ImageInteger);
    for (Precision out : {Precision::Int8, Precision::Int16, Precision::Fp16}) {
      ConversionVerdict v = checkConversion(ConversionQuery::convolution(
          ConvMode::ImageInput, imageInput(pixel), out));
      EXPECT_TRUE(v.valid);
      EXPECT_EQ(v.decidedBy, ConversionRule::ConvolutionTable);
      EXPECT_EQ(*v.pipeline, toPipelinePrecision(out));
      EXPECT_EQ(*v.weight, out);
    }
  }
}

TEST(NvdlaConversionErrata, Erratum4Fp16ImagesOnlyToFp16) {
  EXPECT_EQ(imageInput(Precision::Fp16), InputKind::ImageFp16);
  ConversionVerdict ok = checkConversion(ConversionQuery::convolution(
      ConvMode::ImageInput, InputKind::ImageFp16, Precision::Fp16));
  EXPECT_TRUE(ok.valid);
  EXPECT_EQ(*ok.pipeline, PipelinePrecision::Fp16);
  EXPECT_EQ(*ok.weight, Precision::Fp16);
  for (Precision out : {Precision::Int8, Precision::Int16}) {
    ConversionVerdict v = checkConversion(ConversionQuery::convolution(
        ConvMode::ImageInput, InputKind::ImageFp16, out));
    EXPECT_FALSE(v.valid);
    EXPECT_EQ(v.validOutputs, std::vector<Precision>{Precision::Fp16});
  }
}

// Erratum 5 is decided by the pixel-format table (T_R16_F's input precision);
// this API classifies an image by the precision it is handed. Whatever that
// table says, fp16 means "only to fp16" and int16 "to all three".
TEST(NvdlaConversionErrata, Erratum5ImageKindFollowsPixelPrecision) {
  EXPECT_EQ(checkConversion(ConversionQuery::convolution(
                                ConvMode::ImageInput,
                                imageInput(Precision::Fp16), Precision::Int16))
                .message,
            "invalid precision conversion for convolution layer: fp16 image "
            "input -> int16 (valid: fp16)");
  EXPECT_TRUE(checkConversion(ConversionQuery::convolution(
                                  ConvMode::ImageInput,
                                  imageInput(Precision::Int16),
                                  Precision::Fp16))
                  .valid);
}

//===----------------------------------------------------------------------===//
// Prose rules.
//===----------------------------------------------------------------------===//

// "NVDLA convolution pipeline supports precision conversion for image input
// mode only." / "Direct convolution (DC) mode and Winograd convolution mode do
// not support precision conversion"
TEST(NvdlaConversionProse, DirectAndWinogradConvertNothing) {
  for (ConvMode mode : {ConvMode::Direct, ConvMode::Winograd})
    for (Precision in : {Precision::Int8, Precision::Int16, Precision::Fp16})
      for (Precision out :
           {Precision::Int8, Precision::Int16, Precision::Fp16}) {
        ConversionVerdict v = checkConversion(
            ConversionQuery::convolution(mode, featureInput(in), out));
        EXPECT_EQ(v.valid, in == out);
        if (v.valid) {
          EXPECT_EQ(*v.pipeline, toPipelinePrecision(in));
          EXPECT_EQ(*v.weight, in);
        }
      }
}

// "For image input mode ..., pipeline allows conversion from integer to all 3
// types. Floating point images can only be converted to fp16."
TEST(NvdlaConversionProse, ImageInputModeConverts) {
  int validCount = 0;
  for (InputKind in : {InputKind::ImageInteger, InputKind::ImageFp16})
    for (Precision out : {Precision::Int8, Precision::Int16, Precision::Fp16})
      validCount += checkConversion(ConversionQuery::convolution(
                                        ConvMode::ImageInput, in, out))
                        .valid;
  EXPECT_EQ(validCount, 4);
}

TEST(NvdlaConversionProse, ImageInputModeNeedsAnImage) {
  ConversionVerdict v = checkConversion(ConversionQuery::convolution(
      ConvMode::ImageInput, InputKind::FeatureInt8, Precision::Int8));
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.decidedBy, ConversionRule::ImageInputModeNeedsImage);
  EXPECT_TRUE(v.validOutputs.empty());
  EXPECT_EQ(v.message,
            "invalid precision conversion for image input convolution layer: "
            "int8 feature data -> int8 (valid: none; image input mode reads "
            "images only)");
}

TEST(NvdlaConversionProse, ImagesNeedImageInputMode) {
  for (ConvMode mode : {ConvMode::Direct, ConvMode::Winograd})
    for (InputKind in : {InputKind::ImageInteger, InputKind::ImageFp16}) {
      ConversionVerdict v = checkConversion(
          ConversionQuery::convolution(mode, in, Precision::Fp16));
      EXPECT_FALSE(v.valid);
      EXPECT_EQ(v.decidedBy, ConversionRule::ImageNeedsImageInputMode);
    }
  EXPECT_EQ(checkConversion(ConversionQuery::convolution(
                                ConvMode::Winograd, InputKind::ImageInteger,
                                Precision::Int8))
                .message,
            "invalid precision conversion for Winograd convolution layer: "
            "integer image input -> int8 (valid: none; direct and Winograd "
            "convolution read feature data only)");
}

TEST(NvdlaConversionProse, OnlyTheConvolutionPipelineReadsImages) {
  for (InputKind in : {InputKind::ImageInteger, InputKind::ImageFp16}) {
    for (ConversionQuery q : {ConversionQuery::sdpOffline(in, Precision::Fp16),
                              ConversionQuery::lrn(in, Precision::Fp16),
                              ConversionQuery::pooling(in, Precision::Fp16)}) {
      ConversionVerdict v = checkConversion(q);
      EXPECT_FALSE(v.valid);
      EXPECT_EQ(v.decidedBy, ConversionRule::ImagesOnlyInConvolution);
      EXPECT_TRUE(v.validOutputs.empty());
    }
  }
  EXPECT_EQ(checkConversion(ConversionQuery::lrn(InputKind::ImageFp16,
                                                 Precision::Fp16))
                .message,
            "invalid precision conversion for LRN layer: fp16 image input -> "
            "fp16 (valid: none; only the convolution pipeline reads images)");
}

// "Batch-normalization and element-wise layer (implemented in SDP) support
// free conversion of int16 <-> fp16 and int8 <-> int16": the offline table
// allows exactly these conversions plus the identity.
TEST(NvdlaConversionProse, SdpOfflineConvertsInt16Fp16AndInt8Int16) {
  auto ok = [](Precision in, Precision out) {
    return checkConversion(ConversionQuery::sdpOffline(featureInput(in), out))
        .valid;
  };
  EXPECT_TRUE(ok(Precision::Int16, Precision::Fp16));
  EXPECT_TRUE(ok(Precision::Fp16, Precision::Int16));
  EXPECT_TRUE(ok(Precision::Int8, Precision::Int16));
  EXPECT_TRUE(ok(Precision::Int16, Precision::Int8));
  EXPECT_FALSE(ok(Precision::Int8, Precision::Fp16));
  EXPECT_FALSE(ok(Precision::Fp16, Precision::Int8));
  for (Precision p : {Precision::Int8, Precision::Int16, Precision::Fp16})
    EXPECT_TRUE(ok(p, p));
}

// On-the-fly SDP: "SDP takes precision of convolution pipeline output as input
// precision then do another precision conversion, but the input precision and
// output precision should have the same bit-depth", and SDP converts "for DC
// mode only"; except int8 -> int16 after direct and image input convolution,
// which NVIDIA's v1 C model and firmware do (NvdlaConversion.h, issue 47).
// Rows: convolution output; columns: SDP output int8/int16/fp16.
struct OnTheFlyRow {
  ConvMode producer;
  Precision convOutput;
  bool toInt8, toInt16, toFp16;
};

// clang-format off
const OnTheFlyRow kOnTheFly[] = {
  {ConvMode::Direct,     Precision::Int8,  true,  true,  false},
  {ConvMode::Direct,     Precision::Int16, false, true,  true },
  {ConvMode::Direct,     Precision::Fp16,  false, true,  true },
  {ConvMode::Winograd,   Precision::Int8,  true,  false, false},
  {ConvMode::Winograd,   Precision::Int16, false, true,  false},
  {ConvMode::Winograd,   Precision::Fp16,  false, false, true },
  {ConvMode::ImageInput, Precision::Int8,  true,  true,  false},
  {ConvMode::ImageInput, Precision::Int16, false, true,  true },
  {ConvMode::ImageInput, Precision::Fp16,  false, true,  true },
};
// clang-format on

TEST(NvdlaConversionProse, OnTheFlySdpMatrix) {
  for (const OnTheFlyRow &r : kOnTheFly) {
    const std::pair<Precision, bool> cols[] = {{Precision::Int8, r.toInt8},
                                               {Precision::Int16, r.toInt16},
                                               {Precision::Fp16, r.toFp16}};
    std::vector<Precision> expectedOutputs;
    for (auto [out, ok] : cols)
      if (ok)
        expectedOutputs.push_back(out);
    for (auto [out, ok] : cols) {
      SCOPED_TRACE(std::string(enumProse(r.producer)) + " " +
                   std::string(enumName(r.convOutput)) + " -> " +
                   std::string(enumName(out)));
      ConversionVerdict v = checkConversion(
          ConversionQuery::sdpOnTheFly(r.producer, r.convOutput, out));
      EXPECT_EQ(v.valid, ok);
      EXPECT_EQ(v.validOutputs, expectedOutputs);
      // After image input as after a direct convolution (CACC on, an image
      // convolution is a direct one).
      EXPECT_EQ(v.decidedBy, r.producer == ConvMode::Winograd
                                 ? ConversionRule::SdpOnTheFlyDirectOnly
                                 : ConversionRule::SdpOnTheFlyBitDepth);
      EXPECT_FALSE(v.weight.has_value());
      if (ok) {
        // The SDP pipeline runs int32 for integer input, fp32 for fp16 input
        // (SDP table "Real precision in pipeline").
        EXPECT_EQ(*v.pipeline, r.convOutput == Precision::Fp16
                                   ? PipelinePrecision::Fp32
                                   : PipelinePrecision::Int32);
      }
    }
  }
}

TEST(NvdlaConversionProse, OnTheFlySdpWidensInt8ToInt16NotBack) {
  // v1's int8-to-int16 SDP path (NV_NVDLA_sdp.cpp is_int8_to_int16), on the
  // fly after a direct or image input convolution, in an int32 pipeline.
  for (ConvMode mode : {ConvMode::Direct, ConvMode::ImageInput}) {
    ConversionVerdict v = checkConversion(
        ConversionQuery::sdpOnTheFly(mode, Precision::Int8, Precision::Int16));
    EXPECT_TRUE(v.valid);
    EXPECT_EQ(*v.pipeline, PipelinePrecision::Int32);
  }
  // The refusals around it: int16 -> int8 has no path on the fly, v1
  // asserts WINOGRAD off on the path, an image's int8 keeps its bit depth
  // or widens to int16 (as after a direct convolution).
  struct Refusal {
    ConvMode mode;
    Precision in, out;
    const char *message;
  };
  const Refusal refusals[] = {
      {ConvMode::Direct, Precision::Int16, Precision::Int8,
       "invalid precision conversion for on-the-fly SDP layer after direct convolution: int16 "
       "feature data -> int8 (valid: int16, fp16; on-the-fly SDP keeps the bit depth or widens "
       "int8 to int16)"},
      {ConvMode::Winograd, Precision::Int8, Precision::Int16,
       "invalid precision conversion for on-the-fly SDP layer after Winograd convolution: int8 "
       "feature data -> int16 (valid: int8; SDP converts precision after direct convolution "
       "only)"},
      {ConvMode::ImageInput, Precision::Int8, Precision::Fp16,
       "invalid precision conversion for on-the-fly SDP layer after image input convolution: "
       "int8 feature data -> fp16 (valid: int8, int16; on-the-fly SDP keeps the bit depth or "
       "widens int8 to int16)"}};
  for (const Refusal &r : refusals) {
    ConversionVerdict v = checkConversion(ConversionQuery::sdpOnTheFly(r.mode, r.in, r.out));
    EXPECT_FALSE(v.valid);
    EXPECT_EQ(v.message, r.message);
  }
}

TEST(NvdlaConversionProse, OnTheFlySdpAfterWinogradConvertsNothing) {
  ConversionVerdict v = checkConversion(ConversionQuery::sdpOnTheFly(
      ConvMode::Winograd, Precision::Int16, Precision::Fp16));
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.decidedBy, ConversionRule::SdpOnTheFlyDirectOnly);
  EXPECT_EQ(v.message,
            "invalid precision conversion for on-the-fly SDP layer after "
            "Winograd convolution: int16 feature data -> fp16 (valid: int16; "
            "SDP converts precision after direct convolution only)");
  // After direct convolution the same conversion is legal.
  ConversionVerdict dc = checkConversion(ConversionQuery::sdpOnTheFly(
      ConvMode::Direct, Precision::Int16, Precision::Fp16));
  EXPECT_TRUE(dc.valid);
  EXPECT_EQ(*dc.pipeline, PipelinePrecision::Int32);
}

TEST(NvdlaConversionProse, OnTheFlySdpIgnoresInputAndNeedsConvOutput) {
  ConversionQuery q;
  q.layer = LayerKind::SdpOnTheFly;
  q.convMode = ConvMode::Direct;
  q.input = InputKind::FeatureInt8; // not consulted
  q.convOutput = Precision::Fp16;
  q.output = Precision::Int16;
  EXPECT_TRUE(checkConversion(q).valid);

  q.convOutput.reset();
  ConversionVerdict v = checkConversion(q);
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.decidedBy, ConversionRule::SdpOnTheFlyMissingInput);
  EXPECT_EQ(v.message,
            "invalid precision conversion for on-the-fly SDP layer after "
            "direct convolution: unspecified convolution output -> int16 "
            "(valid: none; on-the-fly SDP needs the convolution's output "
            "precision)");
}

// "LRN layer (implemented in CDP) does not support any precision conversion"
// "Pooling layer (implemented in PDP) does not support any precision
// conversion."
TEST(NvdlaConversionProse, LrnAndPoolingConvertNothing) {
  for (Precision in : {Precision::Int8, Precision::Int16, Precision::Fp16})
    for (Precision out : {Precision::Int8, Precision::Int16, Precision::Fp16}) {
      ConversionVerdict l =
          checkConversion(ConversionQuery::lrn(featureInput(in), out));
      ConversionVerdict p =
          checkConversion(ConversionQuery::pooling(featureInput(in), out));
      EXPECT_EQ(l.valid, in == out);
      EXPECT_EQ(p.valid, in == out);
      if (in == out) {
        EXPECT_EQ(*l.pipeline, toPipelinePrecision(in));
        EXPECT_EQ(*p.pipeline, toPipelinePrecision(in));
      }
    }
}

//===----------------------------------------------------------------------===//
// Messages, Status, names.
//===----------------------------------------------------------------------===//

TEST(NvdlaConversionMessages, TableMessagesExactShape) {
  EXPECT_EQ(checkConversion(ConversionQuery::lrn(InputKind::FeatureInt8,
                                                 Precision::Fp16))
                .message,
            "invalid precision conversion for LRN layer: int8 feature data -> "
            "fp16 (valid: int8)");
  EXPECT_EQ(checkConversion(ConversionQuery::sdpOffline(InputKind::FeatureFp16,
                                                        Precision::Int8))
                .message,
            "invalid precision conversion for SDP layer (offline mode): fp16 "
            "feature data -> int8 (valid: int16, fp16)");
  EXPECT_EQ(checkConversion(ConversionQuery::sdpOffline(InputKind::FeatureInt8,
                                                        Precision::Fp16))
                .message,
            "invalid precision conversion for SDP layer (offline mode): int8 "
            "feature data -> fp16 (valid: int8, int16)");
  EXPECT_EQ(checkConversion(ConversionQuery::convolution(
                                ConvMode::Direct, InputKind::FeatureInt16,
                                Precision::Int8))
                .message,
            "invalid precision conversion for convolution layer: int16 "
            "feature data -> int8 (valid: int16)");
  EXPECT_EQ(checkConversion(ConversionQuery::pooling(InputKind::FeatureFp16,
                                                     Precision::Int16))
                .message,
            "invalid precision conversion for pooling layer: fp16 feature "
            "data -> int16 (valid: fp16)");
}

TEST(NvdlaConversionMessages, ValidVerdictHasNoMessage) {
  ConversionVerdict v = checkConversion(ConversionQuery::sdpOffline(
      InputKind::FeatureInt16, Precision::Fp16));
  EXPECT_TRUE(v.valid);
  EXPECT_TRUE(v.message.empty());
  EXPECT_EQ(v.decidedBy, ConversionRule::SdpOfflineTable);
  EXPECT_EQ(*v.pipeline, PipelinePrecision::Int32);
}

TEST(NvdlaConversionMessages, VerifyConversionCarriesTheMessage) {
  dlaformat::Status ok = verifyConversion(ConversionQuery::convolution(
      ConvMode::ImageInput, InputKind::ImageInteger, Precision::Int16));
  EXPECT_TRUE(ok.ok());
  dlaformat::Status bad = verifyConversion(
      ConversionQuery::lrn(InputKind::FeatureInt8, Precision::Fp16));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "invalid precision conversion for LRN layer: int8 "
                           "feature data -> fp16 (valid: int8)");
}

TEST(NvdlaConversionNames, UnitsTablesAndRules) {
  EXPECT_EQ(getHardwareUnit(LayerKind::Convolution), "CONV/CACC");
  EXPECT_EQ(getHardwareUnit(LayerKind::SdpOffline), "SDP");
  EXPECT_EQ(getHardwareUnit(LayerKind::SdpOnTheFly), "SDP");
  EXPECT_EQ(getHardwareUnit(LayerKind::Lrn), "CDP");
  EXPECT_EQ(getHardwareUnit(LayerKind::Pooling), "PDP");
  EXPECT_EQ(enumName(ConversionTable::Convolution),
            "convolution layer");
  EXPECT_EQ(enumName(ConversionTable::SdpOffline),
            "SDP layer (offline mode)");
  EXPECT_EQ(enumName(ConversionTable::Lrn), "LRN layer");
  EXPECT_EQ(enumName(ConversionTable::Pooling), "pooling layer");
  EXPECT_EQ(baseTable(LayerKind::SdpOnTheFly), ConversionTable::SdpOffline);
  for (ConversionTable t : allConversionTables()) {
    EXPECT_TRUE(isTableRule(tableRule(t)));
    EXPECT_EQ(enumName(tableRule(t)), enumName(t));
  }
  EXPECT_FALSE(isTableRule(ConversionRule::SdpOnTheFlyBitDepth));
  EXPECT_EQ(enumName(PipelinePrecision::Int32), "int32");
  EXPECT_EQ(enumName(PipelinePrecision::Fp32), "fp32");
  EXPECT_EQ(enumName(InputKind::ImageInteger), "integer image input");
  EXPECT_EQ(featurePrecision(InputKind::ImageFp16), std::nullopt);
  EXPECT_EQ(featurePrecision(InputKind::FeatureInt16), Precision::Int16);
}

} // namespace
