// Channel views in a loadable (views.test): the two 8-channel halves of
// the input swapped, each read through a dla.channel_slice of the input
// and written into its place in the dla.channel_concat returned.
// nv_small: 8 int8 channels an atom, a 2 x 2 surface of 32 bytes; the
// second half starts 32 bytes into the input and into the result.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @swap(%x: tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>> {
  %lo = dla.channel_slice %x [0] : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  %hi = dla.channel_slice %x [8] : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  %a = dla.sdp offline %hi bs <alu = sum, alu_operand = 1> : tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  %b = dla.sdp offline %lo bs <alu = sum, alu_operand = 2> : tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>
  %y = dla.channel_concat %a, %b : tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>> -> tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>
  return %y : tensor<1x16x2x2xi8, #dla.feature<int8, config = nv_small>>
}
}
