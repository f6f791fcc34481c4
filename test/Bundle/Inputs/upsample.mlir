// A nearest upsampling by 2 x 2 (tosa.resize, asymmetric + floor, as
// dla-import-onnx writes ONNX's nearest Resize) of 16 channels, 4x4;
// NCHW at the boundary.
func.func @main(%x: tensor<1x16x4x4xf32>) -> tensor<1x16x8x8xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x16x4x4xf32>) -> tensor<1x4x4x16xf32>
  %s = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-2, -2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %t, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x16xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x16xf32>
  %y = tosa.transpose %r {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x16xf32>) -> tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}
