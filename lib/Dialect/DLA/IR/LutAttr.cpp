//===- LutAttr.cpp - #dla.lut and its register ranges --------------------===//
//
// The attribute verifier checks only what no register decides (table
// lengths, the LE index field that matches the function); the unit's
// widths and ordered ranges (integers, or fp32 patterns on an fp16 SDP) are
// checked by the op through verifyLutRegisters.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

static constexpr int64_t kLeEntries = 65, kLoEntries = 257;

LogicalResult LutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              LutFunction leFunction, DenseI64ArrayAttr le, DenseI64ArrayAttr lo,
                              int64_t, int64_t, int64_t, int64_t,
                              std::optional<int64_t> leIndexOffset,
                              std::optional<int64_t> leIndexSelect, int64_t, int64_t, int64_t,
                              int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, LutTable,
                              LutTable, LutTable) {
  if (!le || le.size() != kLeEntries)
    return emitError() << "#dla.lut le has " << (le ? le.size() : 0)
                       << " entries; the LE table has " << kLeEntries;
  if (!lo || lo.size() != kLoEntries)
    return emitError() << "#dla.lut lo has " << (lo ? lo.size() : 0)
                       << " entries; the LO table has " << kLoEntries;
  // One spelling per configuration: the index field the function ignores
  // is an error, not dead weight.
  bool exponent = leFunction == LutFunction::Exponent;
  if (exponent && leIndexSelect)
    return emitError() << "#dla.lut le_index_select applies to a linear LE table; this one is "
                          "exponent";
  if (!exponent && leIndexOffset)
    return emitError() << "#dla.lut le_index_offset applies to an exponent LE table; this one "
                          "is linear";
  if (exponent && !leIndexOffset)
    return emitError() << "#dla.lut exponent LE table needs le_index_offset";
  if (!exponent && !leIndexSelect)
    return emitError() << "#dla.lut linear LE table needs le_index_select";
  // Ordered ranges are the op's to check (verifyLutRegisters): the same
  // registers are integers or, on an fp16 SDP, fp32 bit patterns.
  return success();
}

LogicalResult mlir::dla::verifyLutRegisters(Operation *op, StringRef path, LutAttr lut,
                                            nv::LutUnit unit, bool floatEdges) {
  const nv::LutRegisterFields regs = nv::lutRegisterFields(unit);
  for (auto [name, table] : {std::pair<StringRef, DenseI64ArrayAttr>{"le", lut.getLe()},
                             std::pair<StringRef, DenseI64ArrayAttr>{"lo", lut.getLo()}})
    for (auto [i, v] : llvm::enumerate(table.asArrayRef()))
      if (failed(verifyRegisterField(op, path + "." + name + "[" + Twine(i) + "]", v, regs.entry)))
        return failure();
  auto check = [&](StringRef name, int64_t value, const nv::RegisterField &field) {
    if (!field.name.empty())
      return verifyRegisterField(op, path + "." + name, value, field);
    // Slope fields: the register is named after the field.
    std::string reg = "LUT_" + llvm::StringRef(name).upper();
    nv::RegisterField named{reg, field.lo, field.hi, field.why};
    return verifyRegisterField(op, path + "." + name, value, named);
  };
  struct Field {
    StringRef name;
    std::optional<int64_t> value;
    const nv::RegisterField &reg;
  };
  const Field fields[] = {
      {"le_start", lut.getLeStart(), regs.leStart},
      {"le_end", lut.getLeEnd(), regs.leEnd},
      {"lo_start", lut.getLoStart(), regs.loStart},
      {"lo_end", lut.getLoEnd(), regs.loEnd},
      {"le_index_offset", lut.getLeIndexOffset(), regs.indexOffset},
      {"le_index_select", lut.getLeIndexSelect(), regs.leIndexSelect},
      {"lo_index_select", lut.getLoIndexSelect(), regs.loIndexSelect},
      {"le_slope_uflow_scale", lut.getLeSlopeUflowScale(), regs.slopeScale},
      {"le_slope_uflow_shift", lut.getLeSlopeUflowShift(), regs.slopeShift},
      {"le_slope_oflow_scale", lut.getLeSlopeOflowScale(), regs.slopeScale},
      {"le_slope_oflow_shift", lut.getLeSlopeOflowShift(), regs.slopeShift},
      {"lo_slope_uflow_scale", lut.getLoSlopeUflowScale(), regs.slopeScale},
      {"lo_slope_uflow_shift", lut.getLoSlopeUflowShift(), regs.slopeShift},
      {"lo_slope_oflow_scale", lut.getLoSlopeOflowScale(), regs.slopeScale},
      {"lo_slope_oflow_shift", lut.getLoSlopeOflowShift(), regs.slopeShift}};
  for (const Field &f : fields)
    if (f.value && failed(check(f.name, *f.value, f.reg)))
      return failure();
  if (floatEdges)
    return success();
  using Range = std::tuple<StringRef, int64_t, int64_t>;
  for (auto [table, start, end] : {Range{"le", lut.getLeStart(), lut.getLeEnd()},
                                   Range{"lo", lut.getLoStart(), lut.getLoEnd()}})
    if (start > end)
      return op->emitOpError() << path << "." << table << "_start " << start << " exceeds "
                               << path << "." << table << "_end " << end;
  return success();
}

