// RUN: dla-opt %s --dla-convert-tosa -split-input-file -verify-diagnostics | FileCheck %s
// Windows the PDP registers cannot hold (KERNEL_WIDTH_1..8, 3-bit padding)
// become chains of dla.pool layers with the same result, with a remark;
// what no chain computes, and convolutions beyond the CSC / CDMA fields,
// stay on the host saying which field (docs/IntegerAttributes.md decision 20).

// Max 12x12 stride 3, padding 5: max over 8x8 (all the padding) then 5x5
// with the stride; 8 + 5 - 1 = 12. 20 + 10 - 8 + 1 = 23, (23 - 5) / 3 + 1 = 7.
// CHECK-LABEL: func.func @max_12
// CHECK:         %[[A:.*]] = dla.pool max %{{.*}} kernel [8, 8] pad [5, 5, 5, 5] : tensor<1x2x20x20xf16> -> tensor<1x2x23x23xf16>
// CHECK:         dla.pool max %[[A]] kernel [5, 5] stride [3, 3] : tensor<1x2x23x23xf16> -> tensor<1x2x7x7xf16>
// CHECK-NOT:     tosa.max_pool2d
func.func @max_12(%x: tensor<1x20x20x2xf32>) -> tensor<1x7x7x2xf32> {
  // expected-remark @+1 {{split into 2 dla.pool layers of kernels [8, 8], [5, 5]: its kernel height 12 is outside 1..8 (KERNEL_HEIGHT: 4-bit enum KERNEL_HEIGHT_1..8) (max over overlapping windows, exact)}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 12, 12>, stride = array<i64: 3, 3>, pad = array<i64: 5, 5, 5, 5>} : (tensor<1x20x20x2xf32>) -> tensor<1x7x7x2xf32>
  return %0 : tensor<1x7x7x2xf32>
}

// -----

// One dimension too wide: 20 = 8 + 8 + 6 - 2; the height's 3 goes last.
// CHECK-LABEL: func.func @max_3x20
// CHECK:         %[[A:.*]] = dla.pool max %{{.*}} kernel [1, 8] : tensor<1x2x4x24xf16> -> tensor<1x2x4x17xf16>
// CHECK:         %[[B:.*]] = dla.pool max %[[A]] kernel [1, 8] : tensor<1x2x4x17xf16> -> tensor<1x2x4x10xf16>
// CHECK:         dla.pool max %[[B]] kernel [3, 6] : tensor<1x2x4x10xf16> -> tensor<1x2x2x5xf16>
func.func @max_3x20(%x: tensor<1x4x24x2xf32>) -> tensor<1x2x5x2xf32> {
  // expected-remark @+1 {{split into 3 dla.pool layers of kernels [1, 8], [1, 8], [3, 6]: its kernel width 20 is outside 1..8 (KERNEL_WIDTH: 4-bit enum KERNEL_WIDTH_1..8)}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 20>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x4x24x2xf32>) -> tensor<1x2x5x2xf32>
  return %0 : tensor<1x2x5x2xf32>
}

// -----

// A global average pool of 24x96 (PaddleOCR's squeeze-excitation): means of
// equal, non-overlapping sub-windows, 24 = 8 x 3, 96 = 8 x 6 x 2.
// CHECK-LABEL: func.func @global_average
// CHECK:         %[[A:.*]] = dla.pool average %{{.*}} kernel [1, 8] stride [1, 8] : tensor<1x8x24x96xf16> -> tensor<1x8x24x12xf16>
// CHECK:         %[[B:.*]] = dla.pool average %[[A]] kernel [8, 6] stride [8, 6] : tensor<1x8x24x12xf16> -> tensor<1x8x3x2xf16>
// CHECK:         dla.pool average %[[B]] kernel [3, 2] : tensor<1x8x3x2xf16> -> tensor<1x8x1x1xf16>
func.func @global_average(%x: tensor<1x24x96x8xf32>) -> tensor<1x1x1x8xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{split into 3 dla.pool layers of kernels [1, 8], [8, 6], [3, 2]: its kernel height 24 is outside 1..8 (KERNEL_HEIGHT: 4-bit enum KERNEL_HEIGHT_1..8) (mean of equal sub-window means; fp16 rounds once per layer)}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 24, 96>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x24x96x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x8xf32>
  return %0 : tensor<1x1x1x8xf32>
}

// -----

