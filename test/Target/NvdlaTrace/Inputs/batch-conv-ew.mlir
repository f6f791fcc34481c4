// batch-program.mlir's convolution with a per-element operand of its batch.
!x = tensor<2x8x4x4xi8, #dla.feature<int8, config = nv_full>>
!w = tensor<8x8x3x3xi8, #dla.weight<direct, int8, config = nv_full>>
!y = tensor<2x8x2x2xi8, #dla.feature<int8, config = nv_full>>
func.func @conv_ew(%x: !x, %w: !w, %e: !y) -> !y {
  %c = dla.conv direct %x, %w : !x, !w -> tensor<2x8x2x2xi8>
  %y = dla.sdp on_the_fly %c eltwise %e : !y bs <alu = sum, alu_operand = eltwise> : tensor<2x8x2x2xi8> -> !y
  return %y : !y
}
