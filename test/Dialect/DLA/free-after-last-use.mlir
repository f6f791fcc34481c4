// RUN: dla-opt %s -split-input-file --ownership-based-buffer-deallocation --dla-free-after-last-use | FileCheck %s
// Buffers of a block freed after their last use (a view's use counts),
// not at the block's end; what is returned, reaches a call, or is used in
// another block keeps the block-end dealloc.

// CHECK-LABEL: func.func @chain
// CHECK:         %[[A:.*]] = memref.alloc()
// CHECK:         linalg.fill {{.*}} outs(%[[A]]
// CHECK:         %[[V:.*]] = memref.subview %[[A]]
// CHECK:         %[[B:.*]] = memref.alloc()
// CHECK:         memref.copy %[[V]], %{{.*}}
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    %[[R:.*]] = memref.alloc()
// CHECK-NEXT:    memref.copy %[[B]], %[[R]]
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK-NOT:     memref.dealloc
// CHECK:         bufferization.dealloc (%{{.*}}, %{{.*}} : memref<f32>, memref<f32>) if (%false, %true) retain (%[[R]] : memref<8xf32>)
// CHECK-NEXT:    return %[[R]]
func.func @chain(%x: memref<8xf32>, %c: f32) -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<8xf32>)
  %v = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %b = memref.alloc() : memref<8xf32>
  memref.copy %x, %b : memref<8xf32> to memref<8xf32>
  %w = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %v, %w : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1]>>
  %r = memref.alloc() : memref<8xf32>
  memref.copy %b, %r : memref<8xf32> to memref<8xf32>
  return %r : memref<8xf32>
}

// -----

// Used in a loop: freed after the loop. A view of it returned: kept.
// CHECK-LABEL: func.func @loop_and_view
// CHECK:         %[[A:.*]] = memref.alloc()
// CHECK:         %[[B:.*]] = memref.alloc()
// CHECK:         scf.for
// CHECK:           memref.load %[[A]]
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NOT:     memref.dealloc
// CHECK:         bufferization.dealloc ({{.*}}) if ({{.*}}) retain (%{{.*}} : memref<4xf32, strided<[1]>>)
func.func @loop_and_view(%x: memref<8xf32>) -> memref<4xf32, strided<[1]>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8xf32>
  memref.copy %x, %a : memref<8xf32> to memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %e = memref.load %a[%i] : memref<8xf32>
    memref.store %e, %b[%i] : memref<8xf32>
  }
  %v = memref.subview %b[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  return %v : memref<4xf32, strided<[1]>>
}

// -----

// Passed to a call (which may keep it): the block-end dealloc frees it.
// CHECK-LABEL: func.func @call
// CHECK-NOT:     memref.dealloc
// CHECK:         bufferization.dealloc
func.func private @keep(memref<8xf32>)
func.func @call(%x: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  memref.copy %x, %a : memref<8xf32> to memref<8xf32>
  func.call @keep(%a) : (memref<8xf32>) -> ()
  memref.copy %x, %x : memref<8xf32> to memref<8xf32>
  return
}
