// cvsram-conv-nv-large.test's program: its input in the CV-SRAM.
!d = tensor<1x8x2x2xi8, #dla.feature<int8, config = nv_large>>
!w = tensor<8x8x1x1xi8, #dla.weight<direct, int8, config = nv_large>>
module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @conv(%x: !d {dla.memory = "cvsram"}, %w: !w) -> !d {
  %c = dla.conv direct %x, %w : !d, !w -> tensor<1x8x2x2xi8>
  %y = dla.sdp on_the_fly %c bs <mul_operand = 1> : tensor<1x8x2x2xi8> -> !d
  return %y : !d
}
}
