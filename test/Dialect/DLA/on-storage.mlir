// dla.on_storage prints and parses back to the same IR: the storage buffer
// of each operand and result, the layer ops on the logical types.
// RUN: dla-opt %s | dla-opt | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --mlir-print-op-generic | dla-opt | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @conv_direct
// CHECK-SAME: (%[[X:.*]]: memref<2048xi8>, %[[W:.*]]: memref<4608xi8>, %[[B:.*]]: memref<32xi8>, %[[Y:.*]]: memref<2048xi8>)
// CHECK: dla.on_storage ins(%[[X]], %[[W]], %[[B]] : memref<2048xi8>, memref<4608xi8>, memref<32xi8>) outs(%[[Y]] : memref<2048xi8>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %[[WW:.*]]: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>, %[[BB:.*]]: tensor<16xf16, #dla.bias<per_channel, fp16>>):
// CHECK-NEXT: %[[C:.*]] = dla.conv direct %[[A]], %[[WW]], %[[BB]] pad [1, 1, 1, 1]
// CHECK-NEXT: dla.yield %[[C]] : tensor<1x16x8x8xf16, #dla.feature<fp16>>
func.func @conv_direct(%x: memref<2048xi8>, %w: memref<4608xi8>, %b: memref<32xi8>, %y: memref<2048xi8>) {
  dla.on_storage ins(%x, %w, %b : memref<2048xi8>, memref<4608xi8>, memref<32xi8>) outs(%y : memref<2048xi8>) {
  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %ww: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>, %bb: tensor<16xf16, #dla.bias<per_channel, fp16>>):
    %c = dla.conv direct %a, %ww, %bb pad [1, 1, 1, 1] : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>, tensor<16xf16, #dla.bias<per_channel, fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
    dla.yield %c : tensor<1x16x8x8xf16, #dla.feature<fp16>>
  }
  return
}

// A fused pair, a plain (row-major) operand and a plain result.
// CHECK-LABEL: func.func @fused
// CHECK: dla.on_storage ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<2048xi8>, memref<4608xi8>, memref<16xf16>) outs(%{{.*}} : memref<1x16x8x8xf16>)
// CHECK: dla.conv direct
// CHECK-NEXT: dla.sdp on_the_fly %{{.*}} prelu %{{.*}} : tensor<16xf16> : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16>
func.func @fused(%x: memref<2048xi8>, %w: memref<4608xi8>, %p: memref<16xf16>, %y: memref<1x16x8x8xf16>) {
  dla.on_storage ins(%x, %w, %p : memref<2048xi8>, memref<4608xi8>, memref<16xf16>) outs(%y : memref<1x16x8x8xf16>) {
  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %ww: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>, %pp: tensor<16xf16>):
    %c = dla.conv direct %a, %ww pad [1, 1, 1, 1] : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
    %s = dla.sdp on_the_fly %c prelu %pp : tensor<16xf16> : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16>
    dla.yield %s : tensor<1x16x8x8xf16>
  }
  return
}
