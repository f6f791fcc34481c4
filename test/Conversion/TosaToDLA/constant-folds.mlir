// RUN: dla-opt %s --dla-convert-tosa=target=nv_full --split-input-file | FileCheck %s

// A convolution weight reached through layout ops on a dense_resource
// constant (as --tosa-optional-decompositions writes a transposed
// convolution's): the chain folds into one constant, the convolution is a
// dla.conv. Expected bytes by hand (the blob: its alignment, 8, then f32 little-endian: 1.0 = 0000803F,
// 2.0 = 00000040, 3.0 = 00004040, 4.0 = 00008040).
// OHWI const 1x1x1x2 = [1, 2]; pad W by (0, 1) with 0 -> [[1, 2], [0, 0]];
// reverse W -> [[0, 0], [1, 2]] (1x1x2x2: w = 0 holds (0, 0), w = 1 (1, 2)).
// The dla.conv's KCRS weight (k, c, r, s) = OHWI (k, r, s, c):
// c = 0: s = 0, 1 -> 0, 1; c = 1: 0, 2.
// CHECK-LABEL: func.func @pad_reverse
// CHECK-NOT: tosa.pad
// CHECK-NOT: tosa.reverse
// CHECK: dla.conv
func.func @pad_reverse(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x3x1xf32> {
  %w0 = "tosa.const"() {values = dense_resource<w0> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w1 = tosa.pad %w0, %padding, %zero : (tensor<1x1x1x2xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  %w = tosa.reverse %w1 {axis = 2 : i32} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zero, %zero {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3x1xf32>
  return %y : tensor<1x4x3x1xf32>
}
// CHECK: dialect_resources
// CHECK: dla_conv_weight: "0x08000000000000000000803F0000000000000040"

{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// OHWI 2x1x1x1 = [3, 4] reached through transpose(perms 3,1,2,0) of an
// IHWO 1x1x1x2 constant and a reshape: same bytes in the KCRS weight.
// CHECK-LABEL: func.func @transpose_reshape
// CHECK-NOT: tosa.transpose %
// CHECK: dla.conv
func.func @transpose_reshape(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x2xf32> {
  %w0 = "tosa.const"() {values = dense_resource<w1> : tensor<2xf32>} : () -> tensor<2xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w1 = tosa.reshape %w0, %shape : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x1x1x2xf32>
  %w = tosa.transpose %w1 {perms = array<i32: 3, 1, 2, 0>} : (tensor<1x1x1x2xf32>) -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zero, %zero {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}
// CHECK: dialect_resources
// CHECK: dla_conv_weight: "0x080000000000404000008040"

{-#
  dialect_resources: {
    builtin: {
      w1: "0x040000000000404000008040"
    }
  }
#-}
