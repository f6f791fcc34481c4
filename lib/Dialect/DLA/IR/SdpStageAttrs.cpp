//===- SdpStageAttrs.cpp - #dla.sdp_x, #dla.sdp_y and their operands -----===//
//
// What an SDP stage attribute can say on its own, whatever register width
// the op's stage gives its fields (dla.sdp checks the ranges): no unit
// configured without its input, no field the hardware would ignore, so one
// configuration has one spelling (docs/IntegerAttributes.md section 6.1).
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

FailureOr<SdpOperand> mlir::dla::detail::parseSdpOperand(AsmParser &parser) {
  int64_t value;
  OptionalParseResult integer = parser.parseOptionalInteger(value);
  if (integer.has_value()) {
    if (failed(*integer))
      return failure();
    return SdpOperand::ofRegister(value);
  }
  FailureOr<nv::SdpMemOperand> mem =
      parseFormatEnum<nv::SdpMemOperand>(parser, "register value or operand name");
  if (failed(mem))
    return failure();
  return SdpOperand::ofMemory(*mem);
}

void mlir::dla::detail::printSdpOperand(AsmPrinter &printer, const SdpOperand &operand) {
  if (operand.reg)
    printer << *operand.reg;
  else if (operand.mem)
    printer << formatEnumName(*operand.mem);
}

FailureOr<bool> mlir::dla::detail::parseBoolKeyword(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("true")))
    return true;
  if (succeeded(parser.parseOptionalKeyword("false")))
    return false;
  return parser.emitError(loc, "expected true or false");
}

namespace {
/// The rules both stage kinds share; `kind` names the attribute.
LogicalResult verifyUnits(function_ref<InFlightDiagnostic()> emitError, StringRef kind,
                          std::optional<nv::SdpAluAlgo> alu, const SdpOperand &aluOperand,
                          const SdpOperand &mulOperand, bool prelu) {
  if (alu && !aluOperand.isPresent())
    return emitError() << kind << " alu = " << mlir::dla::detail::formatEnumName(*alu)
                       << " needs alu_operand";
  if (!alu && aluOperand.isPresent())
    return emitError() << kind << " alu_operand needs alu (ALU_BYPASS would ignore it)";
  if (prelu && !mulOperand.isPresent())
    return emitError() << kind << " prelu needs mul_operand (MUL_BYPASS ignores MUL_PRELU)";
  return success();
}
} // namespace

LogicalResult SdpXAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               std::optional<nv::SdpAluAlgo> alu, SdpOperand aluOperand,
                               int64_t aluShift, SdpOperand mulOperand, int64_t mulShift,
                               bool prelu, bool relu) {
  if (alu == nv::SdpAluAlgo::Eql)
    return emitError() << "#dla.sdp_x alu = eql: the X stages' ALU has max, min and sum "
                          "(EQL is the Y stage's)";
  if (failed(verifyUnits(emitError, "#dla.sdp_x", alu, aluOperand, mulOperand, prelu)))
    return failure();
  if (!alu && aluShift != 0)
    return emitError() << "#dla.sdp_x alu_shift needs alu (ALU_BYPASS would ignore it)";
  // MUL_SHIFT_VALUE applies with MUL bypassed, so a shift alone configures
  // something.
  if (!alu && !mulOperand.isPresent() && mulShift == 0 && !relu)
    return emitError() << "#dla.sdp_x configures nothing: leave the stage out (an absent "
                          "stage is bypassed)";
  return success();
}

LogicalResult SdpYAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               SdpOperand mulOperand, CvtAttr mulCvt, bool prelu,
                               int64_t truncate, std::optional<nv::SdpAluAlgo> alu,
                               SdpOperand aluOperand, CvtAttr aluCvt) {
  if (failed(verifyUnits(emitError, "#dla.sdp_y", alu, aluOperand, mulOperand, prelu)))
    return failure();
  if (truncate != 0 && !mulOperand.isPresent())
    return emitError() << "#dla.sdp_y truncate needs mul_operand (EW_TRUNCATE applies to the "
                          "product)";
  const std::tuple<StringRef, CvtAttr, const SdpOperand &> converters[] = {
      {"mul", mulCvt, mulOperand}, {"alu", aluCvt, aluOperand}};
  for (const auto &[unit, cvt, operand] : converters)
    if (cvt && !operand.mem)
      return emitError() << "#dla.sdp_y " << unit << "_cvt needs a memory " << unit
                         << "_operand: register operands meet no converter";
  if (!mulOperand.isPresent() && !alu)
    return emitError() << "#dla.sdp_y configures nothing: leave the stage out (an absent "
                          "stage is bypassed)";
  return success();
}
