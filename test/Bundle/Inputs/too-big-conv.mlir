// A convolution whose weights alone exceed nv_full's convolution buffer
// and cannot be cut by rows, columns or input channels (one atom of 16
// channels by 16 kernels of 32x32 fills all 16 banks): dla-compile's error
// after the remarks of the layers before it (test/Bundle/errors.test).
func.func @main(%arg0: tensor<1x40x40x64xf32>) -> tensor<1x9x9x64xf32> {
  %w = "tosa.const"() {values = dense<0.01> : tensor<64x32x32x64xf32>} : () -> tensor<64x32x32x64xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<64xf32>} : () -> tensor<64xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.conv2d %arg0, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x40x40x64xf32>, tensor<64x32x32x64xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x64xf32>
  %1 = tosa.exp %0 : (tensor<1x9x9x64xf32>) -> tensor<1x9x9x64xf32>
  return %1 : tensor<1x9x9x64xf32>
}
