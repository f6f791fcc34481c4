// RUN: dla-opt %s --dla-outline-kernels | FileCheck %s --enable-var-scope

// A copy into a strided view (a padded input) becomes a linalg.copy kernel
// (memref.copy would call the runtime's memrefCopy, one memcpy per
// element); a copy between row-major buffers stays one memref.copy.
// CHECK-LABEL: func.func @copies
// CHECK: %[[V:.*]] = memref.subview
// CHECK: %[[CV:.*]] = memref.cast %[[V]] : memref<1x3x24x96xf32, strided<[7644, 2548, 98, 1], offset: 99>> to memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>>
// CHECK: call @[[COPY:__dla_kernel[_0-9]*]](%{{.*}}, %[[CV]]) {no_inline}
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<1x3x24x96xf32> to memref<1x3x24x96xf32>
// CHECK: func.func private @[[COPY]]
// CHECK-NEXT: linalg.copy
func.func @copies(%a: memref<1x3x24x96xf32>, %b: memref<1x3x26x98xf32>, %c: memref<1x3x24x96xf32>) {
  %view = memref.subview %b[0, 0, 1, 1] [1, 3, 24, 96] [1, 1, 1, 1]
      : memref<1x3x26x98xf32> to memref<1x3x24x96xf32, strided<[7644, 2548, 98, 1], offset: 99>>
  memref.copy %a, %view : memref<1x3x24x96xf32> to memref<1x3x24x96xf32, strided<[7644, 2548, 98, 1], offset: 99>>
  memref.copy %a, %c : memref<1x3x24x96xf32> to memref<1x3x24x96xf32>
  return
}
