// RUN: dla-opt %s --dla-lower-to-reference | FileCheck %s
// Channel views without encoding (layouts not assigned) are a plain
// channel slice and concatenation.

// CHECK-LABEL: func.func @plain
// CHECK:         %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 3, 0, 0] [2, 4, 3, 3] [1, 1, 1, 1] : tensor<2x7x3x3xf16> to tensor<2x4x3x3xf16>
// CHECK:         tensor.concat dim(1) %[[S]], %{{.*}} : (tensor<2x4x3x3xf16>, tensor<2x7x3x3xf16>) -> tensor<2x11x3x3xf16>
// CHECK-NOT:     dla.channel
func.func @plain(%x: tensor<2x7x3x3xf16>) -> tensor<2x11x3x3xf16> {
  %v = dla.channel_slice %x [3] : tensor<2x7x3x3xf16> -> tensor<2x4x3x3xf16>
  %y = dla.channel_concat %v, %x : tensor<2x4x3x3xf16>, tensor<2x7x3x3xf16> -> tensor<2x11x3x3xf16>
  return %y : tensor<2x11x3x3xf16>
}

// A padded concatenation without encoding: its gaps hold zeros.
// CHECK-LABEL: func.func @padded
// CHECK:         %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1x17x2x2xf16>
// CHECK:         %[[A:.*]] = tensor.insert_slice %{{.*}} into %[[Z]][0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 1, 1] : tensor<1x1x2x2xf16> into tensor<1x17x2x2xf16>
// CHECK:         tensor.insert_slice %{{.*}} into %[[A]][0, 16, 0, 0] [1, 1, 2, 2] [1, 1, 1, 1] : tensor<1x1x2x2xf16> into tensor<1x17x2x2xf16>
// CHECK-NOT:     dla.channel
func.func @padded(%a: tensor<1x1x2x2xf16>, %b: tensor<1x1x2x2xf16>) -> tensor<1x17x2x2xf16> {
  %y = dla.channel_concat %a, %b at [0, 16] : tensor<1x1x2x2xf16>, tensor<1x1x2x2xf16> -> tensor<1x17x2x2xf16>
  return %y : tensor<1x17x2x2xf16>
}
