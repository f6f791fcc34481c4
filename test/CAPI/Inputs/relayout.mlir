func.func @f() -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>> {
  %c = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi8>
  %p = dla.relayout %c : tensor<2x3xi8> -> tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>
  return %p : tensor<2x3xi8, #dla.chunked<[(0,0),(1,0),(0,4)]>>
}
