// dla-opt-batch.mlir: a remark at an imported ONNX node (the right operand
// of a matmul is not a constant: it stays on the host).
func.func @two_maps(%a: tensor<1x5x4xf32>, %b: tensor<1x4x3xf32>) -> tensor<1x5x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x5x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x3xf32> loc("mm1"("m.onnx":0:0))
  return %m : tensor<1x5x3xf32>
}
