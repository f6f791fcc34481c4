// RUN: dla-opt %s --dla-split-convolutions='target=nv_full banks=4 bank-entries=8' -verify-diagnostics | FileCheck %s

// A small buffer (4 banks of 8 entries on nv_full, as a test forces splits
// on small layers): 12 lines of 2 entries (16 fp16 channels = one atom,
// ceil(5 / 4) entries a line) take 3 banks, the 3x1 weights 2; 2 spare
// banks hold 8 rows: 6 output rows per part. Nothing is cut: the fused SDP
// and its element-wise operand run with each band of the convolution.
// CHECK-LABEL: func.func @fused_sdp
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[C:.*]] = dla.conv direct %arg0, %arg1 pad [1, 1, 0, 0] rows_per_part 6 : tensor<1x16x12x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x12x5xf16>
// CHECK: %[[Y:.*]] = dla.sdp on_the_fly %[[C]] eltwise %arg2
// CHECK-NOT: tensor.concat
// CHECK: return %[[Y]]
func.func @fused_sdp(%x: tensor<1x16x12x5xf16>, %w: tensor<16x16x3x1xf16>, %e: tensor<1x16x12x5xf16>) -> tensor<1x16x12x5xf16> {
  // expected-remark @+1 {{runs as 2 hardware layers of at most 6 output rows over bands of its input and result (no host copies): its input takes 3 banks of the convolution buffer and its weights 2, the buffer has 4 of 8 entries (partial height; weights in 2 banks: all its weights, loaded once and reused by every part, at most 1792 bytes of input rows per part)}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x12x5xf16>
  %y = dla.sdp on_the_fly %c eltwise %e : tensor<1x16x12x5xf16> relu : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  return %y : tensor<1x16x12x5xf16>
}

