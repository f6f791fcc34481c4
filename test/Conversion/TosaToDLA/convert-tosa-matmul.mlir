// RUN: dla-opt %s --dla-convert-tosa -split-input-file -verify-diagnostics | FileCheck %s
// A product by a constant matrix (ONNX Gemm / MatMul) is a 1x1 convolution:
// A [n, M, K] as NHWC [n, 1, M, K], B [K, P] as the P kernels of K channels;
// Gemm's per-column constant C is the layer's bias.

// Gemm: [1, 3] x [3, 2] + C. Kernel p holds column p of B: KCRS [2, 3, 1, 1]
// = B transposed (1, 3, 5 and 2, 4, 6); the bias is C (0.5, -1).
// CHECK-LABEL: func.func @gemm
// CHECK-DAG:     %[[B:.*]] = arith.constant dense_resource<dla_conv_bias> : tensor<2xf32>
// CHECK-DAG:     %[[W:.*]] = arith.constant dense_resource<dla_conv_weight> : tensor<2x3x1x1xf32>
// CHECK-DAG:     %[[WH:.*]] = arith.truncf %[[W]] : tensor<2x3x1x1xf32> to tensor<2x3x1x1xf16>
// CHECK-DAG:     %[[BH:.*]] = arith.truncf %[[B]] : tensor<2xf32> to tensor<2xf16>
// CHECK:         dla.conv direct %{{.*}}, %[[WH]], %[[BH]] : tensor<1x3x1x1xf16>, tensor<2x3x1x1xf16>, tensor<2xf16> -> tensor<1x2x1x1xf16>
// CHECK-NOT:     tosa.matmul
// CHECK-NOT:     tosa.add
// (f32 little endian: 0.5, -1; 1, 3, 5, 2, 4, 6.)
// CHECK:         dla_conv_bias: "0x080000000000003F000080BF"
// CHECK:         dla_conv_weight: "0x080000000000803F000040400000A04000000040000080400000C040"
func.func @gemm(%a: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = "tosa.const"() {values = dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  %c = "tosa.const"() {values = dense<[[0.5, -1.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %a3 = tosa.reshape %a, %s3 : (tensor<1x3xf32>, !tosa.shape<3>) -> tensor<1x1x3xf32>
  %m = tosa.matmul %a3, %w, %zp, %zp : (tensor<1x1x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32>
  %m2 = tosa.reshape %m, %s2 : (tensor<1x1x2xf32>, !tosa.shape<2>) -> tensor<1x2xf32>
  %y = tosa.add %m2, %c : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// Rows of A are pixels: a [2, 5, 4] x [4, 3] product (the same B on both
// batches, as the importer broadcasts a 2-D weight) is one convolution over
// a 2x4x1x5 NCHW map, no bias.
// CHECK-LABEL: func.func @rows
// CHECK:         dla.conv direct %{{.*}}, %{{.*}} : tensor<2x4x1x5xf16>, tensor<3x4x1x1xf16> -> tensor<2x3x1x5xf16>
// CHECK-NOT:     tosa.matmul
// (Kernel p is column p of B: 1 4 7 1, 2 5 8 0, 3 6 9 -1.)
// CHECK:         dla_conv_weight: "0x080000000000803F000080400000E0400000803F000000400000A0400000004100000000000040400000C04000001041000080BF"
func.func @rows(%a: tensor<2x5x4xf32>) -> tensor<2x5x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = "tosa.const"() {values = dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 0.0, -1.0]],
                                       [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.0, 0.0, -1.0]]]> : tensor<2x4x3xf32>} : () -> tensor<2x4x3xf32>
  %m = tosa.matmul %a, %w, %zp, %zp : (tensor<2x5x4xf32>, tensor<2x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x3xf32>
  return %m : tensor<2x5x3xf32>
}

// -----

func.func @two_maps(%a: tensor<1x5x4xf32>, %b: tensor<1x4x3xf32>) -> tensor<1x5x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its right operand is not a constant: the convolution pipeline multiplies a feature map by packed weights, and no unit multiplies two feature maps as matrices}}
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x5x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x3xf32>
  return %m : tensor<1x5x3xf32>
}

// -----

func.func @batches_differ(%a: tensor<2x1x2xf32>) -> tensor<2x1x1xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = "tosa.const"() {values = dense<[[[1.0], [2.0]], [[3.0], [4.0]]]> : tensor<2x2x1xf32>} : () -> tensor<2x2x1xf32>
  // expected-remark @+1 {{stays on the host: its constant right operand differs between batches (a 1x1 convolution has one set of kernels)}}
  %m = tosa.matmul %a, %w, %zp, %zp : (tensor<2x1x2xf32>, tensor<2x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x1x1xf32>
  return %m : tensor<2x1x1xf32>
}