// Two outputs: the stride (8) steps over whole 8-row sub-windows.
// CHECK-LABEL: func.func @average_strided
// CHECK:         %[[A:.*]] = dla.pool average %{{.*}} kernel [8, 1] stride [8, 1] : tensor<1x2x24x1xf16> -> tensor<1x2x3x1xf16>
// CHECK:         dla.pool average %[[A]] kernel [2, 1] : tensor<1x2x3x1xf16> -> tensor<1x2x2x1xf16>
func.func @average_strided(%x: tensor<1x24x1x2xf32>) -> tensor<1x2x1x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{split into 2 dla.pool layers}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 16, 1>, stride = array<i64: 8, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x24x1x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1x2xf32>
  return %0 : tensor<1x2x1x2xf32>
}

// -----

// CHECK-LABEL: func.func @average_misaligned
// CHECK:         tosa.avg_pool2d
func.func @average_misaligned(%x: tensor<1x20x1x2xf32>) -> tensor<1x2x1x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its kernel height 16 is outside 1..8 (KERNEL_HEIGHT: 4-bit enum KERNEL_HEIGHT_1..8) and its stride 4 does not step over whole sub-windows of 8}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 16, 1>, stride = array<i64: 4, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x20x1x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1x2xf32>
  return %0 : tensor<1x2x1x2xf32>
}

// -----

// CHECK-LABEL: func.func @average_prime
// CHECK:         tosa.avg_pool2d
func.func @average_prime(%x: tensor<1x11x11x2xf32>) -> tensor<1x1x1x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its kernel height 11 is outside 1..8 (KERNEL_HEIGHT: 4-bit enum KERNEL_HEIGHT_1..8) and its window 11 has a prime factor above 8}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 11, 11>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x11x11x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// -----

// CHECK-LABEL: func.func @max_stride_17
// CHECK:         tosa.max_pool2d
func.func @max_stride_17(%x: tensor<1x18x1x2xf32>) -> tensor<1x2x1x2xf32> {
  // expected-remark @+1 {{stays on the host: its stride height 17 is outside 1..16 (KERNEL_STRIDE_HEIGHT: 4 bits, stride - 1) and a chain of pooling layers does not split strides}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 1, 1>, stride = array<i64: 17, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x18x1x2xf32>) -> tensor<1x2x1x2xf32>
  return %0 : tensor<1x2x1x2xf32>
}

// -----

// CHECK-LABEL: func.func @conv_kernel_33
// CHECK:         tosa.conv2d
func.func @conv_kernel_33(%x: tensor<1x1x40x2xf32>) -> tensor<1x1x8x3xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<3x1x33x2xf32>} : () -> tensor<3x1x33x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its kernel width 33 is outside 1..32 (WEIGHT_WIDTH_EXT: 5 bits, width - 1)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x40x2xf32>, tensor<3x1x33x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x8x3xf32>
  return %0 : tensor<1x1x8x3xf32>
}

// -----

// CHECK-LABEL: func.func @conv_stride_9
// CHECK:         tosa.conv2d
func.func @conv_stride_9(%x: tensor<1x10x1x2xf32>) -> tensor<1x2x1x3xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<3x1x1x2xf32>} : () -> tensor<3x1x1x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its stride height 9 is outside 1..8 (CONV_Y_STRIDE: 3 bits, stride - 1)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 9, 1>} : (tensor<1x10x1x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1x3xf32>
  return %0 : tensor<1x2x1x3xf32>
}

// -----

// CHECK-LABEL: func.func @depthwise_dilation_33
// CHECK:         tosa.depthwise_conv2d
func.func @depthwise_dilation_33(%x: tensor<1x1x34x2xf32>) -> tensor<1x1x1x2xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<1x2x2x1xf32>} : () -> tensor<1x2x2x1xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its dilation width 33 is outside 1..32 (X_DILATION_EXT: 5 bits, dilation - 1)}}
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 33>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x34x2xf32>, tensor<1x2x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// -----

// CHECK-LABEL: func.func @conv_pad_32
// CHECK:         tosa.conv2d
func.func @conv_pad_32(%x: tensor<1x1x1x2xf32>) -> tensor<1x33x1x3xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<3x1x1x2xf32>} : () -> tensor<3x1x1x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its top padding 32 is outside 0..31 (PAD_TOP: 5-bit unsigned)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 32, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x33x1x3xf32>
  return %0 : tensor<1x33x1x3xf32>
}
