// RUN: dla-opt %s --dla-split-convolutions='target=nv_full banks=4 bank-entries=8' -split-input-file -verify-diagnostics
// RUN: grep -v expected- %s | dla-opt --split-input-file --dla-split-convolutions='target=nv_full' 2>&1 | FileCheck %s --check-prefix=FULL

// Convolutions that need a split (the small buffer of
// split-convolutions-small-buffer.mlir: 2 parts of 6 output rows) but
// cannot be cut are located errors, never left alone silently. With the
// whole nv_full buffer they fit and nothing is said.
// FULL-NOT: error
// FULL-COUNT-3: dla.conv direct %arg0, %arg1 pad [1, 1, 0, 0]
// FULL-NOT: error

// A convolution read by its fused SDP and by another op: the other reader
// would see the parts' concatenation, not the accumulator.
func.func @fused_and_other(%x: tensor<1x16x12x5xf16>, %w: tensor<16x16x3x1xf16>) -> (tensor<1x16x12x5xf16>, tensor<1x16x12x5xf16>) {
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_full's convolution buffer and cannot be split into its 2 parts of 6 output rows: its result is read by its on-the-fly SDP and by other ops, which would read the parts' concatenation instead of the accumulator}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x12x5xf16>
  %y = dla.sdp on_the_fly %c : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  %z = dla.pool max %c kernel [1, 1] : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  return %y, %z : tensor<1x16x12x5xf16>, tensor<1x16x12x5xf16>
}

// -----

// Operands that already carry layouts: the split cuts plain tensors, before
// the layouts are assigned.
func.func @encoded(%x: tensor<1x16x12x5xf16, #dla.feature<fp16>>, %w: tensor<16x16x3x1xf16, #dla.weight<direct, fp16>>) -> tensor<1x16x12x5xf16, #dla.feature<fp16>> {
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_full's convolution buffer and cannot be split into its 2 parts of 6 output rows: its operands already carry layouts (run --dla-split-convolutions before --dla-assign-layouts, as --dla-compile does)}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16, #dla.feature<fp16>>, tensor<16x16x3x1xf16, #dla.weight<direct, fp16>> -> tensor<1x16x12x5xf16, #dla.feature<fp16>>
  return %c : tensor<1x16x12x5xf16, #dla.feature<fp16>>
}

// -----

// A fused SDP whose element-wise operand has no static shape.
func.func @dynamic_eltwise(%x: tensor<1x16x12x5xf16>, %w: tensor<16x16x3x1xf16>, %e: tensor<1x16x?x5xf16>) -> tensor<1x16x12x5xf16> {
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_full's convolution buffer and cannot be split into its 2 parts of 6 output rows: its on-the-fly SDP's element-wise operand has no static shape or carries a layout}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x12x5xf16>
  %y = dla.sdp on_the_fly %c eltwise %e : tensor<1x16x?x5xf16> relu : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  return %y : tensor<1x16x12x5xf16>
}
