// batch-program.mlir's int8 convolution whose SDP on the fly writes int16.
!x = tensor<2x8x4x4xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_full>>
!y = tensor<2x8x2x2xi16, #dla.feature<int16, config = nv_full>>
func.func @conv_int16(%x: !x, %w: !w) -> !y {
  %c = dla.conv direct %x, %w : !x, !w -> tensor<2x8x2x2xi8>
  %y = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 3> : tensor<2x8x2x2xi8> -> !y
  return %y : !y
}
