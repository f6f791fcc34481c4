// Four 16-channel 4x4 fp16 phase maps interleaved by 2 x 2 (a transposed
// convolution's pixel shuffle) into 8x8.
func.func @main(%a: tensor<1x16x4x4xf16>, %b: tensor<1x16x4x4xf16>, %c: tensor<1x16x4x4xf16>, %d: tensor<1x16x4x4xf16>) -> tensor<1x16x8x8xf16> {
  %y = dla.interleave %a, %b, %c, %d factors [2, 2] : tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}
