// RUN: dla-opt %s --dla-flatten-globals | FileCheck %s --enable-var-scope

// Globals of rank 2 or more become rank 1 with the same elements (dense and
// resource values alike, alignment and constness kept); each get_global
// reads the flat global and expands it back to the type its users know.
// Rank 1 and strided globals stay.

// CHECK-DAG: memref.global "private" constant @w : memref<6xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @r : memref<4xi8> = dense_resource<blob>
// CHECK-DAG: memref.global "private" @buf : memref<8xf16> = uninitialized
// CHECK-DAG: memref.global "private" constant @v : memref<3xf32> = dense<7.000000e+00>
// CHECK-DAG: memref.global "private" constant @s : memref<2x2xf32, strided<[4, 1]>>
memref.global "private" constant @w : memref<2x1x3xf32> = dense<[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]> {alignment = 64 : i64}
memref.global "private" constant @r : memref<2x2xi8> = dense_resource<blob>
memref.global "private" @buf : memref<2x4xf16> = uninitialized
memref.global "private" constant @v : memref<3xf32> = dense<7.0>
memref.global "private" constant @s : memref<2x2xf32, strided<[4, 1]>> = dense<0.0>

// CHECK-LABEL: func.func @read
// CHECK: %[[W:.*]] = memref.get_global @w : memref<6xf32>
// CHECK-NEXT: %[[WX:.*]] = memref.expand_shape %[[W]] {{\[}}[0, 1, 2]] output_shape [2, 1, 3] : memref<6xf32> into memref<2x1x3xf32>
// CHECK: %[[R:.*]] = memref.get_global @r : memref<4xi8>
// CHECK-NEXT: %[[RX:.*]] = memref.expand_shape %[[R]] {{\[}}[0, 1]] output_shape [2, 2] : memref<4xi8> into memref<2x2xi8>
// CHECK: %[[B:.*]] = memref.get_global @buf : memref<8xf16>
// CHECK-NEXT: %[[BX:.*]] = memref.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [2, 4] : memref<8xf16> into memref<2x4xf16>
// CHECK: %[[V:.*]] = memref.get_global @v : memref<3xf32>
// CHECK: %[[S:.*]] = memref.get_global @s : memref<2x2xf32, strided<[4, 1]>>
// CHECK: %[[W2:.*]] = memref.get_global @w : memref<6xf32>
// CHECK-NEXT: %[[WX2:.*]] = memref.expand_shape %[[W2]]
// CHECK: return %[[WX]], %[[RX]], %[[BX]], %[[V]], %[[S]], %[[WX2]]
func.func @read() -> (memref<2x1x3xf32>, memref<2x2xi8>, memref<2x4xf16>, memref<3xf32>,
                      memref<2x2xf32, strided<[4, 1]>>, memref<2x1x3xf32>) {
  %w = memref.get_global @w : memref<2x1x3xf32>
  %r = memref.get_global @r : memref<2x2xi8>
  %b = memref.get_global @buf : memref<2x4xf16>
  %v = memref.get_global @v : memref<3xf32>
  %s = memref.get_global @s : memref<2x2xf32, strided<[4, 1]>>
  %w2 = memref.get_global @w : memref<2x1x3xf32>
  return %w, %r, %b, %v, %s, %w2 : memref<2x1x3xf32>, memref<2x2xi8>, memref<2x4xf16>,
                                   memref<3xf32>, memref<2x2xf32, strided<[4, 1]>>, memref<2x1x3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x0400000001020304"
    }
  }
#-}
