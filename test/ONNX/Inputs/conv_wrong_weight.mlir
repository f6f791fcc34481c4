// As conv_with_strides_padding.mlir with one weight wrong (2 instead of 1):
// dla-run-onnx must report the mismatch and fail.
func.func @main(%x: tensor<1x1x7x5xf32>) -> tensor<1x1x4x3xf32> {
  %w = arith.constant dense<[[[[1.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, 1.0]]]]> : tensor<1x1x3x3xf16>
  %h = tosa.cast %x : (tensor<1x1x7x5xf32>) -> tensor<1x1x7x5xf16>
  %c = dla.conv direct %h, %w stride [2, 2] pad [1, 1, 1, 1]
      : tensor<1x1x7x5xf16>, tensor<1x1x3x3xf16> -> tensor<1x1x4x3xf16>
  %y = tosa.cast %c : (tensor<1x1x4x3xf16>) -> tensor<1x1x4x3xf32>
  return %y : tensor<1x1x4x3xf32>
}
