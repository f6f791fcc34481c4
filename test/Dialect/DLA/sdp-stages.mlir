// dla.sdp's stage form (#dla.sdp_x for bs / bn, #dla.sdp_y for ew): round
// trip (fields print in declaration order, defaults omitted, any order
// parses), kept through --dla-lower-to-memref; every verifier message in
// sdp-stages-invalid.mlir; executed bit-exactly on random layers in
// test/Execution/int-sdp-layers.mlir.
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// NVIDIA's per-filter rescale in BS, PReLU in BN, an element-wise add in EW.
// CHECK-LABEL: func.func @full
// CHECK: dla.sdp offline %arg0 batchnorm %arg1 : tensor<8x2xi16> eltwise %arg2 : tensor<1x8x2x2xi8>
// CHECK-SAME: bs <alu = sum, alu_operand = batchnorm, alu_shift = 4, mul_operand = batchnorm, mul_shift = 22>
// CHECK-SAME: bn <mul_operand = 13, mul_shift = 7, prelu = true>
// CHECK-SAME: ew <alu = sum, alu_operand = eltwise, alu_cvt = <offset = 0, scale = 19661, shift = 14>>
// CHECK-SAME: out_cvt <offset = 0, scale = 27307, shift = 16>
// MEMREF-LABEL: func.func @full
// MEMREF: dla.on_storage
// MEMREF: dla.sdp offline {{.*}} bs <alu = sum, {{.*}} bn <{{.*}} ew <{{.*}} out_cvt
func.func @full(%x: tensor<1x8x2x2xi8>, %q: tensor<8x2xi16>, %r: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  %y = dla.sdp offline %x batchnorm %q : tensor<8x2xi16> eltwise %r : tensor<1x8x2x2xi8>
    bs <mul_shift = 22, alu = sum, mul_operand = batchnorm, alu_operand = batchnorm, alu_shift = 4>
    bn <prelu = true, mul_operand = 13, mul_shift = 7, relu = false>
    ew <alu = sum, alu_operand = eltwise, alu_cvt = #dla.cvt<offset = 0, scale = 19661, shift = 14>>
    out_cvt <offset = 0, scale = 27307, shift = 16>
    : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// The MUL's shift alone (it applies with MUL bypassed), ReLU, and the Y
// stage's register operands at the ends of their 32-bit registers.
// CHECK-LABEL: func.func @registers
// CHECK: dla.sdp on_the_fly %{{.*}} bs <mul_shift = 63, relu = true>
// CHECK-SAME: ew <mul_operand = -2147483648, prelu = true, truncate = 1023, alu = eql, alu_operand = 2147483647>
// CHECK-SAME: : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xf16>
func.func @registers(%x: tensor<1x8x2x2xi16>, %w: tensor<8x8x1x1xi16>) -> tensor<1x8x2x2xf16> {
  %c = dla.conv direct %x, %w clip_truncate 3 : tensor<1x8x2x2xi16>, tensor<8x8x1x1xi16> -> tensor<1x8x2x2xi16>
  %y = dla.sdp on_the_fly %c bs <relu = true, mul_shift = 63>
    ew <alu = eql, alu_operand = 2147483647, mul_operand = -2147483648, truncate = 1023, prelu = true>
    : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// nv_small: no Y stage; the residual add goes to BN (per-element data).
// CHECK-LABEL: func.func @nv_small_residual
// CHECK: bs <alu = sum, alu_operand = bias, alu_shift = 4> bn <alu = sum, alu_operand = eltwise, alu_shift = 8, relu = true>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @nv_small_residual(%x: tensor<1x8x2x2xi8>, %b: tensor<8xi16>, %r: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
    %y = dla.sdp offline %x bias %b : tensor<8xi16> eltwise %r : tensor<1x8x2x2xi8>
      bs <alu = sum, alu_operand = bias, alu_shift = 4>
      bn <alu = sum, alu_operand = eltwise, alu_shift = 8, relu = true>
      : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
    return %y : tensor<1x8x2x2xi8>
  }
}

// Standalone attributes print in full.
// CHECK-LABEL: func.func @attrs
// CHECK-SAME: x = #dla.sdp_x<alu = max, alu_operand = -32768>
// CHECK-SAME: y = #dla.sdp_y<mul_operand = prelu, mul_cvt = <offset = 1, scale = 2, shift = 3>>
func.func @attrs() attributes {x = #dla.sdp_x<alu = max, alu_operand = -32768>,
                               y = #dla.sdp_y<mul_operand = prelu, mul_cvt = <offset = 1, scale = 2, shift = 3>>} {
  return
}

// The Y stage's lookup table (#dla.lut in the SDP's ranges: 32-bit starts,
// 8-bit index registers), printed stripped inside ew.
// CHECK-LABEL: func.func @lut
// CHECK: ew <alu = max, alu_operand = 0, lut = <le_function = linear, le = [0, 1, 2,
// CHECK-SAME: le_start = -2147483648, le_end = 2147483647, lo_start = 0, lo_end = 1048576, le_index_select = 127, lo_index_select = -128,
func.func @lut(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  %y = dla.sdp offline %x ew <alu = max, alu_operand = 0, lut = #dla.lut<le_function = linear,
      le = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64],
      lo = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256],
      le_start = -2147483648, le_end = 2147483647, lo_start = 0, lo_end = 1048576,
      le_index_select = 127, lo_index_select = -128,
      uflow_priority = le, oflow_priority = lo, hybrid_priority = lo>>
    : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}

// The LUT in float mode on fp16 (nv_full): edges are fp32 patterns ordered
// as floats, [-16, -8] for LE, whose int32 patterns run the other way.
// CHECK-LABEL: func.func @fp16_lut_negative_edges
// CHECK: dla.sdp offline %{{.*}} ew <lut = <le_function = linear, le = [{{.*}}], lo = [{{.*}}], le_start = -1048576000, le_end = -1056964608, lo_start = -1056964608, lo_end = 1090519040, le_index_select = -1, lo_index_select = -4, lo_slope_uflow_scale = 15360, uflow_priority = lo, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
func.func @fp16_lut_negative_edges(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1048576000, le_end = -1056964608, lo_start = -1056964608, lo_end = 1090519040, le_index_select = -1, lo_index_select = -4, lo_slope_uflow_scale = 15360, uflow_priority = lo, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}
