// An fp16 LRN stating its table (float mode, the CDP's: docs/NvdlaFp16.md
// "The CDP in fp16") computes as the CDP does in both fp16 modes: the
// ideal formula would ignore the table. One call of the CDP's fp16 path
// with the stated registers (lutToRegisters' order: le[65], lo[257], then
// the edges, index fields, slopes and priorities).
// RUN: dla-opt %s --dla-lower-to-reference --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s
// RUN: dla-opt %s --dla-lower-to-reference=fp16-arithmetic=ideal --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s
// Without the table the ideal mode keeps its formula (no call):
// RUN: dla-opt %s --dla-lower-to-reference=fp16-arithmetic=ideal | FileCheck %s --check-prefix=IDEAL

// CHECK-LABEL: func.func @stated
// CHECK: arith.constant dense<[15360, 14336, 14336,
// CHECK-SAME: 13312, 13312,
// CHECK-SAME: tensor<341xi64>
// CHECK: call @dla_nvdla_cdp_fp16(
// IDEAL-LABEL: func.func @stated
// IDEAL: call @dla_nvdla_cdp_fp16(
func.func @stated(%x: tensor<1x3x1x1xf16>) -> tensor<1x3x1x1xf16> {
  %y = dla.lrn %x size 3 lut <le_function = exponent, le = [15360, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336, 14336], lo = [13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312, 13312], le_start = 0, le_end = 1098907648, lo_start = 0, lo_end = 1065353216, le_index_offset = -4, lo_index_select = -8, lo_slope_oflow_scale = 14336, uflow_priority = lo, oflow_priority = le, hybrid_priority = lo> : tensor<1x3x1x1xf16> -> tensor<1x3x1x1xf16>
  return %y : tensor<1x3x1x1xf16>
}

// IDEAL-LABEL: func.func @derived
// IDEAL-NOT: call @dla_nvdla_cdp_fp16
// IDEAL: math.powf
func.func @derived(%x: tensor<1x3x1x1xf16>) -> tensor<1x3x1x1xf16> {
  %y = dla.lrn %x size 3 : tensor<1x3x1x1xf16> -> tensor<1x3x1x1xf16>
  return %y : tensor<1x3x1x1xf16>
}
