// RUN: dla-opt %s --dla-pack-weights | FileCheck %s

// After packing, a source blob no attribute refers to is released and no
// longer printed; one still referenced elsewhere keeps its data.
// CHECK-LABEL: func.func @only_packed
// CHECK-NEXT: arith.constant dense_resource<dla_packed>
func.func @only_packed() -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>> {
  %0 = arith.constant dense_resource<private_blob> : tensor<4xi8>
  %1 = dla.relayout %0 : tensor<4xi8> -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
  return %1 : tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
}

// CHECK-LABEL: func.func @also_plain
// CHECK: arith.constant dense_resource<shared_blob> : tensor<4xi8>
func.func @also_plain() -> (tensor<4xi8>, tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>) {
  %0 = arith.constant dense_resource<shared_blob> : tensor<4xi8>
  %1 = dla.relayout %0 : tensor<4xi8> -> tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
  %2 = arith.constant dense_resource<shared_blob> : tensor<4xi8>
  return %2, %1 : tensor<4xi8>, tensor<4xi8, #dla.chunked<[(0, 0), (0, 8)]>>
}

{-#
  dialect_resources: {
    builtin: {
      private_blob: "0x0100000001020304",
      shared_blob: "0x0100000005060708"
    }
  }
#-}

// CHECK: dialect_resources:
// CHECK-NOT: private_blob
// CHECK-DAG: shared_blob: "0x0100000005060708"
// CHECK-DAG: dla_packed: "0x400000000102030400000000"
// CHECK-DAG: dla_packed_1: "0x400000000506070800000000"
// CHECK-NOT: private_blob
