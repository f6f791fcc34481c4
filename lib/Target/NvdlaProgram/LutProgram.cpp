//===- LutProgram.cpp - A lookup table as the firmware loads it -----------===//
//
// The SDP's Y stage and the CDP load their tables the same way (kmd
// firmware common.c update_lut): LE's 65 entries, then LO's 257, each from
// address 0 through S_LUT_ACCESS_CFG / S_LUT_ACCESS_DATA, then the table
// configuration. Only the registers differ (the CDP's bounds are 38 bits,
// LOW and HIGH; the SDP's 32): one writer over a table of each unit's.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

namespace {
/// A whole 32-bit register as a field.
constexpr CsbField whole(R reg) { return CsbField{reg, 0, 32}; }
} // namespace

const LutRegs mlir::dla::regplan::kSdpLutRegs{
    SDP_S_LUT_ACCESS_CFG_LUT_TABLE_ID,
    SDP_S_LUT_ACCESS_CFG_LUT_ACCESS_TYPE,
    SDP_S_LUT_ACCESS_DATA_LUT_DATA,
    SDP_S_LUT_CFG_LUT_LE_FUNCTION,
    SDP_S_LUT_CFG_LUT_UFLOW_PRIORITY,
    SDP_S_LUT_CFG_LUT_OFLOW_PRIORITY,
    SDP_S_LUT_CFG_LUT_HYBRID_PRIORITY,
    SDP_S_LUT_INFO_LUT_LE_INDEX_OFFSET,
    SDP_S_LUT_INFO_LUT_LE_INDEX_SELECT,
    SDP_S_LUT_INFO_LUT_LO_INDEX_SELECT,
    {{whole(R::SDP_S_LUT_LE_START), std::nullopt},
     {whole(R::SDP_S_LUT_LE_END), std::nullopt},
     {whole(R::SDP_S_LUT_LO_START), std::nullopt},
     {whole(R::SDP_S_LUT_LO_END), std::nullopt}},
    {SDP_S_LUT_LE_SLOPE_SCALE_LUT_LE_SLOPE_UFLOW_SCALE,
     SDP_S_LUT_LE_SLOPE_SCALE_LUT_LE_SLOPE_OFLOW_SCALE,
     SDP_S_LUT_LE_SLOPE_SHIFT_LUT_LE_SLOPE_UFLOW_SHIFT,
     SDP_S_LUT_LE_SLOPE_SHIFT_LUT_LE_SLOPE_OFLOW_SHIFT,
     SDP_S_LUT_LO_SLOPE_SCALE_LUT_LO_SLOPE_UFLOW_SCALE,
     SDP_S_LUT_LO_SLOPE_SCALE_LUT_LO_SLOPE_OFLOW_SCALE,
     SDP_S_LUT_LO_SLOPE_SHIFT_LUT_LO_SLOPE_UFLOW_SHIFT,
     SDP_S_LUT_LO_SLOPE_SHIFT_LUT_LO_SLOPE_OFLOW_SHIFT},
};

