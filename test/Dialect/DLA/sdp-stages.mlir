// dla.sdp's stage form (#dla.sdp_x for bs / bn, #dla.sdp_y for ew): round
// trip (fields print in declaration order, defaults omitted, any order
// parses), kept through --dla-lower-to-memref; every verifier message in
// sdp-stages-invalid.mlir; executed bit-exactly on random layers in
// test/Execution/int-sdp-layers.mlir.
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-lower-to-memref | FileCheck %s --check-prefix=MEMREF

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
