// RUN: dla-opt %s --dla-split-convolutions=weight-banks=nvidia -split-input-file -verify-diagnostics | FileCheck %s
// NVIDIA's order of the weights' banks (the choice by time: split-convolutions-weight-banks.mlir).

// nv_small: 56 lines of 448 entries (8 one-byte atoms a pixel, 8-byte
// entries) take 49 of its 32 banks; all weights (9 banks) stay, the 23
// other banks hold 26 input rows: 24 output rows of a 3-row window. The
// convolution stays one op over whole tensors (no slice, no concat): the
// register plan runs it as 3 hardware layers over bands of its buffers
// (test/NvdlaCModel/trace-conv-bands.test runs such bands).
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @nv_small_rows
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[Y:.*]] = dla.conv direct %arg0, %arg1 pad [1, 1, 1, 1] rows_per_part 24 : tensor<1x64x56x56xi8>, tensor<64x64x3x3xi8> -> tensor<1x64x56x56xi8>
// CHECK-NOT: tensor.concat
// CHECK: return %[[Y]]
func.func @nv_small_rows(%x: tensor<1x64x56x56xi8>, %w: tensor<64x64x3x3xi8>) -> tensor<1x64x56x56xi8> {
  // expected-remark @+1 {{runs as 3 hardware layers of at most 24 output rows over bands of its input and result (no host copies): its input takes 49 banks of the convolution buffer and its weights 9, the buffer has 32 of 512 entries (partial height; weights in 9 banks: all its weights, loaded once and reused by every part, at most 93184 bytes of input rows per part)}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x64x56x56xi8>, tensor<64x64x3x3xi8> -> tensor<1x64x56x56xi8>
  return %y : tensor<1x64x56x56xi8>
}
}

// -----

// The same layer fits nv_full (7 data banks, 2 weight banks of 16):
// unchanged, without a remark; a stale rows_per_part is dropped.
// CHECK-LABEL: func.func @nv_full_fits
// CHECK: dla.conv direct %arg0, %arg1 pad [1, 1, 1, 1] :
func.func @nv_full_fits(%x: tensor<1x64x56x56xi8>, %w: tensor<64x64x3x3xi8>) -> tensor<1x64x56x56xi8> {
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] rows_per_part 4 : tensor<1x64x56x56xi8>, tensor<64x64x3x3xi8> -> tensor<1x64x56x56xi8>
  return %y : tensor<1x64x56x56xi8>
}

// -----

// The segmentation network's stage-5 decoder layer (issue 45): 1024 int8
// channels of 20 columns are 2560 entries a line on nv_small; three lines
// (15 banks) do not fit beside one group of 8 kernels (8 * 1024 * 9 bytes,
// 18 banks). Cut by columns too: 7 output columns read 9 input columns,
// 1152 entries a line; 14 spare banks hold 6 lines, 4 output rows; 3
// column bands by 5 row bands, the fewest parts (NvdlaConvBufferTest's
// SplitsByWidthOnNvSmall). A part reads at most 6 rows of 1152 8-byte
// entries. rows_per_part records the rows of a column part; the register
// plan cuts the columns from the same buffer plan.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @seg_stage5d
// CHECK-NOT: tensor.extract_slice
// CHECK: dla.conv direct %arg0, %arg1 pad [1, 1, 1, 1] rows_per_part 4 :
// CHECK-NOT: tensor.concat
func.func @seg_stage5d(%x: tensor<1x1024x20x20xi8>, %w: tensor<512x1024x3x3xi8>) -> tensor<1x512x20x20xi8> {
  // expected-remark @+1 {{runs as 15 hardware layers of at most 4 output rows by 7 output columns (one row of its input, 20 columns, does not fit beside its weights; a part reads 9) over bands of its input and result (no host copies): its input takes 100 banks of the convolution buffer and its weights 1152, the buffer has 32 of 512 entries (partial height; weights in 18 banks: one kernel group, its weights read again by every part, at most 55296 bytes of input rows per part)}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x1024x20x20xi8>, tensor<512x1024x3x3xi8> -> tensor<1x512x20x20xi8>
  return %y : tensor<1x512x20x20xi8>
}
}

// -----

// 2048 int8 channels: one group of 8 3x3 kernels takes 36 banks, more than
// nv_small's 32; neither a row nor a column fits beside it. Only cutting
// the input channels would: fp16 only (split-convolutions-channels.mlir).
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @group_too_deep(%x: tensor<1x2048x4x4xi8>, %w: tensor<8x2048x3x3xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_small: convolution buffer: one output row reads 3 input rows of 1024 entries, 6 banks beside the 36 banks of its weights; the buffer has 32 banks of 512 entries; nor does one output column's window (768 entries a line): cutting its input channels, with the SDP adding each part's sums to the previous part's, is programmed for fp16 pipelines only (an integer pipeline's parts would hand on int16 partial sums through offline SDP adds: not programmed)}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x2048x4x4xi8>, tensor<8x2048x3x3xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}
}

// -----

// Winograd on nv_full: 256 fp16 channels = 16 atoms, 64x64 outputs: the
// extended input cube 68 x 68 takes 17 * 16 = 272 entries a line, 73 banks
// of 16. Not cut: NVIDIA's compiler runs such a layer direct.
func.func @winograd_too_large(%x: tensor<1x256x64x64xf16>, %w: tensor<16x256x3x3xf16>) -> tensor<1x16x64x64xf16> {
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_full: convolution buffer: the Winograd input takes 73 banks and one kernel group of transformed weights 4, the buffer has 16; NVIDIA's compiler runs such a layer as a direct convolution}}
  %y = dla.conv winograd %x, %w pad [1, 1, 1, 1] : tensor<1x256x64x64xf16>, tensor<16x256x3x3xf16> -> tensor<1x16x64x64xf16>
  return %y : tensor<1x16x64x64xf16>
}

// -----

// The same layer on 32 channels (2 atoms) and 28x28: cube 32 x 32, 16
// entries a line, 2 banks; it fits and stays one Winograd layer.
// CHECK-LABEL: func.func @winograd_fits
// CHECK: dla.conv winograd %arg0, %arg1 pad [1, 1, 1, 1]
func.func @winograd_fits(%x: tensor<1x32x28x28xf16>, %w: tensor<32x32x3x3xf16>) -> tensor<1x32x28x28xf16> {
  %y = dla.conv winograd %x, %w pad [1, 1, 1, 1] : tensor<1x32x28x28xf16>, tensor<32x32x3x3xf16> -> tensor<1x32x28x28xf16>
  return %y : tensor<1x32x28x28xf16>
}
