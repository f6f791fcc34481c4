// RUN: dla-opt %s --dla-split-convolutions -split-input-file -verify-diagnostics | FileCheck %s

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
  // expected-remark @+1 {{runs as 3 hardware layers of at most 24 output rows over bands of its input and result (no host copies): its input takes 49 banks of the convolution buffer and its weights 9, the buffer has 32 of 512 entries (partial height; weights in 9 banks, at most 93184 bytes of input rows per part)}}
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

// One pixel of 1024 int8 channels is 128 entries on nv_small: a row of
// 1024 pixels takes 256 banks, more than the buffer.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @row_too_wide(%x: tensor<1x1024x4x1024xi8>, %w: tensor<8x1024x1x1xi8>) -> tensor<1x8x4x1024xi8> {
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_small: convolution buffer: one output row reads 1 input rows of 131072 entries, 256 banks beside the 2 banks of its weights; the buffer has 32 banks of 512 entries}}
  %y = dla.conv direct %x, %w : tensor<1x1024x4x1024xi8>, tensor<8x1024x1x1xi8> -> tensor<1x8x4x1024xi8>
  return %y : tensor<1x8x4x1024xi8>
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
