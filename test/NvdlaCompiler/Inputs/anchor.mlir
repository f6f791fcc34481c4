// The anchor network (test/NvdlaCompiler, docs/NvidiaCompilerAnchor.md) in
// the project's dialect, as NVIDIA's compiler quantized it: conv 3x3 pad 1
// with its on-the-fly SDP adding the int16 per-channel bias (BS, from
// memory) and ReLU, the output converter NVIDIA's loadable programs
// (scale 28312, shift 23); max pool 2x2 stride 2; conv 1x1 with bias and
// the converter (29330, 22). The weights and biases are arguments: the
// test feeds NVIDIA's packed bytes as their storage.
!in = tensor<1x8x8x8xi8, #dla.feature<int8, config = nv_small>>
!w1 = tensor<16x8x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
!b1 = tensor<16xi16, #dla.bias<per_channel, int16, config = nv_small>>
!a1 = tensor<1x16x8x8xi8, #dla.feature<int8, config = nv_small>>
!p1 = tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>>
!w2 = tensor<8x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
!b2 = tensor<8xi16, #dla.bias<per_channel, int16, config = nv_small>>
!out = tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @anchor(%x: !in, %w1: !w1, %b1: !b1, %w2: !w2, %b2: !b2) -> !out {
  %c1 = dla.conv direct %x, %w1 pad [1, 1, 1, 1] : !in, !w1 -> tensor<1x16x8x8xi8>
  %s1 = dla.sdp on_the_fly %c1 bias %b1 : !b1 bs <alu = sum, alu_operand = bias, relu = true>
      out_cvt <offset = 0, scale = 28312, shift = 23> : tensor<1x16x8x8xi8> -> !a1
  %p = dla.pool max %s1 kernel [2, 2] stride [2, 2] : !a1 -> !p1
  %c2 = dla.conv direct %p, %w2 : !p1, !w2 -> tensor<1x8x4x4xi8>
  %s2 = dla.sdp on_the_fly %c2 bias %b2 : !b2 bs <alu = sum, alu_operand = bias>
      out_cvt <offset = 0, scale = 29330, shift = 22> : tensor<1x8x4x4xi8> -> !out
  return %s2 : !out
}
}
