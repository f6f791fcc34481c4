// RUN: dla-opt %s --dla-split-convolutions='target=nv_full banks=4 bank-entries=8' -verify-diagnostics | FileCheck %s

// A small buffer (4 banks of 8 entries on nv_full, as a test forces splits
// on small layers): 12 lines of 2 entries (16 fp16 channels = one atom,
// ceil(5 / 4) entries a line) take 3 banks, the 3x1 weights 2; 2 spare
// banks hold 8 rows: 6 output rows per part. The fused SDP is cut with its
// convolution, its element-wise operand by the same output rows.
// CHECK-LABEL: func.func @fused_sdp
// CHECK: %[[I0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 16, 7, 5] [1, 1, 1, 1]
// CHECK: %[[C0:.*]] = dla.conv direct %[[I0]], %arg1 pad [1, 0, 0, 0] : tensor<1x16x7x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x6x5xf16>
// CHECK: %[[I1:.*]] = tensor.extract_slice %arg0[0, 0, 5, 0] [1, 16, 7, 5] [1, 1, 1, 1]
// CHECK: %[[C1:.*]] = dla.conv direct %[[I1]], %arg1 pad [0, 1, 0, 0] : tensor<1x16x7x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x6x5xf16>
// CHECK: %[[E0:.*]] = tensor.extract_slice %arg2[0, 0, 0, 0] [1, 16, 6, 5] [1, 1, 1, 1]
// CHECK: %[[S0:.*]] = dla.sdp on_the_fly %[[C0]] eltwise %[[E0]] : tensor<1x16x6x5xf16> relu : tensor<1x16x6x5xf16> -> tensor<1x16x6x5xf16>
// CHECK: %[[E1:.*]] = tensor.extract_slice %arg2[0, 0, 6, 0] [1, 16, 6, 5] [1, 1, 1, 1]
// CHECK: %[[S1:.*]] = dla.sdp on_the_fly %[[C1]] eltwise %[[E1]]
// CHECK: %[[Y:.*]] = tensor.concat dim(2) %[[S0]], %[[S1]]
// CHECK: return %[[Y]]
func.func @fused_sdp(%x: tensor<1x16x12x5xf16>, %w: tensor<16x16x3x1xf16>, %e: tensor<1x16x12x5xf16>) -> tensor<1x16x12x5xf16> {
  // expected-remark @+1 {{split into 2 convolutions of at most 6 output rows: its input takes 3 banks of the convolution buffer and its weights 2, the buffer has 4 of 8 entries (partial height; weights in 2 banks, at most 1792 bytes of input rows per part)}}
  %c = dla.conv direct %x, %w pad [1, 1, 0, 0] : tensor<1x16x12x5xf16>, tensor<16x16x3x1xf16> -> tensor<1x16x12x5xf16>
  %y = dla.sdp on_the_fly %c eltwise %e : tensor<1x16x12x5xf16> relu : tensor<1x16x12x5xf16> -> tensor<1x16x12x5xf16>
  return %y : tensor<1x16x12x5xf16>
}

