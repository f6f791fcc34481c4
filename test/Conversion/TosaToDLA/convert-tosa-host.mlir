// RUN: dla-opt %s --dla-convert-tosa -split-input-file -verify-diagnostics | FileCheck %s
// Every TOSA op the target cannot run stays, with a remark saying why
// (and two clamps that once did, now offloaded).

// Bounded clamps are no longer host ops: the SDP's MAX / MIN (dla.clamp).
// ReLU6, and a clamp below only (the upper bound at fp16's largest).
// CHECK-LABEL: func.func @relu6
// CHECK:         dla.clamp %{{.*}} min 0.000000e+00 max 6.000000e+00 : tensor<1x2x2x2xf16> -> tensor<1x2x2x2xf16>
func.func @relu6(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @clamp_below
// CHECK:         dla.clamp %{{.*}} min -1.000000e+00 max 6.550400e+04
func.func @clamp_below(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = tosa.clamp %x {min_val = -1.0 : f32, max_val = 0x7F800000 : f32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @clamp_matrix(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-remark @+1 {{stays on the host: it is not applied to a rank-4 feature map}}
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 0x7F800000 : f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @padded_average(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: padded average pooling divides by the count of valid elements, which dla.pool does not}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

func.func @weight_argument(%x: tensor<1x4x4x2xf32>, %w: tensor<3x1x1x2xf32>) -> tensor<1x4x4x3xf32> {
  %b = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its weight is not a constant (the convolution pipeline reads packed weights)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @dynamic(%x: tensor<1x?x?x2xf32>) -> tensor<1x?x?x3xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<3x1x1x2xf32>} : () -> tensor<3x1x1x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: its shape is not static (fix the input shapes when importing)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x?x?x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?x3xf32>
  return %0 : tensor<1x?x?x3xf32>
}

// -----

func.func @deconvolution(%x: tensor<1x2x2x2xf32>) -> tensor<1x4x4x3xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<3x2x2x2xf32>} : () -> tensor<3x2x2x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: dla.conv has no deconvolution mode}}
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x2x2x2xf32>, tensor<3x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @zero_scale(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %a = "tosa.const"() {values = dense<[[[[0.0, 1.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: a zero scale cannot run as batch-norm's add-then-multiply}}
  %0 = tosa.mul %x, %a, %shift : (tensor<1x2x2x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @add_plane(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = "tosa.const"() {values = dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>} : () -> tensor<1x2x2x1xf32>
  // expected-remark @+1 {{stays on the host: it adds neither two feature maps of one shape nor a per-channel constant}}
  %0 = tosa.add %x, %c : (tensor<1x2x2x2xf32>, tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// A float sigmoid runs on the SDP's LUT in float mode, on a feature map
// (convert-tosa-table.mlir); not on a matrix.
func.func @sigmoid(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-remark @+1 {{stays on the host: it is not a static rank-4 feature map}}
  %0 = tosa.sigmoid %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
