// ONNX's test_conv_with_strides_padding, compiled by hand: its weight input W
// (all ones in the test data) frozen, the convolution a dla.conv in fp16 with
// casts at the boundary, as --dla-convert-tosa produces it.
func.func @main(%x: tensor<1x1x7x5xf32>) -> tensor<1x1x4x3xf32> {
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf16>
  %h = tosa.cast %x : (tensor<1x1x7x5xf32>) -> tensor<1x1x7x5xf16>
  %c = dla.conv direct %h, %w stride [2, 2] pad [1, 1, 1, 1]
      : tensor<1x1x7x5xf16>, tensor<1x1x3x3xf16> -> tensor<1x1x4x3xf16>
  %y = tosa.cast %c : (tensor<1x1x4x3xf16>) -> tensor<1x1x4x3xf32>
  return %y : tensor<1x1x4x3xf32>
}
