// CACC's clip truncate (D_CLIP_CFG CLIP_TRUNCATE) on dla.conv: round trip,
// kept on storage; executed bit-exactly in test/Execution/reference-layers.mlir.
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// CHECK-LABEL: func.func @clip
// CHECK: dla.conv direct %arg0, %arg1 pad [1, 1, 1, 1] clip_truncate 3 : tensor<1x16x4x4xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x4x4xi8>
// MEMREF: dla.on_storage
// MEMREF: dla.conv direct {{.*}} clip_truncate 3
func.func @clip(%x: tensor<1x16x4x4xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x4x4xi8> {
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] clip_truncate 3 : tensor<1x16x4x4xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}
