//===- SdpStages.cpp - dla.sdp's stage form against the hardware ---------===//
//
// The op-level rules of the stage form (docs/IntegerAttributes.md sections
// 4.4, 4.7, 6.2, 6.3): every register field within its width
// (dla/Format/NvdlaRegisters.h), memory operands bound by name with one
// surface per stage, and only the stages the target has. On an fp16
// pipeline the X stages compute in fp32 from fp16 operands (register
// operands are fp16 bit patterns): no shifts; the Y stage's multiplier and
// ALU in fp32 (register operands fp32 bit patterns), then its LUT in float
// mode (verifyFloatEw).
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/NvdlaRegisters.h"

#include "llvm/ADT/SmallString.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;
using mlir::dla::detail::formatEnumName;

namespace {

/// One stage's view: its name, its two units' operands and its fields'
/// registers (path suffix, value, register).
struct StageView {
  nv::SdpStage stage;
  SdpOperand alu, mul;
  SmallVector<std::tuple<std::string, int64_t, const nv::RegisterField *>> fields;
};

StageView viewOf(SdpXAttr x, nv::SdpStage stage) {
  StageView v{stage, x.getAluOperand(), x.getMulOperand(), {}};
  if (v.alu.reg)
    v.fields.push_back({"alu_operand", *v.alu.reg, &nv::kSdpXAluOperand});
  v.fields.push_back({"alu_shift", x.getAluShift(), &nv::kSdpXAluShift});
  if (v.mul.reg)
    v.fields.push_back({"mul_operand", *v.mul.reg, &nv::kSdpXMulOperand});
  v.fields.push_back({"mul_shift", x.getMulShift(), &nv::kSdpXMulShift});
  return v;
}

StageView viewOf(SdpYAttr y) {
  StageView v{nv::SdpStage::Ew, y.getAluOperand(), y.getMulOperand(), {}};
  if (v.mul.reg)
    v.fields.push_back({"mul_operand", *v.mul.reg, &nv::kSdpYMulOperand});
  if (v.alu.reg)
    v.fields.push_back({"alu_operand", *v.alu.reg, &nv::kSdpYAluOperand});
  v.fields.push_back({"truncate", y.getTruncate(), &nv::kSdpYTruncate});
  for (auto [unit, cvt] : {std::pair<StringRef, CvtAttr>{"mul", y.getMulCvt()},
                           std::pair<StringRef, CvtAttr>{"alu", y.getAluCvt()}}) {
    if (!cvt)
      continue;
    // The operand converters' registers are EW_<UNIT>_CVT_*.
    std::string pre = (unit + "_cvt.").str();
    v.fields.push_back({pre + "offset", cvt.getOffset(), &nv::kSdpYCvtOffset});
    v.fields.push_back({pre + "scale", cvt.getScale(), &nv::kSdpYCvtScale});
    v.fields.push_back({pre + "shift", cvt.getShift(), &nv::kSdpYCvtTruncate});
  }
  return v;
}

/// The register's full name: the stage prefix, for a converter field its
/// unit, then the field.
std::string registerName(nv::SdpStage stage, StringRef path, const nv::RegisterField &field) {
  std::string name(::dlaformat::enumProse(stage));
  name += "_";
  if (path.starts_with("mul_cvt"))
    name += "MUL_";
  else if (path.starts_with("alu_cvt"))
    name += "ALU_";
  name += std::string(field.name);
  return name;
}

Value memoryOperand(SdpOp op, nv::SdpMemOperand mem) {
  switch (mem) {
  case nv::SdpMemOperand::Bias:
    return op.getBias();
  case nv::SdpMemOperand::Batchnorm:
    return op.getBatchnorm();
  case nv::SdpMemOperand::Eltwise:
    return op.getEltwise();
  case nv::SdpMemOperand::Prelu:
    return op.getPrelu();
  }
  return {};
}

/// The rules of a stage form on an fp16 pipeline: the X stages' ALU and
/// MUL in fp32, no shifts; a register operand is the 16-bit register's
/// fp16 pattern (written as the int16 of those bits, as the float LUT's
/// entries), which the SDP widens as it widens a memory operand
/// (docs/NvdlaFp16.md); the Y stage is verifyFloatEw's.
LogicalResult verifyFloatStages(SdpOp op, ArrayRef<StageView> stages) {
  for (const StageView &s : stages) {
    StringRef stage = formatEnumName(s.stage);
    if (s.stage == nv::SdpStage::Ew)
      continue; // verifyFloatEw
    for (const auto &[path, value, field] : s.fields) {
      if (StringRef(path).ends_with("shift")) {
        if (value == 0)
          continue;
        return op.emitOpError() << stage << "." << path << " = " << value
                                << " is an integer register: this SDP computes in fp32 (no "
                                   "shifts)";
      }
      if (failed(verifyRegisterField(op, (stage + "." + path).str(), value, *field,
                                     registerName(s.stage, path, *field))))
        return failure();
      if ((value & 0x7c00) == 0x7c00)
        return op.emitOpError() << stage << "." << path << " = " << value
                                << " is an fp16 infinity or NaN: a float stage's register "
                                   "operand is a finite fp16 bit pattern";
    }
  }
  return success();
}

/// The Y stage on an fp16 pipeline (docs/NvdlaFp16.md, "The SDP's Y stage
/// in fp16"): its multiplier, then its ALU (max / min / sum), in fp32; a
/// memory operand is fp16 (widened; its converter unused in float mode), a
/// register operand the 32-bit register's fp32 pattern (written as the
/// int32 of those bits), which the Y stage takes as it is. Then its LUT in
/// float mode on the fp32 value the stages before it computed: entries
/// and slope scales finite fp16 patterns, edges finite fp32 patterns, no
/// slope shifts; to an fp16 output (the CPU execution models the output
/// converter at fp16).
LogicalResult verifyFloatEw(SdpOp op, SdpYAttr ew) {
  LutAttr lut = ew.getLut();
  if (ew.getTruncate() != 0)
    return op.emitOpError() << "ew.truncate = " << ew.getTruncate()
                            << " is an integer register: this SDP computes in fp32 (no shifts)";
  if (ew.getMulCvt() || ew.getAluCvt())
    return op.emitOpError() << "ew." << (ew.getMulCvt() ? "mul" : "alu")
                            << "_cvt on an fp16 SDP: the Y stage widens an fp16 memory operand "
                               "and uses no converter in float mode; write none";
  if (ew.getAlu() == nv::SdpAluAlgo::Eql)
    return op.emitOpError() << "ew.alu = eql on an fp16 SDP: the Y stage's float compare is not "
                               "modelled (max, min or sum)";
  const std::pair<StringRef, SdpOperand> operands[] = {{"mul_operand", ew.getMulOperand()},
                                                       {"alu_operand", ew.getAluOperand()}};
  for (auto [name, o] : operands) {
    if (!o.reg)
      continue;
    const nv::RegisterField &field =
        name == "mul_operand" ? nv::kSdpYMulOperand : nv::kSdpYAluOperand;
    if (failed(verifyRegisterField(op, ("ew." + name).str(), *o.reg, field,
                                   registerName(nv::SdpStage::Ew, name, field))))
      return failure();
    if (((*o.reg >> 23) & 0xff) == 0xff)
      return op.emitOpError() << "ew." << name << " = " << *o.reg
                              << " is an fp32 infinity or NaN: the Y stage's register operand "
                                 "in float mode is a finite fp32 bit pattern (as int32)";
  }
  if (!lut)
    return success();
  if (!op.getOutput().getType().getElementType().isF16())
    return op.emitOpError() << "ew.lut on an fp16 SDP writes an fp16 output: the output "
                               "converter rounds the LUT's fp32 value to fp16";
  return verifyFloatLut(op, "ew.lut", lut);
}

} // namespace

