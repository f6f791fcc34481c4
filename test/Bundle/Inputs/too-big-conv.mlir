// A convolution whose weights alone exceed nv_full's convolution buffer
// (7x7 over 8192 channels) and cannot be cut by rows: dla-compile's error
// after the remarks of the layers before it (test/Bundle/errors.test).
func.func @main(%arg0: tensor<1x4x4x8192xf32>) -> tensor<1x4x4x64xf32> {
  %w = "tosa.const"() {values = dense<0.01> : tensor<64x7x7x8192xf32>} : () -> tensor<64x7x7x8192xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<64xf32>} : () -> tensor<64xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.conv2d %arg0, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 3, 3, 3, 3>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8192xf32>, tensor<64x7x7x8192xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x64xf32>
  %1 = tosa.exp %0 : (tensor<1x4x4x64xf32>) -> tensor<1x4x4x64xf32>
  return %1 : tensor<1x4x4x64xf32>
}
