// A small network for dla-compile: a 3x3 convolution with bias and ReLU
// (offloaded), then exp (stays on the host: no NVDLA layer computes it).
// NCHW at the boundary, as dla-import-onnx writes it.
func.func @main(%x: tensor<1x3x6x5xf32>) -> tensor<1x4x6x5xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x6x5xf32>) -> tensor<1x6x5x3xf32>
  %w = "tosa.const"() {values = dense<[-0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500, 0.0000, 0.2500, 0.5000, 0.7500, -0.7500, -0.5000, -0.2500]> : tensor<108xf32>} : () -> tensor<108xf32>
  %ws = tosa.const_shape {values = dense<[4, 3, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w4 = tosa.reshape %w, %ws : (tensor<108xf32>, !tosa.shape<4>) -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() {values = dense<[0.5, -0.25, 0.125, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %t, %w4, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x6x5x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5x4xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4028234663852886e+38 : f32} : (tensor<1x6x5x4xf32>) -> tensor<1x6x5x4xf32>
  %e = tosa.exp %r : (tensor<1x6x5x4xf32>) -> tensor<1x6x5x4xf32>
  %y = tosa.transpose %e {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x6x5x4xf32>) -> tensor<1x4x6x5xf32>
  return %y : tensor<1x4x6x5xf32>
}
