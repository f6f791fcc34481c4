// RUN: dla-opt %s | FileCheck %s
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --mlir-print-op-generic | dla-opt | FileCheck %s

// Every preset prints by name.
// CHECK-LABEL: func.func @presets
// CHECK-SAME: tensor<1x3x5x30xi8, #dla.chunked<flat>>
// CHECK-SAME: tensor<1x3x5x30xi8, #dla.chunked<nchw>>
// CHECK-SAME: tensor<1x3x5x30xi8, #dla.chunked<depth32>>
// CHECK-SAME: tensor<1x3x5x30xi8, #dla.chunked<crouton>>
// CHECK-SAME: tensor<1x3x5x30xi8, #dla.chunked<crouton4x1>>
// CHECK-SAME: tensor<1x3x5x30xi8, #dla.chunked<crouton2x2>>
// CHECK-SAME: tensor<1x3x5x30xi8, #dla.chunked<crouton2>>
// CHECK-SAME: tensor<3x3x64x96xf16, #dla.chunked<conv_weight>>
func.func @presets(%a: tensor<1x3x5x30xi8, #dla.chunked<flat>>,
                   %b: tensor<1x3x5x30xi8, #dla.chunked<nchw>>,
                   %c: tensor<1x3x5x30xi8, #dla.chunked<depth32>>,
                   %d: tensor<1x3x5x30xi8, #dla.chunked<crouton>>,
                   %e: tensor<1x3x5x30xi8, #dla.chunked<crouton4x1>>,
                   %f: tensor<1x3x5x30xi8, #dla.chunked<crouton2x2>>,
                   %g: tensor<1x3x5x30xi8, #dla.chunked<crouton2>>,
                   %h: tensor<3x3x64x96xf16, #dla.chunked<conv_weight>>) {
  return
}

// An explicit list equal to a preset prints as the preset; others as pairs.
// CHECK-LABEL: func.func @explicit
// CHECK-SAME: tensor<2x9x20x50xi32, #dla.chunked<crouton>>
// CHECK-SAME: tensor<1x4x4x64xi8, #dla.chunked<conv_weight>>
// CHECK-SAME: tensor<10x7xf32, #dla.chunked<[(1, 0), (0, 0), (0, 4), (1, 2)]>>
// CHECK-SAME: tensor<7xi16, #dla.chunked<[(0, 0)]>>
// CHECK-SAME: tensor<i64, #dla.chunked<[]>>
// CHECK-SAME: tensor<?x5xf16, #dla.chunked<[(0, 0), (1, 0), (1, 4)]>>
func.func @explicit(%a: tensor<2x9x20x50xi32, #dla.chunked<[(0,0),(1,0),(2,0),(3,0),(1,8),(2,8),(3,32)]>>,
                    %b: tensor<1x4x4x64xi8, #dla.chunked<[(3, 0), (2, 0), (0, 0), (1, 0), (2, 8), (3, 32), (2, 4)]>>,
                    %c: tensor<10x7xf32, #dla.chunked<[(1,0),(0,0),(0,4),(1,2)]>>,
                    %d: tensor<7xi16, #dla.chunked<[(0,0)]>>,
                    %e: tensor<i64, #dla.chunked<[]>>,
                    %f: tensor<?x5xf16, #dla.chunked<[(0,0),(1,0),(1,4)]>>) {
  return
}

// CHECK-LABEL: func.func @relayout
// CHECK-SAME: (%[[ARG:.*]]: tensor<2x9x20x50xi32>)
// CHECK: %[[P:.*]] = dla.relayout %[[ARG]] : tensor<2x9x20x50xi32> -> tensor<2x9x20x50xi32, #dla.chunked<crouton>>
// CHECK: %[[Q:.*]] = dla.relayout %[[P]] : tensor<2x9x20x50xi32, #dla.chunked<crouton>> -> tensor<2x9x20x50xi32, #dla.chunked<depth32>>
// CHECK: %[[R:.*]] = dla.relayout %[[Q]] : tensor<2x9x20x50xi32, #dla.chunked<depth32>> -> tensor<2x9x20x50xi32>
// CHECK: return %[[R]]
func.func @relayout(%arg0: tensor<2x9x20x50xi32>) -> tensor<2x9x20x50xi32> {
  %0 = "dla.relayout"(%arg0) : (tensor<2x9x20x50xi32>) -> tensor<2x9x20x50xi32, #dla.chunked<crouton>>
  %1 = dla.relayout %0 : tensor<2x9x20x50xi32, #dla.chunked<crouton>> -> tensor<2x9x20x50xi32, #dla.chunked<depth32>>
  %2 = dla.relayout %1 : tensor<2x9x20x50xi32, #dla.chunked<depth32>> -> tensor<2x9x20x50xi32>
  return %2 : tensor<2x9x20x50xi32>
}

// Dynamic sizes are allowed on tensors; they are laid out once known.
// CHECK-LABEL: func.func @dynamic
// CHECK: dla.relayout %{{.*}} : tensor<?x?x?x?xf16> -> tensor<?x?x?x?xf16, #dla.chunked<crouton>>
func.func @dynamic(%arg0: tensor<?x?x?x?xf16>) -> tensor<?x?x?x?xf16, #dla.chunked<crouton>> {
  %0 = dla.relayout %arg0 : tensor<?x?x?x?xf16> -> tensor<?x?x?x?xf16, #dla.chunked<crouton>>
  return %0 : tensor<?x?x?x?xf16, #dla.chunked<crouton>>
}
