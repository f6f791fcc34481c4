//===- NvdlaSdp.h - The SDP's stages, ALU operations and operands -*- C++ -*-===//
//
// The names the IR gives the SDP's programmable stages (docs/IntegerAttributes.md
// section 4): the stages by their register prefix, the ALU operations by
// their ALU_ALGO encoding, and the memory surfaces a stage can read. Register
// widths are in NvdlaRegisters.h.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLASDP_H
#define DLA_FORMAT_NVDLASDP_H

#include "dla/Format/EnumTable.h"
#include "dla/Format/NvdlaRegisters.h"

#include <optional>
#include <utility>

namespace dlaformat::nvdla {

/// The three stages: X1 (BS), X2 (BN), Y (EW). The keyword is the op
/// attribute, the prose the register prefix.
enum class SdpStage { Bs, Bn, Ew, Last = Ew };
inline constexpr EnumEntry<SdpStage> kSdpStageNames[] = {
    {SdpStage::Bs, "bs", "BS"}, {SdpStage::Bn, "bn", "BN"}, {SdpStage::Ew, "ew", "EW"}};
constexpr const auto &enumEntries(SdpStage) { return kSdpStageNames; }
static_assert(isInDeclarationOrder(kSdpStageNames, &EnumEntry<SdpStage>::value));

/// An ALU operation, in the order of its *_ALU_ALGO encoding (MAX 0, MIN 1,
/// SUM 2, EQL 3: the Y stage's only).
enum class SdpAluAlgo { Max, Min, Sum, Eql, Last = Eql };
inline constexpr EnumEntry<SdpAluAlgo> kSdpAluAlgoNames[] = {
    {SdpAluAlgo::Max, "max"}, {SdpAluAlgo::Min, "min"}, {SdpAluAlgo::Sum, "sum"},
    {SdpAluAlgo::Eql, "eql"}};
constexpr const auto &enumEntries(SdpAluAlgo) { return kSdpAluAlgoNames; }
static_assert(isInDeclarationOrder(kSdpAluAlgoNames, &EnumEntry<SdpAluAlgo>::value));

/// A memory surface an SDP stage reads (*_SRC = MEM), named as `dla.sdp`'s
/// operand; batchnorm holds two components (ALU, MUL), the others one.
enum class SdpMemOperand { Bias, Batchnorm, Eltwise, Prelu, Last = Prelu };
inline constexpr EnumEntry<SdpMemOperand> kSdpMemOperandNames[] = {
    {SdpMemOperand::Bias, "bias"},
    {SdpMemOperand::Batchnorm, "batchnorm"},
    {SdpMemOperand::Eltwise, "eltwise"},
    {SdpMemOperand::Prelu, "prelu"}};
constexpr const auto &enumEntries(SdpMemOperand) { return kSdpMemOperandNames; }
static_assert(isInDeclarationOrder(kSdpMemOperandNames, &EnumEntry<SdpMemOperand>::value));

/// Components per element of a memory surface: its ALU and MUL operands.
constexpr int sdpOperandComponents(SdpMemOperand operand) {
  return operand == SdpMemOperand::Batchnorm ? 2 : 1;
}

/// An X stage's register ALU operand reaches the data as
/// SAT32(ALU_OPERAND << ALU_SHIFT_VALUE): `value` as (operand, shift) with
/// the smallest shift, the shift at most 31 (beyond, no 32-bit value is
/// reached exactly); nullopt when no pair gives it.
inline std::optional<std::pair<int64_t, int64_t>> splitSdpShiftedOperand(int64_t value) {
  for (int64_t shift = 0; shift <= 31; ++shift) {
    int64_t unit = int64_t(1) << shift;
    if (value % unit != 0)
      break;
    if (kSdpXAluOperand.holds(value / unit))
      return std::make_pair(value / unit, shift);
  }
  return std::nullopt;
}

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLASDP_H
