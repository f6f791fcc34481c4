// A convolution with its SDP, then a PDP reading its result: the
// structure of the loadable (writer.test).
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @two(%x: tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  %w = arith.constant dense_resource<w> : tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  %c = dla.conv direct %x, %w : tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>, tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x8x4x4xi8>
  %s = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 1> : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
  %y = dla.pool max %s kernel [2, 2] stride [2, 2] pad [0, 0, 0, 0] : tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x0800000001000000000000000001000000000000000001000000000000000001000000000000000001000000000000000001000000000000000001000000000000000001"
    }
  }
#-}
