// p is read by two concatenations: a layer writes it into one join's view,
// and layout assignment copies it into the other's (a copy between feature
// layouts, test/Dialect/DLA/outline-nvdla-program.mlir's @copy_in_program).
func.func @joins(%x: tensor<1x32x4x4xi8>) -> (tensor<1x64x1x1xi8>, tensor<1x64x1x1xi8>) {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x32x4x4xi8> -> tensor<1x32x2x2xi8>
  %s = dla.sdp offline %p bs <alu = sum, alu_operand = 1> : tensor<1x32x2x2xi8> -> tensor<1x32x2x2xi8>
  %t = dla.sdp offline %p bs <alu = sum, alu_operand = 2> : tensor<1x32x2x2xi8> -> tensor<1x32x2x2xi8>
  %y = dla.channel_concat %p, %s : tensor<1x32x2x2xi8>, tensor<1x32x2x2xi8> -> tensor<1x64x2x2xi8>
  %z = dla.channel_concat %t, %p : tensor<1x32x2x2xi8>, tensor<1x32x2x2xi8> -> tensor<1x64x2x2xi8>
  %q = dla.pool max %y kernel [2, 2] stride [2, 2] : tensor<1x64x2x2xi8> -> tensor<1x64x1x1xi8>
  %r = dla.pool max %z kernel [2, 2] stride [2, 2] : tensor<1x64x2x2xi8> -> tensor<1x64x1x1xi8>
  return %q, %r : tensor<1x64x1x1xi8>, tensor<1x64x1x1xi8>
}
