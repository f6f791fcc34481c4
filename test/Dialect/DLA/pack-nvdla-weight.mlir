// RUN: dla-opt %s --dla-pack-weights | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --dla-pack-weights --mlir-disable-threading | FileCheck %s --enable-var-scope

// Expected bytes worked by hand from the spec README's facts (nv_full: 32
// kernels per int8 group, 64-channel blocks; loop order group, block, r, s,
// kernel, channel; zero padding at the end to 128 bytes). Larger and random
// cases: pack-nvdla-weight-reference.mlir against an independent implementation.

// K=2, C=3, R=1, S=2 int8 weights. Stream: s=0: k0 (1 3 5) k1 (0 9 0),
// s=1: k0 (2 4 6) k1 (0 0 12).
// CHECK-LABEL: func.func @direct_int8
// CHECK-NEXT: arith.constant dense_resource<[[$DIRECT:.*]]> : tensor<2x3x1x2xi8, #dla.weight<direct, int8>>
func.func @direct_int8() -> tensor<2x3x1x2xi8, #dla.weight<direct, int8>> {
  %0 = arith.constant dense<[[[[1, 2]], [[3, 4]], [[5, 6]]], [[[0, 0]], [[9, 0]], [[0, 12]]]]> : tensor<2x3x1x2xi8>
  %1 = dla.relayout %0 : tensor<2x3x1x2xi8> -> tensor<2x3x1x2xi8, #dla.weight<direct, int8>>
  return %1 : tensor<2x3x1x2xi8, #dla.weight<direct, int8>>
}

// The same stream compressed: WGS = 8 non-zero bytes in the one group; WMB
// bits 1110 1011 1001 (LSB first: 0xD7 0x09); data = the non-zeros in order.
// CHECK-LABEL: func.func @direct_int8_compressed
// CHECK-NEXT: dla.weight_constant wgs = dense_resource<[[$WGS:.*]]> : tensor<128xi8>, wmb = dense_resource<[[$WMB:.*]]> : tensor<128xi8>, data = dense_resource<[[$DATA:.*]]> : tensor<128xi8> : tensor<2x3x1x2xi8, #dla.weight<direct, int8, compressed>>
func.func @direct_int8_compressed() -> tensor<2x3x1x2xi8, #dla.weight<direct, int8, compressed>> {
  %0 = arith.constant dense<[[[[1, 2]], [[3, 4]], [[5, 6]]], [[[0, 0]], [[9, 0]], [[0, 12]]]]> : tensor<2x3x1x2xi8>
  %1 = dla.relayout %0 : tensor<2x3x1x2xi8> -> tensor<2x3x1x2xi8, #dla.weight<direct, int8, compressed>>
  return %1 : tensor<2x3x1x2xi8, #dla.weight<direct, int8, compressed>>
}

// truncf fused into packing, honouring its rounding: 1 + 2^-11 and
// -(1 + 2^-11) are exact fp16 ties (to even: 0x3C00, 0xBC00; away: 0x3C01,
// 0xBC01); 1 + 3 * 2^-11 rounds to 0x3C02 either way. The f32 constants and
// the truncfs are gone afterwards.
// CHECK-LABEL: func.func @truncf_rounding
// CHECK-NEXT: %[[E:.*]] = arith.constant dense_resource<[[$EVEN:.*]]> : tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>
// CHECK-NEXT: %[[A:.*]] = arith.constant dense_resource<[[$AWAY:.*]]> : tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>
// CHECK-NEXT: return %[[E]], %[[A]]
func.func @truncf_rounding() -> (tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>, tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>) {
  %0 = arith.constant dense<[[[[1.00048828125]], [[1.00146484375]], [[-1.00048828125]], [[2.0]]]]> : tensor<1x4x1x1xf32>
  %1 = arith.truncf %0 : tensor<1x4x1x1xf32> to tensor<1x4x1x1xf16>
  %2 = dla.relayout %1 : tensor<1x4x1x1xf16> -> tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>
  %3 = arith.truncf %0 to_nearest_away : tensor<1x4x1x1xf32> to tensor<1x4x1x1xf16>
  %4 = dla.relayout %3 : tensor<1x4x1x1xf16> -> tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>
  return %2, %4 : tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>, tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>
}

// A truncf whose rounding the packer does not perform is left alone.
// CHECK-LABEL: func.func @truncf_downward
// CHECK: arith.truncf
// CHECK: dla.relayout
func.func @truncf_downward() -> tensor<1x4x1x1xf16, #dla.weight<direct, fp16>> {
  %0 = arith.constant dense<1.5> : tensor<1x4x1x1xf32>
  %1 = arith.truncf %0 downward : tensor<1x4x1x1xf32> to tensor<1x4x1x1xf16>
  %2 = dla.relayout %1 : tensor<1x4x1x1xf16> -> tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>
  return %2 : tensor<1x4x1x1xf16, #dla.weight<direct, fp16>>
}

// Weight blobs are 256-byte aligned (the alignment table's start address).
// CHECK: dialect_resources:
// CHECK-DAG: [[$DIRECT]]: "0x0001000001030500090002040600000C0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
// CHECK-DAG: [[$WGS]]: "0x000100000800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
// CHECK-DAG: [[$WMB]]: "0x00010000D709000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
// CHECK-DAG: [[$DATA]]: "0x00010000010305090204060C000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
// CHECK-DAG: [[$EVEN]]: "0x00010000003C023C00BC0040000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
// CHECK-DAG: [[$AWAY]]: "0x00010000013C023C01BC0040000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
