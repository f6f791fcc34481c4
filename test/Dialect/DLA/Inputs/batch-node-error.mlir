// dla-opt-batch.mlir: an op that does not verify, at an imported ONNX node.
func.func @g(%a: tensor<1x5x4xf32>) -> tensor<1x5x4xf32> {
  %0 = tosa.add %a, %a : (tensor<1x5x4xf32>, tensor<1x5x4xf32>) -> tensor<1x5x4xi32> loc("add1"("m.onnx":0:0))
  return %0 : tensor<1x5x4xi32>
}