LogicalResult mlir::dla::verifyFloatLut(Operation *op, StringRef path, LutAttr lut) {
  auto nonFinite = [](int64_t v, int exponentBits, int mantissaBits) {
    const int64_t e = (v >> mantissaBits) & ((int64_t(1) << exponentBits) - 1);
    return e == (int64_t(1) << exponentBits) - 1;
  };
  for (auto [name, table] : {std::pair<StringRef, ArrayRef<int64_t>>{"le", lut.getLe()},
                             std::pair<StringRef, ArrayRef<int64_t>>{"lo", lut.getLo()}})
    for (auto [i, v] : llvm::enumerate(table))
      if (nonFinite(v, 5, 10))
        return op->emitOpError() << path << "." << name << "[" << i << "] = " << v
                                << " is an fp16 infinity or NaN: a float-mode table holds "
                                   "finite fp16 bit patterns";
  // Slope scales are fp16 patterns, edges fp32 ones.
  struct Pattern {
    StringRef name;
    int64_t value;
    bool edge;
  };
  const Pattern patterns[] = {{"le_slope_uflow_scale", lut.getLeSlopeUflowScale(), false},
                              {"le_slope_oflow_scale", lut.getLeSlopeOflowScale(), false},
                              {"lo_slope_uflow_scale", lut.getLoSlopeUflowScale(), false},
                              {"lo_slope_oflow_scale", lut.getLoSlopeOflowScale(), false},
                              {"le_start", lut.getLeStart(), true},
                              {"le_end", lut.getLeEnd(), true},
                              {"lo_start", lut.getLoStart(), true},
                              {"lo_end", lut.getLoEnd(), true}};
  for (const Pattern &p : patterns)
    if (p.edge ? nonFinite(p.value, 8, 23) : nonFinite(p.value, 5, 10))
      return op->emitOpError() << path << "." << p.name << " = " << p.value
                               << (p.edge ? " is an fp32 infinity or NaN: float-mode edges are "
                                            "finite fp32 bit patterns"
                                          : " is an fp16 infinity or NaN: float-mode slopes are "
                                            "finite fp16 bit patterns");
  const std::pair<StringRef, int64_t> edges[] = {{"le_start", lut.getLeStart()},
                                                 {"le_end", lut.getLeEnd()},
                                                 {"lo_start", lut.getLoStart()},
                                                 {"lo_end", lut.getLoEnd()}};
  auto asFloat = [](int64_t v) {
    uint32_t bits = uint32_t(uint64_t(v));
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  };
  auto show = [](float f) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", double(f));
    return std::string(text);
  };
  for (size_t t = 0; t < 2; ++t) {
    auto [startName, start] = edges[2 * t];
    auto [endName, end] = edges[2 * t + 1];
    if (asFloat(start) > asFloat(end))
      return op->emitOpError() << path << "." << startName << " = " << start << " ("
                              << show(asFloat(start)) << " as fp32) exceeds " << path << "." << endName
                              << " = " << end << " (" << show(asFloat(end)) << ")";
  }
  const std::pair<StringRef, int64_t> shifts[] = {
      {"le_slope_uflow_shift", lut.getLeSlopeUflowShift()},
      {"le_slope_oflow_shift", lut.getLeSlopeOflowShift()},
      {"lo_slope_uflow_shift", lut.getLoSlopeUflowShift()},
      {"lo_slope_oflow_shift", lut.getLoSlopeOflowShift()}};
  for (auto [name, v] : shifts)
    if (v != 0)
      return op->emitOpError() << path << "." << name << " = " << v
                              << ": float mode uses no slope shifts (write 0)";
  return success();
}

nv::LutProgram mlir::dla::getLutProgram(LutAttr lut) {
  nv::LutProgram p;
  p.leLinear = lut.getLeFunction() == LutFunction::Linear;
  llvm::copy(lut.getLe().asArrayRef(), p.le.begin());
  llvm::copy(lut.getLo().asArrayRef(), p.lo.begin());
  p.leStart = lut.getLeStart();
  p.leEnd = lut.getLeEnd();
  p.loStart = lut.getLoStart();
  p.loEnd = lut.getLoEnd();
  p.leIndexOffset = lut.getLeIndexOffset().value_or(0);
  p.leIndexSelect = lut.getLeIndexSelect().value_or(0);
  p.loIndexSelect = lut.getLoIndexSelect();
  p.leUflow = {lut.getLeSlopeUflowScale(), lut.getLeSlopeUflowShift()};
  p.leOflow = {lut.getLeSlopeOflowScale(), lut.getLeSlopeOflowShift()};
  p.loUflow = {lut.getLoSlopeUflowScale(), lut.getLoSlopeUflowShift()};
  p.loOflow = {lut.getLoSlopeOflowScale(), lut.getLoSlopeOflowShift()};
  p.uflowLo = lut.getUflowPriority() == LutTable::Lo;
  p.oflowLo = lut.getOflowPriority() == LutTable::Lo;
  p.hybridLo = lut.getHybridPriority() == LutTable::Lo;
  return p;
}

LutAttr mlir::dla::getLutAttr(MLIRContext *context, const nv::LutProgram &p) {
  auto table = [](bool lo) { return lo ? LutTable::Lo : LutTable::Le; };
  return LutAttr::get(
      context, p.leLinear ? LutFunction::Linear : LutFunction::Exponent,
      DenseI64ArrayAttr::get(context, p.le), DenseI64ArrayAttr::get(context, p.lo), p.leStart,
      p.leEnd, p.loStart, p.loEnd,
      p.leLinear ? std::nullopt : std::optional<int64_t>(p.leIndexOffset),
      p.leLinear ? std::optional<int64_t>(p.leIndexSelect) : std::nullopt, p.loIndexSelect,
      p.leUflow.scale, p.leUflow.shift, p.leOflow.scale, p.leOflow.shift, p.loUflow.scale,
      p.loUflow.shift, p.loOflow.scale, p.loOflow.shift, table(p.uflowLo), table(p.oflowLo),
      table(p.hybridLo));
}
