// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" | FileCheck %s --enable-var-scope
// nv_full reads 64 channels per cube (atomic-C): a depthwise convolution of
// 70 channels runs as two dense convolutions over channels 0-63 and 64-69
// (the integer form on nv_small's 8: quant-tosa-layers.test).

// CHECK-LABEL: func.func @depthwise_slices
// CHECK-DAG:     %[[S0:.*]] = tosa.const_shape {values = dense<0> : tensor<4xindex>}
// CHECK-DAG:     %[[N0:.*]] = tosa.const_shape {values = dense<[1, 64, 3, 3]> : tensor<4xindex>}
// CHECK-DAG:     %[[S1:.*]] = tosa.const_shape {values = dense<[0, 64, 0, 0]> : tensor<4xindex>}
// CHECK-DAG:     %[[N1:.*]] = tosa.const_shape {values = dense<[1, 6, 3, 3]> : tensor<4xindex>}
// CHECK:         %[[H:.*]] = tosa.cast %{{.*}} : (tensor<1x70x3x3xf32>) -> tensor<1x70x3x3xf16>
// CHECK:         %[[P0:.*]] = tosa.slice %[[H]], %[[S0]], %[[N0]] : (tensor<1x70x3x3xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x64x3x3xf16>
// CHECK:         %[[C0:.*]] = dla.conv direct %[[P0]], %{{.*}} pad [1, 1, 1, 1] : tensor<1x64x3x3xf16>, tensor<64x64x3x3xf16> -> tensor<1x64x3x3xf16>
// CHECK:         %[[P1:.*]] = tosa.slice %[[H]], %[[S1]], %[[N1]] : (tensor<1x70x3x3xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x6x3x3xf16>
// CHECK:         %[[C1:.*]] = dla.conv direct %[[P1]], %{{.*}} pad [1, 1, 1, 1] : tensor<1x6x3x3xf16>, tensor<6x6x3x3xf16> -> tensor<1x6x3x3xf16>
// CHECK:         %[[CAT:.*]] = tosa.concat %[[C0]], %[[C1]] {axis = 1 : i32} : (tensor<1x64x3x3xf16>, tensor<1x6x3x3xf16>) -> tensor<1x70x3x3xf16>
// CHECK:         tosa.cast %[[CAT]] : (tensor<1x70x3x3xf16>) -> tensor<1x70x3x3xf32>
func.func @depthwise_slices(%x: tensor<1x3x3x70xf32>) -> tensor<1x3x3x70xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<3x3x70x1xf32>} : () -> tensor<3x3x70x1xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<70xf32>} : () -> tensor<70xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x3x70xf32>, tensor<3x3x70x1xf32>, tensor<70xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x70xf32>
  return %0 : tensor<1x3x3x70xf32>
}
