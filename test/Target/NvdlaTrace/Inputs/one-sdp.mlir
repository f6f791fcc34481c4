// One offline SDP layer on 1x8x2x2 int8 data (32 bytes) for invalid-io.test.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @one(%x: tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> {
  %y = dla.sdp offline %x bs <mul_operand = 2> : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}
