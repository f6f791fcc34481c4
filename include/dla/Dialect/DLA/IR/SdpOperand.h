//===- SdpOperand.h - An SDP unit's operand: register or memory -*- C++ -*-===//
//
// The value of `alu_operand` / `mul_operand` in #dla.sdp_x and #dla.sdp_y:
// an integer (*_SRC = REG, the register value) or the name of one of
// dla.sdp's memory operands (*_SRC = MEM). Default-constructed = absent.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_IR_SDPOPERAND_H
#define DLA_DIALECT_DLA_IR_SDPOPERAND_H

#include "dla/Format/NvdlaSdp.h"

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/Hashing.h"

#include <optional>

namespace mlir::dla {

struct SdpOperand {
  std::optional<int64_t> reg;
  std::optional<::dlaformat::nvdla::SdpMemOperand> mem;

  static SdpOperand ofRegister(int64_t value) { return {value, std::nullopt}; }
  static SdpOperand ofMemory(::dlaformat::nvdla::SdpMemOperand m) { return {std::nullopt, m}; }
  bool isPresent() const { return reg.has_value() || mem.has_value(); }
  bool operator==(const SdpOperand &other) const {
    return reg == other.reg && mem == other.mem;
  }
};

inline llvm::hash_code hash_value(const SdpOperand &o) {
  return llvm::hash_combine(o.reg.has_value(), o.reg.value_or(0), o.mem.has_value(),
                            o.mem ? static_cast<int>(*o.mem) : -1);
}

namespace detail {
FailureOr<SdpOperand> parseSdpOperand(AsmParser &parser);
void printSdpOperand(AsmPrinter &printer, const SdpOperand &operand);
/// `true` or `false` (MLIR has no FieldParser<bool>).
FailureOr<bool> parseBoolKeyword(AsmParser &parser);
} // namespace detail

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_SDPOPERAND_H
