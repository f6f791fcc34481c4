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

// A copy into the CV-SRAM (dla.memory, FeatureCopy.h) is a copy between
// memories even between equal encodings, and a round trip through it is
// two copies: neither folds.
// CHECK-LABEL: func.func @cvsram
// CHECK-SAME: (%[[ARG:.*]]: tensor<1x8x2x2xi8, #dla.feature<int8>>)
// CHECK-NEXT: %[[S:.*]] = dla.relayout %[[ARG]] {dla.memory = "cvsram"} : tensor<1x8x2x2xi8, #dla.feature<int8>> -> tensor<1x8x2x2xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[D:.*]] = dla.relayout %[[S]] : tensor<1x8x2x2xi8, #dla.feature<int8>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96>>
// CHECK-NEXT: return %[[S]], %[[D]]
func.func @cvsram(%arg0: tensor<1x8x2x2xi8, #dla.feature<int8>>) -> (tensor<1x8x2x2xi8, #dla.feature<int8>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96>>) {
  %0 = dla.relayout %arg0 {dla.memory = "cvsram"} : tensor<1x8x2x2xi8, #dla.feature<int8>> -> tensor<1x8x2x2xi8, #dla.feature<int8>>
  %1 = dla.relayout %0 : tensor<1x8x2x2xi8, #dla.feature<int8>> -> tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96>>
  return %0, %1 : tensor<1x8x2x2xi8, #dla.feature<int8>>, tensor<1x8x2x2xi8, #dla.feature<int8, line_stride = 96>>
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
