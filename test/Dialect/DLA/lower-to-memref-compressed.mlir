// Compressed weights a layer reads (kept out of lower-to-memref.mlir, which
// test/Plugin/passes.test also runs through stock mlir-opt: there this
// case's dla.on_storage fails to verify, its dla.yield not seen as a terminator).
// RUN: dla-opt %s --dla-pack-weights --dla-lower-to-memref --canonicalize | FileCheck %s --check-prefix=COMPRESSED
// Compressed weights a layer reads: its dla.on_storage takes their three
// surfaces (one group of 32 all-non-zero int8 kernels: a 4-byte WGS padded
// to 128, 4608 WMB bits = 576 bytes padded to 640, 4608 data bytes), each
// a 256-byte aligned global.
// COMPRESSED-DAG: memref.global "private" constant @[[DATA:__dla_weights_data[_0-9]*]] : memref<4608xi8> = dense_resource<{{.*}}> {alignment = 256 : i64}
// COMPRESSED-DAG: memref.global "private" constant @[[WMB:__dla_weights_wmb[_0-9]*]] : memref<640xi8> = dense_resource<{{.*}}> {alignment = 256 : i64}
// COMPRESSED-DAG: memref.global "private" constant @[[WGS:__dla_weights_wgs[_0-9]*]] : memref<128xi8> = dense_resource<{{.*}}> {alignment = 256 : i64}
// COMPRESSED-LABEL: func.func @compressed_conv
// COMPRESSED-DAG: %[[G:.*]] = memref.get_global @[[WGS]] : memref<128xi8>
// COMPRESSED-DAG: %[[M:.*]] = memref.get_global @[[WMB]] : memref<640xi8>
// COMPRESSED-DAG: %[[D:.*]] = memref.get_global @[[DATA]] : memref<4608xi8>
// COMPRESSED: dla.on_storage ins(%{{.*}}, %[[G]], %[[M]], %[[D]] : memref<2048xi8>, memref<128xi8>, memref<640xi8>, memref<4608xi8>)
// COMPRESSED-NEXT: ^bb0(%{{.*}}: tensor<1x16x8x8xi8, #dla.feature<int8>>, %{{.*}}: tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>):
// COMPRESSED-NOT: dla.weight_constant
func.func @compressed_conv(%x: tensor<1x16x8x8xi8, #dla.feature<int8>>) -> tensor<1x32x8x8xi8, #dla.feature<int8>> {
  %c = arith.constant dense<1> : tensor<32x16x3x3xi8>
  %p = dla.relayout %c : tensor<32x16x3x3xi8> -> tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  %y = dla.conv direct %x, %p pad [1, 1, 1, 1] : tensor<1x16x8x8xi8, #dla.feature<int8>>, tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x32x8x8xi8, #dla.feature<int8>>
  return %y : tensor<1x32x8x8xi8, #dla.feature<int8>>
}
