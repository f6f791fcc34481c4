// batch-program.mlir's PDP on a batch of 2.
!x = tensor<2x8x4x4xi8, #dla.feature<int8, config = nv_full>>
!y = tensor<2x8x2x2xi8, #dla.feature<int8, config = nv_full>>
func.func @pool(%x: !x) -> !y {
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : !x -> !y
  return %y : !y
}
