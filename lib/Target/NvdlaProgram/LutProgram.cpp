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

void mlir::dla::regplan::programLut(const LutProgram &lut, const LutRegs &r, LayerProgram &p) {
  p.write(r.tableId.reg, {{r.tableId, kLutTableLe}, {r.accessType, kLutWrite}});
  for (int64_t v : lut.le)
    p.write(r.data.reg, {{r.data, v}});
  p.write(r.tableId.reg, {{r.tableId, kLutTableLo}, {r.accessType, kLutWrite}});
  for (int64_t v : lut.lo)
    p.write(r.data.reg, {{r.data, v}});
  p.write(r.leFunction.reg, {{r.leFunction, lut.leLinear},
                             {r.uflowPriority, lut.uflowLo},
                             {r.oflowPriority, lut.oflowLo},
                             {r.hybridPriority, lut.hybridLo}});
  p.write(r.leIndexOffset.reg, {{r.leIndexOffset, lut.leLinear ? 0 : lut.leIndexOffset},
                                {r.leIndexSelect, lut.leLinear ? lut.leIndexSelect : 0},
                                {r.loIndexSelect, lut.loIndexSelect}});
  const int64_t bounds[4] = {lut.leStart, lut.leEnd, lut.loStart, lut.loEnd};
  for (auto [bound, value] : llvm::zip_equal(r.bounds, bounds)) {
    p.write(bound.low.reg, {{bound.low, value}});
    if (bound.high)
      p.write(bound.high->reg, {{*bound.high, value >> 32}});
  }
  const LutRegs::Slopes &s = r.slopes;
  p.write(s.leUflowScale.reg, {{s.leUflowScale, lut.leUflow.scale},
                               {s.leOflowScale, lut.leOflow.scale}});
  p.write(s.leUflowShift.reg, {{s.leUflowShift, lut.leUflow.shift},
                               {s.leOflowShift, lut.leOflow.shift}});
  p.write(s.loUflowScale.reg, {{s.loUflowScale, lut.loUflow.scale},
                               {s.loOflowScale, lut.loOflow.scale}});
  p.write(s.loUflowShift.reg, {{s.loUflowShift, lut.loUflow.shift},
                               {s.loOflowShift, lut.loOflow.shift}});
}
