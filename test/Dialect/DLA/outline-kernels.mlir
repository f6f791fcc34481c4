// RUN: dla-opt %s --dla-outline-kernels | FileCheck %s --enable-var-scope

// Each linalg op on buffers and each top-level loop nest becomes a call to a
// private no_inline function; operands are cast to dynamic sizes, so the two
// fills of different shapes share one kernel, the constant they write is
// cloned in. A convolution gets its output column innermost (after the
// reduction loops): the sums keep their order.

// CHECK-LABEL: func.func @layers
// CHECK-SAME: (%[[A:.*]]: memref<1x8x24x96xf32>, %[[B:.*]]: memref<1x8x12x48xf32>, %[[X:.*]]: memref<1x3x26x98xf32>, %[[W:.*]]: memref<8x3x3x3xf32>)
// CHECK: %[[CA:.*]] = memref.cast %[[A]] : memref<1x8x24x96xf32> to memref<?x?x?x?xf32>
// CHECK: call @[[FILL:__dla_kernel[_0-9]*]](%[[CA]]) {no_inline}
// CHECK: %[[CB:.*]] = memref.cast %[[B]] : memref<1x8x12x48xf32> to memref<?x?x?x?xf32>
// CHECK: call @[[FILL]](%[[CB]]) {no_inline}
// CHECK: call @[[CONV:__dla_kernel[_0-9]*]]({{.*}}) {no_inline} : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) -> ()
// CHECK: call @[[LOOP:__dla_kernel[_0-9]*]](%{{.*}}, %{{.*}}) {no_inline} : (memref<?x?x?x?xf32>, memref<?xf32, strided<[?], offset: ?>>) -> ()
// CHECK: return

// CHECK: func.func private @[[FILL]](%{{.*}}: memref<?x?x?x?xf32>) attributes {no_inline}
// CHECK-NEXT: arith.constant 0.000000e+00 : f32
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: return
// CHECK: func.func private @[[CONV]]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: func.func private @[[LOOP]]
// CHECK: scf.for
// CHECK-NOT: func.func private @__dla_kernel
func.func @layers(%a: memref<1x8x24x96xf32>, %b: memref<1x8x12x48xf32>,
                  %x: memref<1x3x26x98xf32>, %w: memref<8x3x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<1x8x24x96xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<1x8x12x48xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x3x26x98xf32>, memref<8x3x3x3xf32>) outs(%a : memref<1x8x24x96xf32>)
  %flat = memref.collapse_shape %a [[0, 1, 2, 3]] : memref<1x8x24x96xf32> into memref<18432xf32>
  %strided = memref.subview %flat[0] [96] [2] : memref<18432xf32> to memref<96xf32, strided<[2]>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  scf.for %i = %c0 to %c96 step %c1 {
    %v = memref.load %b[%c0, %c0, %c0, %c0] : memref<1x8x12x48xf32>
    memref.store %v, %strided[%i] : memref<96xf32, strided<[2]>>
  }
  return
}