Value mlir::dla::getSdpMemoryOperand(SdpOp op, nv::SdpMemOperand mem) {
  return memoryOperand(op, mem);
}

LogicalResult mlir::dla::verifySdpStages(SdpOp op) {
  SmallVector<StageView> stages;
  if (SdpXAttr bs = op.getBsAttr())
    stages.push_back(viewOf(bs, nv::SdpStage::Bs));
  if (SdpXAttr bn = op.getBnAttr())
    stages.push_back(viewOf(bn, nv::SdpStage::Bn));
  if (SdpYAttr ew = op.getEwAttr())
    stages.push_back(viewOf(ew));
  if (stages.empty())
    return success();

  const bool isFloat = !op.getInput().getType().getElementType().isInteger();
  if (isFloat && failed(verifyFloatStages(op, stages)))
    return failure();
  if (op.getRelu())
    return op.emitOpError() << "relu belongs to a stage in stage form: write relu = true in "
                               "bs or bn";
  const nv::HardwareConfig &config = nv::getHardwareConfig(TargetAttr::lookup(op).config);
  if (op.getEwAttr() && !config.caps.sdpEw)
    return op.emitOpError() << "ew: the SDP's Y (EW) stage does not exist on "
                            << StringRef(config.name.data(), config.name.size())
                            << " (SDP_EW_DISABLE)";
  // Every configuration with the Y stage has its LUT (NvdlaHardware.h).
  LutAttr lut = op.getEwAttr() ? op.getEwAttr().getLut() : LutAttr();
  if (lut && failed(verifyLutRegisters(op, "ew.lut", lut, nv::LutUnit::Sdp, isFloat)))
    return failure();
  if (isFloat && op.getEwAttr() && failed(verifyFloatEw(op, op.getEwAttr())))
    return failure();
  if (op.getMode() == SdpMode::OnTheFly && !isFloat) {
    if (auto conv = op.getInput().getDefiningOp<ConvOp>(); conv && conv.getBias())
      return op.emitOpError() << "stage form receives the convolution's accumulator: give the "
                                 "dla.conv's bias to this SDP and name it in a stage";
    // The accumulator goes to the fused SDP alone: a second reader would see
    // a result the hardware never writes.
    if (!op.getInput().hasOneUse())
      return op.emitOpError() << "stage form receives the convolution's accumulator: the "
                                 "dla.conv must feed this SDP alone";
  }

  // Register fields (a float stage has none: verifyFloatStages).
  for (const StageView &s : isFloat ? ArrayRef<StageView>() : ArrayRef<StageView>(stages))
    for (const auto &[path, value, field] : s.fields)
      if (failed(verifyRegisterField(op, formatEnumName(s.stage) + "." + path, value, *field,
                                     registerName(s.stage, path, *field))))
        return failure();

  // Memory operands, bound by name.
  std::optional<nv::SdpStage> readBy[::dlaformat::enumCount<nv::SdpMemOperand>()];
  for (const StageView &s : stages) {
    StringRef stage = formatEnumName(s.stage);
    if (s.alu.mem && s.mul.mem && *s.alu.mem != *s.mul.mem)
      return op.emitOpError() << stage << " reads " << formatEnumName(*s.alu.mem) << " and "
                              << formatEnumName(*s.mul.mem)
                              << ": a stage reads one memory surface";
    for (auto [unit, operand] : {std::pair<StringRef, const SdpOperand &>{"alu", s.alu},
                                 std::pair<StringRef, const SdpOperand &>{"mul", s.mul}}) {
      if (!operand.mem)
        continue;
      StringRef name = formatEnumName(*operand.mem);
      Value value = memoryOperand(op, *operand.mem);
      if (!value)
        return op.emitOpError() << stage << "." << unit << "_operand = " << name
                                << " names no operand: the op has no " << name;
      auto &reader = readBy[static_cast<size_t>(*operand.mem)];
      if (reader && *reader != s.stage)
        return op.emitOpError() << name << " is read by " << formatEnumName(*reader) << " and "
                                << stage << ": each stage's memory surface is its own";
      reader = s.stage;
    }
    if (std::optional<nv::SdpMemOperand> mem = s.alu.mem ? s.alu.mem : s.mul.mem) {
      StringRef name = formatEnumName(*mem);
      bool both = s.alu.mem && s.mul.mem;
      if (nv::sdpOperandComponents(*mem) == 2 && !both)
        return op.emitOpError() << name << " holds ALU and MUL operands: " << stage
                                << " must name it in both alu_operand and mul_operand";
      if (nv::sdpOperandComponents(*mem) == 1 && both)
        return op.emitOpError() << name << " holds one operand per element: " << stage
                                << " names it in both alu_operand and mul_operand";
    }
  }
  for (nv::SdpMemOperand mem : ::dlaformat::enumValues<nv::SdpMemOperand>()) {
    Value value = memoryOperand(op, mem);
    if (!value)
      continue;
    StringRef name = formatEnumName(mem);
    auto type = cast<RankedTensorType>(value.getType());
    if (!readBy[static_cast<size_t>(mem)])
      return op.emitOpError() << name << " is read by no stage: name it in bs, bn or ew";
    StringRef stage = formatEnumName(*readBy[static_cast<size_t>(mem)]);
    if (type.getRank() == 0)
      return isFloat ? op.emitOpError() << name << " is per layer: in stage form write its "
                                        << (stage == "ew" ? "fp32 bit pattern as " : "fp16 bit pattern as ")
                                        << stage << (stage == "ew" ? ".alu_operand = <int32>" : ".alu_operand = <int16>")
                     : op.emitOpError() << name << " is per layer: in stage form write its "
                                           "value as "
                                        << stage << ".alu_operand = <integer>";
    if (type.getElementType().isInteger() == isFloat)
      return isFloat ? op.emitOpError() << name << " is an integer: an fp16 SDP's stages read "
                                           "fp16 operands"
                     : op.emitOpError() << name << " is fp16: integer stages read int8 or "
                                           "int16 operands";
  }
  return success();
}
