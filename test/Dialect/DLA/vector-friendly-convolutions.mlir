// RUN: dla-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dla-vector-friendly-convolutions))' | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dla-vector-friendly-convolutions),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},dla-vectorize-kernels)' | FileCheck %s --check-prefix=VEC

// A host convolution as tosa-to-linalg-named writes it (FHWC filter): the
// filter transposed to HWCF, the convolution nhwc_hwcf with the same
// strides and dilations; --dla-vectorize-kernels then makes it vector loops
// (it left the FHWC form alone: its filter reads the output channel first).

// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x9x9x16xf32>, %[[W:.*]]: tensor<24x3x3x16xf32>, %[[B:.*]]: tensor<1x4x4x24xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x3x16x24xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[W]] : tensor<24x3x3x16xf32>) outs(%[[E]] : tensor<3x3x16x24xf32>) permutation = [1, 2, 3, 0]
// CHECK: %[[Y:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %[[T]] : tensor<1x9x9x16xf32>, tensor<3x3x16x24xf32>) outs(%[[B]] : tensor<1x4x4x24xf32>)
// CHECK: return %[[Y]]
// VEC-LABEL: func.func @conv
// VEC: vector.maskedload
// VEC: arith.mulf {{.*}} : vector<16xf32>
func.func @conv(%x: tensor<1x9x9x16xf32>, %w: tensor<24x3x3x16xf32>, %b: tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32> {
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x16xf32>, tensor<24x3x3x16xf32>) outs(%b : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  return %y : tensor<1x4x4x24xf32>
}

// -----

// A depthwise convolution of multiplier 1: the HWC form between reshapes.

// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x10x10x32xf32>, %[[W:.*]]: tensor<3x3x32x1xf32>, %[[B:.*]]: tensor<1x8x8x32x1xf32>)
// CHECK: %[[W3:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1], [2, 3]] : tensor<3x3x32x1xf32> into tensor<3x3x32xf32>
// CHECK: %[[B4:.*]] = tensor.collapse_shape %[[B]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x8x8x32x1xf32> into tensor<1x8x8x32xf32>
// CHECK: %[[Y:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W3]] : tensor<1x10x10x32xf32>, tensor<3x3x32xf32>) outs(%[[B4]] : tensor<1x8x8x32xf32>)
// CHECK: %[[R:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 8, 8, 32, 1] : tensor<1x8x8x32xf32> into tensor<1x8x8x32x1xf32>
// CHECK: return %[[R]]
// VEC-LABEL: func.func @depthwise
// VEC: arith.mulf {{.*}} : vector<16xf32>
func.func @depthwise(%x: tensor<1x10x10x32xf32>, %w: tensor<3x3x32x1xf32>, %b: tensor<1x8x8x32x1xf32>) -> tensor<1x8x8x32x1xf32> {
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x32xf32>, tensor<3x3x32x1xf32>) outs(%b : tensor<1x8x8x32x1xf32>) -> tensor<1x8x8x32x1xf32>
  return %y : tensor<1x8x8x32x1xf32>
}

// -----

// A channel multiplier of 2 stays (its output's innermost dimension is the
// multiplier).

// CHECK-LABEL: func.func @multiplier
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm
func.func @multiplier(%x: tensor<1x10x10x4xf32>, %w: tensor<3x3x4x2xf32>, %b: tensor<1x8x8x4x2xf32>) -> tensor<1x8x8x4x2xf32> {
  %y = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x2xf32>) outs(%b : tensor<1x8x8x4x2xf32>) -> tensor<1x8x8x4x2xf32>
  return %y : tensor<1x8x8x4x2xf32>
}
