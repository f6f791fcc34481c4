//===- NvdlaRegisters.h - Widths of NVDLA's programmable fields -*- C++ -*-===//
//
// The range of every register field the IR states (docs/IntegerAttributes.md
// section 7), from the register manual (nvdla/hw spec/manual/*.rdl): the
// verifiers ask this table, so a width is written once.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAREGISTERS_H
#define DLA_FORMAT_NVDLAREGISTERS_H

#include <array>
#include <cstdint>
#include <string_view>

namespace dlaformat::nvdla {

/// A register field: its name in the manual and the values it holds.
struct RegisterField {
  std::string_view name;
  int64_t lo, hi;
  /// How the manual states the width ("INT16", "U6"), for messages.
  std::string_view why;
  /// An enum of every `step`-th value from lo (NORMALZ_LEN: 3, 5, 7, 9).
  int64_t step = 1;

  constexpr bool holds(int64_t value) const {
    return value >= lo && value <= hi && (value - lo) % step == 0;
  }
};

/// The SDP's output converter (NVDLA_SDP.rdl D_CVT_OFFSET / D_CVT_SCALE /
/// D_CVT_SHIFT; integer pipelines only).
inline constexpr RegisterField kSdpCvtOffset{"CVT_OFFSET", -(int64_t(1) << 31),
                                             (int64_t(1) << 31) - 1, "32-bit signed"};
inline constexpr RegisterField kSdpCvtScale{"CVT_SCALE", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kSdpCvtShift{"CVT_SHIFT", 0, 63, "6-bit unsigned"};

/// The SDP's X stages (BS, BN; NVDLA_SDP.rdl D_DP_BS_* / D_DP_BN_*): the
/// name without the stage prefix, which a message puts in front.
inline constexpr RegisterField kSdpXAluOperand{"ALU_OPERAND", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kSdpXAluShift{"ALU_SHIFT_VALUE", 0, 63, "6-bit unsigned"};
inline constexpr RegisterField kSdpXMulOperand{"MUL_OPERAND", -32768, 32767, "16-bit signed"};
/// An 8-bit field of which the C model (sdp_x.cpp X_trt) uses 6 bits.
inline constexpr RegisterField kSdpXMulShift{"MUL_SHIFT_VALUE", 0, 63,
                                             "8-bit field of which the C model uses 6 bits"};
/// The Y stage (EW; D_DP_EW_*): 32-bit register operands, the operand
/// converters of memory operands (EW_*_CVT_OFFSET / _SCALE / _TRUNCATE) and
/// the product's truncation.
inline constexpr RegisterField kSdpYAluOperand{"ALU_OPERAND", -(int64_t(1) << 31),
                                               (int64_t(1) << 31) - 1, "32-bit signed"};
inline constexpr RegisterField kSdpYMulOperand{"MUL_OPERAND", -(int64_t(1) << 31),
                                               (int64_t(1) << 31) - 1, "32-bit signed"};
inline constexpr RegisterField kSdpYCvtOffset{"CVT_OFFSET", -(int64_t(1) << 31),
                                              (int64_t(1) << 31) - 1, "32-bit signed"};
inline constexpr RegisterField kSdpYCvtScale{"CVT_SCALE", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kSdpYCvtTruncate{"CVT_TRUNCATE", 0, 63, "6-bit unsigned"};
inline constexpr RegisterField kSdpYTruncate{"TRUNCATE", 0, 1023, "10-bit unsigned"};

/// The accumulator's delivery shift (NVDLA_CACC.rdl D_CLIP_CFG: a 5-bit
/// field, "Range: 0~16").
inline constexpr RegisterField kCaccClipTruncate{"CLIP_TRUNCATE", 0, 16,
                                                 "unsigned, range 0~16"};

// --- CDMA: the input converter (NVDLA_CDMA.rdl D_CVT_CFG, D_CVT_OFFSET,
// D_CVT_SCALE, D_MEAN_GLOBAL_0 / _1; docs/IntegerAttributes.md section 7).
inline constexpr RegisterField kCdmaCvtOffset{"CVT_OFFSET", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kCdmaCvtScale{"CVT_SCALE", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kCdmaCvtTruncate{"CVT_TRUNCATE", 0, 63, "6-bit unsigned"};
/// PAD_VALUE (NVDLA_CDMA.rdl / NVDLA_CSC.rdl D_ZERO_PADDING_VALUE [15:0]):
/// what a padded position feeds the MAC, after the converter. An int8
/// pipeline reads the low 8 bits (cmod/csc pad_value.range(7,0)), so its
/// value must be an int8 to mean what it says.
inline constexpr RegisterField kCdmaPadValue{"PAD_VALUE", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kCdmaPadValueInt8{"PAD_VALUE", -128, 127,
                                                 "an int8 pipeline reads its low 8 bits"};
/// MEAN_RY, MEAN_GU, MEAN_BV, MEAN_AX: pixel components 0..3.
inline constexpr RegisterField kCdmaMean[4] = {
    {"MEAN_RY", -32768, 32767, "16-bit signed"},
    {"MEAN_GU", -32768, 32767, "16-bit signed"},
    {"MEAN_BV", -32768, 32767, "16-bit signed"},
    {"MEAN_AX", -32768, 32767, "16-bit signed"}};

// --- PDP: integer average pooling (NVDLA_PDP.rdl D_RECIP_KERNEL_WIDTH /
// _HEIGHT [16:0], D_POOLING_PADDING_VALUE_<n>_CFG PAD_VALUE_<n>X [18:0]).
inline constexpr RegisterField kPdpRecipKernelWidth{"RECIP_KERNEL_WIDTH", 0, 131071,
                                                    "17-bit unsigned"};
inline constexpr RegisterField kPdpRecipKernelHeight{"RECIP_KERNEL_HEIGHT", 0, 131071,
                                                     "17-bit unsigned"};
/// PAD_VALUE_1X .. PAD_VALUE_7X: the padding sum of 1..7 padded positions.
inline constexpr RegisterField kPdpPadValue[7] = {
    {"PAD_VALUE_1X", -262144, 262143, "19-bit field, read signed"},
    {"PAD_VALUE_2X", -262144, 262143, "19-bit field, read signed"},
    {"PAD_VALUE_3X", -262144, 262143, "19-bit field, read signed"},
    {"PAD_VALUE_4X", -262144, 262143, "19-bit field, read signed"},
    {"PAD_VALUE_5X", -262144, 262143, "19-bit field, read signed"},
    {"PAD_VALUE_6X", -262144, 262143, "19-bit field, read signed"},
    {"PAD_VALUE_7X", -262144, 262143, "19-bit field, read signed"}};

/// PAD_VALUE_1X .. 7X that make each padded position count as `pad`
/// (n * pad, as utils/dla-ref/int_pdp.pdp_pad_values): the front end's
/// helper for `pad_values` (docs/IntegerAttributes.md decision 10).
constexpr std::array<int64_t, 7> pdpPadValues(int64_t pad) {
  std::array<int64_t, 7> values{};
  for (int n = 1; n <= 7; ++n)
    values[n - 1] = n * pad;
  return values;
}

/// RECIP_KERNEL_WIDTH / _HEIGHT (16-bit fractions, 17-bit fields).
struct PdpReciprocals {
  int64_t width = 0, height = 0;
};
/// NVIDIA's firmware table (dla_pdp.c recip_kernel_size): floor(2^16 / k)
/// per dimension, so the average rounds twice (after the width, after the
/// height) and both reciprocals round down.
constexpr PdpReciprocals pdpFirmwareReciprocals(int64_t kh, int64_t kw) {
  return {(int64_t(1) << 16) / kw, (int64_t(1) << 16) / kh};
}
/// One rounding instead: the width stage multiplies by 1 (2^16, exact),
/// the height stage by the whole window's 2^16 / (kh kw), rounded to
/// nearest. The C model's stage-1 intermediate is an int32, so the unscaled
/// sum passes the first stage whole. What --dla-convert-tosa writes for an
/// integer average: it agrees with an exact quotient rounded once except
/// where 2^16 / (kh kw) is inexact and the sum sits within
/// |S| 2^-17 / (kh kw) of a tie.
constexpr PdpReciprocals pdpSingleRoundingReciprocals(int64_t kh, int64_t kw) {
  const int64_t n = kh * kw;
  return {int64_t(1) << 16, ((int64_t(1) << 17) / n + 1) / 2};
}
/// The PDP's integer average of a window sum `s`, as its registers say:
/// RHA(RHA(s * width, 16) * height, 16), rounding half away from zero.
constexpr int64_t pdpAverage(PdpReciprocals r, int64_t s) {
  auto rha = [](int64_t v) {
    return v >= 0 ? (v + (int64_t(1) << 15)) >> 16 : -((-v + (int64_t(1) << 15)) >> 16);
  };
  return rha(rha(s * r.width) * r.height);
}
/// The window sums the PDP's reciprocals multiply: those of `bits`-bit data
/// over a kh x kw window, or, where padded positions add PAD_VALUE_nX
/// registers, anything the line buffer holds (2 * bits, signed: the sum
/// wraps there).
struct PdpSums {
  int64_t min = 0, max = 0;
};
constexpr PdpSums pdpWindowSums(int64_t kh, int64_t kw, int bits, bool padValues) {
  if (padValues)
    return {-(int64_t(1) << (2 * bits - 1)), (int64_t(1) << (2 * bits - 1)) - 1};
  const int64_t half = int64_t(1) << (bits - 1);
  return {-half * kh * kw, (half - 1) * kh * kw};
}
/// Whether `stated` computes what the firmware's table computes for every
/// window sum in `sums` (a loadable can then leave the registers to the
/// firmware). Checked sum by sum: besides the same pair, every
/// one-dimensional window with k != 6 (a stage that multiplies by 2^16 is
/// exact) and, on unpadded int8 sums, some two-dimensional ones (3x3's
/// single rounding among them) agree.
constexpr bool pdpComputesAsFirmware(PdpReciprocals stated, int64_t kh, int64_t kw,
                                     PdpSums sums) {
  const PdpReciprocals table = pdpFirmwareReciprocals(kh, kw);
  if (stated.width == table.width && stated.height == table.height)
    return true;
  for (int64_t s = sums.min; s <= sums.max; ++s)
    if (pdpAverage(stated, s) != pdpAverage(table, s))
      return false;
  return true;
}

// --- Layer geometry: sizes the registers store minus 1 (or as an enum).
/// PDP (NVDLA_PDP.rdl D_POOLING_KERNEL_CFG, D_POOLING_PADDING_CFG). The
/// kernel fields are 4 bits wide but their enum stops at 8.
inline constexpr RegisterField kPdpKernelWidth{"KERNEL_WIDTH", 1, 8,
                                               "4-bit enum KERNEL_WIDTH_1..8"};
inline constexpr RegisterField kPdpKernelHeight{"KERNEL_HEIGHT", 1, 8,
                                                "4-bit enum KERNEL_HEIGHT_1..8"};
inline constexpr RegisterField kPdpStrideWidth{"KERNEL_STRIDE_WIDTH", 1, 16,
                                               "4 bits, stride - 1"};
inline constexpr RegisterField kPdpStrideHeight{"KERNEL_STRIDE_HEIGHT", 1, 16,
                                                "4 bits, stride - 1"};
/// Padding in the IR's order: top, bottom, left, right.
inline constexpr RegisterField kPdpPadding[4] = {{"PAD_TOP", 0, 7, "3-bit unsigned"},
                                                 {"PAD_BOTTOM", 0, 7, "3-bit unsigned"},
                                                 {"PAD_LEFT", 0, 7, "3-bit unsigned"},
                                                 {"PAD_RIGHT", 0, 7, "3-bit unsigned"}};
/// CDP (NVDLA_CDP.rdl D_LRN_CFG).
inline constexpr RegisterField kCdpNormalzLen{"NORMALZ_LEN", 3, 9,
                                              "2-bit enum LEN3, LEN5, LEN7, LEN9", 2};
/// Convolution (NVDLA_CSC.rdl D_CONV_STRIDE_EXT, D_DILATION_EXT,
/// D_WEIGHT_SIZE_EXT_0; NVDLA_CDMA.rdl D_CONV_STRIDE, D_ZERO_PADDING, whose
/// right and bottom fields are a bit wider than left and top).
inline constexpr RegisterField kConvStrideX{"CONV_X_STRIDE", 1, 8, "3 bits, stride - 1"};
inline constexpr RegisterField kConvStrideY{"CONV_Y_STRIDE", 1, 8, "3 bits, stride - 1"};
inline constexpr RegisterField kConvDilationX{"X_DILATION_EXT", 1, 32, "5 bits, dilation - 1"};
inline constexpr RegisterField kConvDilationY{"Y_DILATION_EXT", 1, 32, "5 bits, dilation - 1"};
inline constexpr RegisterField kConvWeightWidth{"WEIGHT_WIDTH_EXT", 1, 32, "5 bits, width - 1"};
inline constexpr RegisterField kConvWeightHeight{"WEIGHT_HEIGHT_EXT", 1, 32,
                                                 "5 bits, height - 1"};
/// Input channels of one convolution layer (NVDLA_CDMA.rdl D_DATAIN_SIZE_1
/// DATAIN_CHANNEL, NVDLA_CSC.rdl D_DATAIN_SIZE_EXT_1 DATAIN_CHANNEL_EXT):
/// a fully connected layer's K as well.
inline constexpr RegisterField kConvInputChannels{"DATAIN_CHANNEL", 1, 8192,
                                                  "13 bits, channels - 1"};
/// Output channels (kernels) of one convolution layer (NVDLA_CSC.rdl
/// D_DATAOUT_SIZE_1, NVDLA_CACC.rdl D_DATAOUT_SIZE_1 DATAOUT_CHANNEL): a
/// fully connected layer's N as well.
inline constexpr RegisterField kConvOutputChannels{"DATAOUT_CHANNEL", 1, 8192,
                                                   "13 bits, channels - 1"};
/// Padding in the IR's order: top, bottom, left, right.
inline constexpr RegisterField kConvPadding[4] = {{"PAD_TOP", 0, 31, "5-bit unsigned"},
                                                  {"PAD_BOTTOM", 0, 63, "6-bit unsigned"},
                                                  {"PAD_LEFT", 0, 31, "5-bit unsigned"},
                                                  {"PAD_RIGHT", 0, 63, "6-bit unsigned"}};

/// A window's fields in the IR's orders ([h, w]; top, bottom, left, right).
struct WindowFields {
  RegisterField kernel[2], stride[2], padding[4];
};
inline constexpr WindowFields kPdpWindow{{kPdpKernelHeight, kPdpKernelWidth},
                                         {kPdpStrideHeight, kPdpStrideWidth},
                                         {kPdpPadding[0], kPdpPadding[1], kPdpPadding[2],
                                          kPdpPadding[3]}};
inline constexpr WindowFields kConvWindow{{kConvWeightHeight, kConvWeightWidth},
                                          {kConvStrideY, kConvStrideX},
                                          {kConvPadding[0], kConvPadding[1], kConvPadding[2],
                                           kConvPadding[3]}};

// --- LUT (SDP Y / CDP)
/// The lookup table's fields (docs/IntegerAttributes.md section 7): the SDP
/// Y stage's (NVDLA_SDP.rdl S_LUT_*) and the CDP's (NVDLA_CDP.rdl S_LUT_*,
/// whose starts and ends are 38 bits, _HIGH [5:0] : _LOW [31:0]). The CDP
/// reads its index selects narrower than the field: 6 bits for int8, 7 for
/// int16 (the C model's lookup_lut_int8 / lookup_lut).
/// CdpFp16: the CDP's tables in float mode (an fp16 LRN on nv_full).
enum class LutUnit { Sdp, CdpInt8, CdpInt16, CdpFp16 };

struct LutRegisterFields {
  RegisterField entry, indexOffset, leIndexSelect, loIndexSelect;
  RegisterField leStart, leEnd, loStart, loEnd;
  RegisterField slopeScale, slopeShift;
};

inline constexpr RegisterField kLutEntry{"LUT_DATA", -32768, 32767, "16-bit signed entry"};
/// The eight slope fields share a width; each is named `LUT_` + its IR
/// name upper-cased (LUT_LE_SLOPE_UFLOW_SCALE), so these leave the name out.
inline constexpr RegisterField kLutSlopeScale{"", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kLutSlopeShift{"", -16, 15, "5-bit field read signed"};
inline constexpr int64_t kSdpLutStartLo = -(int64_t(1) << 31), kSdpLutStartHi = (int64_t(1) << 31) - 1;
inline constexpr int64_t kCdpLutStartLo = -(int64_t(1) << 37), kCdpLutStartHi = (int64_t(1) << 37) - 1;

inline constexpr LutRegisterFields kSdpLut{
    kLutEntry,
    {"LUT_LE_INDEX_OFFSET", -128, 127, "8-bit signed"},
    {"LUT_LE_INDEX_SELECT", -128, 127, "8-bit signed"},
    {"LUT_LO_INDEX_SELECT", -128, 127, "8-bit signed"},
    {"LUT_LE_START", kSdpLutStartLo, kSdpLutStartHi, "32-bit signed"},
    {"LUT_LE_END", kSdpLutStartLo, kSdpLutStartHi, "32-bit signed"},
    {"LUT_LO_START", kSdpLutStartLo, kSdpLutStartHi, "32-bit signed"},
    {"LUT_LO_END", kSdpLutStartLo, kSdpLutStartHi, "32-bit signed"},
    kLutSlopeScale,
    kLutSlopeShift};

inline constexpr LutRegisterFields cdpLut(int selectBits) {
  const int64_t half = int64_t(1) << (selectBits - 1);
  const std::string_view why = selectBits == 6 ? "int8 LRN reads it as 6-bit signed"
                                               : "int16 LRN reads it as 7-bit signed";
  return {kLutEntry,
          {"LUT_LE_INDEX_OFFSET", -128, 62,
           "8-bit signed, above 62 the C model shifts past 64 bits"},
          {"LUT_LE_INDEX_SELECT", -half, half - 1, why},
          {"LUT_LO_INDEX_SELECT", -half, half - 1, why},
          {"LUT_LE_START", kCdpLutStartLo, kCdpLutStartHi, "38-bit signed"},
          {"LUT_LE_END", kCdpLutStartLo, kCdpLutStartHi, "38-bit signed"},
          {"LUT_LO_START", kCdpLutStartLo, kCdpLutStartHi, "38-bit signed"},
          {"LUT_LO_END", kCdpLutStartLo, kCdpLutStartHi, "38-bit signed"},
          kLutSlopeScale,
          kLutSlopeShift};
}

/// The CDP in float mode (NV_NVDLA_cdp.cpp hands HLS_CDP_lookup_fp16 the
/// index offset and selects as int8_t, the 38-bit edges of which
/// HLS_CDP_lookup_lut keeps the low 32 bits as an fp32 pattern).
inline constexpr LutRegisterFields kCdpFloatLut{
    kLutEntry,
    {"LUT_LE_INDEX_OFFSET", -128, 127, "fp16 LRN reads it as 8-bit signed"},
    {"LUT_LE_INDEX_SELECT", -128, 127, "fp16 LRN reads it as 8-bit signed"},
    {"LUT_LO_INDEX_SELECT", -128, 127, "fp16 LRN reads it as 8-bit signed"},
    {"LUT_LE_START", kSdpLutStartLo, kSdpLutStartHi, "fp16 LRN reads its low 32 bits as fp32"},
    {"LUT_LE_END", kSdpLutStartLo, kSdpLutStartHi, "fp16 LRN reads its low 32 bits as fp32"},
    {"LUT_LO_START", kSdpLutStartLo, kSdpLutStartHi, "fp16 LRN reads its low 32 bits as fp32"},
    {"LUT_LO_END", kSdpLutStartLo, kSdpLutStartHi, "fp16 LRN reads its low 32 bits as fp32"},
    kLutSlopeScale,
    kLutSlopeShift};

inline constexpr LutRegisterFields lutRegisterFields(LutUnit unit) {
  return unit == LutUnit::Sdp        ? kSdpLut
         : unit == LutUnit::CdpFp16 ? kCdpFloatLut
                                    : cdpLut(unit == LutUnit::CdpInt8 ? 6 : 7);
}

// --- CDP converters (NVDLA_CDP.rdl D_DATIN_* / D_DATOUT_*). int8 LRN reads
// the low 8 bits of DATIN_OFFSET and the low 25 bits of DATOUT_OFFSET.
inline constexpr RegisterField kCdpDatinOffsetInt8{"DATIN_OFFSET", -128, 127,
                                                   "int8 LRN reads its low 8 bits"};
inline constexpr RegisterField kCdpDatinOffsetInt16{"DATIN_OFFSET", -32768, 32767,
                                                    "16-bit signed"};
inline constexpr RegisterField kCdpDatinScale{"DATIN_SCALE", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kCdpDatinShift{"DATIN_SHIFTER", 0, 31, "5-bit unsigned"};
inline constexpr RegisterField kCdpDatoutOffsetInt8{"DATOUT_OFFSET", -(int64_t(1) << 24),
                                                    (int64_t(1) << 24) - 1,
                                                    "int8 LRN reads its low 25 bits"};
inline constexpr RegisterField kCdpDatoutOffsetInt16{"DATOUT_OFFSET", -(int64_t(1) << 31),
                                                     (int64_t(1) << 31) - 1, "32-bit signed"};
inline constexpr RegisterField kCdpDatoutScale{"DATOUT_SCALE", -32768, 32767, "16-bit signed"};
inline constexpr RegisterField kCdpDatoutShift{"DATOUT_SHIFTER", 0, 63, "6-bit unsigned"};

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAREGISTERS_H
