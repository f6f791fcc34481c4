// RUN: dla-opt %s --dla-split-convolutions='target=nv_full banks=4 bank-entries=8' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: grep -v expected- %s | dla-opt --split-input-file --dla-split-convolutions='target=nv_full' 2>&1 | FileCheck %s --check-prefix=FULL

// What a cut of the tensors could not take, bands of the hardware layers
// do (the small buffer of split-convolutions-small-buffer.mlir: 2 parts of
// 6 output rows): no tensor is cut, so another reader of the accumulator,
// operands that already carry layouts and a dynamic element-wise operand
// all keep their whole values. With the whole nv_full buffer they fit and
// nothing is said.
// FULL-NOT: remark
// FULL-COUNT-3: dla.conv direct %arg0, %arg1 pad [1, 1, 0, 0] :
// FULL-NOT: error

// A convolution read by its fused SDP and by another op.
// CHECK-LABEL: func.func @fused_and_other
// CHECK: dla.conv direct %arg0, %arg1 pad [1, 1, 0, 0] rows_per_part 6
func.func @fused_and_other(%x: tensor<1x16x12x5xf16>, %w: tensor<16x16x3x1xf16>) -> (tensor<1x16x12x5xf16>, tensor<1x16x12x5xf16>) {
  // expected-remark @+1 {{runs as 2 hardware layers of at most 6 output rows}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x12x5xf16>
  %y = dla.sdp on_the_fly %c : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  %z = dla.pool max %c kernel [1, 1] : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  return %y, %z : tensor<1x16x12x5xf16>, tensor<1x16x12x5xf16>
}

// -----

// Operands that already carry layouts.
// CHECK-LABEL: func.func @encoded
// CHECK: rows_per_part 6
func.func @encoded(%x: tensor<1x16x12x5xf16, #dla.feature<fp16>>, %w: tensor<16x16x3x1xf16, #dla.weight<direct, fp16>>) -> tensor<1x16x12x5xf16, #dla.feature<fp16>> {
  // expected-remark @+1 {{runs as 2 hardware layers of at most 6 output rows}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16, #dla.feature<fp16>>, tensor<16x16x3x1xf16, #dla.weight<direct, fp16>> -> tensor<1x16x12x5xf16, #dla.feature<fp16>>
  return %c : tensor<1x16x12x5xf16, #dla.feature<fp16>>
}

// -----

// A fused SDP whose element-wise operand has no static shape.
// CHECK-LABEL: func.func @dynamic_eltwise
// CHECK: rows_per_part 6
func.func @dynamic_eltwise(%x: tensor<1x16x12x5xf16>, %w: tensor<16x16x3x1xf16>, %e: tensor<1x16x?x5xf16>) -> tensor<1x16x12x5xf16> {
  // expected-remark @+1 {{runs as 2 hardware layers of at most 6 output rows}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x12x5xf16>
  %y = dla.sdp on_the_fly %c eltwise %e : tensor<1x16x?x5xf16> relu : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  return %y : tensor<1x16x12x5xf16>
}
