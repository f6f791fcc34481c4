// RUN: dla-opt %s -canonicalize | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[ARG:.*]]: tensor<4x8xi8, #dla.chunked<[(0, 0), (1, 0), (1, 4)]>>)
// CHECK-NEXT: return %[[ARG]]
func.func @identity(%arg0: tensor<4x8xi8, #dla.chunked<[(0,0),(1,0),(1,4)]>>) -> tensor<4x8xi8, #dla.chunked<[(0,0),(1,0),(1,4)]>> {
  %0 = dla.relayout %arg0 : tensor<4x8xi8, #dla.chunked<[(0,0),(1,0),(1,4)]>> -> tensor<4x8xi8, #dla.chunked<[(0,0),(1,0),(1,4)]>>
  return %0 : tensor<4x8xi8, #dla.chunked<[(0,0),(1,0),(1,4)]>>
}

// A round trip through another layout is the identity on values.
// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[ARG:.*]]: tensor<1x3x5x30xi8>)
// CHECK-NEXT: return %[[ARG]]
func.func @round_trip(%arg0: tensor<1x3x5x30xi8>) -> tensor<1x3x5x30xi8> {
  %0 = dla.relayout %arg0 : tensor<1x3x5x30xi8> -> tensor<1x3x5x30xi8, #dla.chunked<crouton>>
  %1 = dla.relayout %0 : tensor<1x3x5x30xi8, #dla.chunked<crouton>> -> tensor<1x3x5x30xi8>
  return %1 : tensor<1x3x5x30xi8>
}

// A chain collapses into one relayout from the first source.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[ARG:.*]]: tensor<1x3x5x30xi8>)
// CHECK-NEXT: %[[R:.*]] = dla.relayout %[[ARG]] : tensor<1x3x5x30xi8> -> tensor<1x3x5x30xi8, #dla.chunked<depth32>>
// CHECK-NEXT: return %[[R]]
func.func @chain(%arg0: tensor<1x3x5x30xi8>) -> tensor<1x3x5x30xi8, #dla.chunked<depth32>> {
  %0 = dla.relayout %arg0 : tensor<1x3x5x30xi8> -> tensor<1x3x5x30xi8, #dla.chunked<crouton>>
  %1 = dla.relayout %0 : tensor<1x3x5x30xi8, #dla.chunked<crouton>> -> tensor<1x3x5x30xi8, #dla.chunked<depth32>>
  return %1 : tensor<1x3x5x30xi8, #dla.chunked<depth32>>
}