const LutRegs mlir::dla::regplan::kCdpLutRegs{
    CDP_S_LUT_ACCESS_CFG_LUT_TABLE_ID,
    CDP_S_LUT_ACCESS_CFG_LUT_ACCESS_TYPE,
    CDP_S_LUT_ACCESS_DATA_LUT_DATA,
    CDP_S_LUT_CFG_LUT_LE_FUNCTION,
    CDP_S_LUT_CFG_LUT_UFLOW_PRIORITY,
    CDP_S_LUT_CFG_LUT_OFLOW_PRIORITY,
    CDP_S_LUT_CFG_LUT_HYBRID_PRIORITY,
    CDP_S_LUT_INFO_LUT_LE_INDEX_OFFSET,
    CDP_S_LUT_INFO_LUT_LE_INDEX_SELECT,
    CDP_S_LUT_INFO_LUT_LO_INDEX_SELECT,
    {{whole(R::CDP_S_LUT_LE_START_LOW), CDP_S_LUT_LE_START_HIGH_LUT_LE_START_HIGH},
     {whole(R::CDP_S_LUT_LE_END_LOW), CDP_S_LUT_LE_END_HIGH_LUT_LE_END_HIGH},
     {whole(R::CDP_S_LUT_LO_START_LOW), CDP_S_LUT_LO_START_HIGH_LUT_LO_START_HIGH},
     {whole(R::CDP_S_LUT_LO_END_LOW), CDP_S_LUT_LO_END_HIGH_LUT_LO_END_HIGH}},
    {CDP_S_LUT_LE_SLOPE_SCALE_LUT_LE_SLOPE_UFLOW_SCALE,
     CDP_S_LUT_LE_SLOPE_SCALE_LUT_LE_SLOPE_OFLOW_SCALE,
     CDP_S_LUT_LE_SLOPE_SHIFT_LUT_LE_SLOPE_UFLOW_SHIFT,
     CDP_S_LUT_LE_SLOPE_SHIFT_LUT_LE_SLOPE_OFLOW_SHIFT,
     CDP_S_LUT_LO_SLOPE_SCALE_LUT_LO_SLOPE_UFLOW_SCALE,
     CDP_S_LUT_LO_SLOPE_SCALE_LUT_LO_SLOPE_OFLOW_SCALE,
     CDP_S_LUT_LO_SLOPE_SHIFT_LUT_LO_SLOPE_UFLOW_SHIFT,
     CDP_S_LUT_LO_SLOPE_SHIFT_LUT_LO_SLOPE_OFLOW_SHIFT},
};

void mlir::dla::regplan::programLut(const DescLut &lut, const LutRegs &r, LayerProgram &p) {
  p.write(r.tableId.reg, {{r.tableId, kLutTableLe}, {r.accessType, kLutWrite}});
  for (int16_t v : lut.linear_exp_table)
    p.write(r.data.reg, {{r.data, v}});
  p.write(r.tableId.reg, {{r.tableId, kLutTableLo}, {r.accessType, kLutWrite}});
  for (int16_t v : lut.linear_only_table)
    p.write(r.data.reg, {{r.data, v}});
  const bool linear = lut.method == 1;
  p.write(r.leFunction.reg, {{r.leFunction, lut.method},
                             {r.uflowPriority, lut.underflow_priority},
                             {r.oflowPriority, lut.overflow_priority},
                             {r.hybridPriority, lut.hybrid_priority}});
  // An exponent LE table's offset, or a linear one's fraction bits.
  p.write(r.leIndexOffset.reg, {{r.leIndexOffset, linear ? 0 : lut.linear_exp_offset},
                                {r.leIndexSelect, linear ? lut.linear_exp_offset : 0},
                                {r.loIndexSelect, lut.linear_only_offset}});
  const uint64_t bounds[4] = {lut.linear_exp_start, lut.linear_exp_end, lut.linear_only_start,
                              lut.linear_only_end};
  for (auto [bound, value] : llvm::zip_equal(r.bounds, bounds)) {
    p.write(bound.low.reg, {{bound.low, static_cast<int64_t>(value)}});
    if (bound.high)
      p.write(bound.high->reg, {{*bound.high, static_cast<int64_t>(value >> 32)}});
  }
  const LutRegs::Slopes &s = r.slopes;
  p.write(s.leUflowScale.reg, {{s.leUflowScale, lut.linear_exp_underflow_slope.scale},
                               {s.leOflowScale, lut.linear_exp_overflow_slope.scale}});
  p.write(s.leUflowShift.reg, {{s.leUflowShift, lut.linear_exp_underflow_slope.shifter},
                               {s.leOflowShift, lut.linear_exp_overflow_slope.shifter}});
  p.write(s.loUflowScale.reg, {{s.loUflowScale, lut.linear_only_underflow_slope.scale},
                               {s.loOflowScale, lut.linear_only_overflow_slope.scale}});
  p.write(s.loUflowShift.reg, {{s.loUflowShift, lut.linear_only_underflow_slope.shifter},
                               {s.loOflowShift, lut.linear_only_overflow_slope.shifter}});
}
