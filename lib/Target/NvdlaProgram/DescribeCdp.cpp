//===- DescribeCdp.cpp - dla.lrn and lookup tables as descriptors ---------===//
//
// An LRN's tables and converters are the op's, stated or derived
// (getLrnTables; fp16: float-mode tables, stated or lrnFloatTables'); a
// #dla.lut's registers are the firmware's dla_lut_param field for field (common.c update_lut reads them back).
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;

DescLut mlir::dla::regplan::describeLut(const LutProgram &lut) {
  DescLut d;
  for (auto [to, from] : llvm::zip_equal(d.linear_exp_table, lut.le))
    to = static_cast<int16_t>(from);
  for (auto [to, from] : llvm::zip_equal(d.linear_only_table, lut.lo))
    to = static_cast<int16_t>(from);
  // The LE table's index: an exponent offset, or a linear one's fraction
  // bits (the union dla_lut_offset).
  d.method = lut.leLinear ? 1 : 0;
  d.linear_exp_offset = static_cast<int8_t>(lut.leLinear ? lut.leIndexSelect : lut.leIndexOffset);
  d.linear_only_offset = static_cast<int8_t>(lut.loIndexSelect);
  d.linear_exp_start = static_cast<uint64_t>(lut.leStart);
  d.linear_exp_end = static_cast<uint64_t>(lut.leEnd);
  d.linear_only_start = static_cast<uint64_t>(lut.loStart);
  d.linear_only_end = static_cast<uint64_t>(lut.loEnd);
  auto slope = [](const LutSlope &s) {
    return DescLut::Slope{static_cast<int16_t>(s.scale), static_cast<int8_t>(s.shift)};
  };
  d.linear_exp_underflow_slope = slope(lut.leUflow);
  d.linear_exp_overflow_slope = slope(lut.leOflow);
  d.linear_only_underflow_slope = slope(lut.loUflow);
  d.linear_only_overflow_slope = slope(lut.loOflow);
  // LUT_PRI_LINEAR_EXP 0, LUT_PRI_LINEAR_ONLY 1.
  d.underflow_priority = lut.uflowLo;
  d.overflow_priority = lut.oflowLo;
  d.hybrid_priority = lut.hybridLo;
  return d;
}

static DescCvt cvtOf(const CvtRegisters &c) {
  return DescCvt{static_cast<int32_t>(c.scale), static_cast<uint8_t>(c.shift), 1,
                 static_cast<int32_t>(c.offset)};
}

LogicalResult mlir::dla::regplan::describeCdp(const NetworkPlan &plan, Operation *o, CdpDesc &d,
                                            std::vector<DescLut> &luts) {
  auto op = cast<LrnOp>(o);
  // The tables the CPU execution computes with (getLrnTables); in fp16
  // (nv_full) float-mode tables, stated or lrnFloatTables', the converters
  // unused and DATIN_OFFSET 0, what channels outside the cube read (+0).
  const LrnTables t = getLrnTables(op);
  d.src_data = describeCube(plan, op.getInput());
  d.dst_data = describeCube(plan, op.getResult());
  // The CDP computes in its input's precision (int8, or int16 / fp16 on
  // nv_full).
  d.in_precision = d.out_precision = describePrecision(
      cast<FeatureAttr>(op.getInput().getType().getEncoding()).getPrecision());
  d.lut_index = static_cast<int16_t>(luts.size());
  luts.push_back(describeLut(t.lut));
  d.in_cvt = cvtOf(t.in);
  d.out_cvt = cvtOf(t.out);
  d.local_size = static_cast<uint8_t>(op.getSize());
  // Square sum and multiplier used.
  d.bypass_sqsum = d.bypass_out_mul = 0;
  return success();
}
