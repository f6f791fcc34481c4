// --dla-lower-to-reference=skip-storage-layers leaves the layer ops that
// --dla-lower-to-memref runs on their storage (dla.on_storage) and lowers the rest:
// plain layers and layers reading compressed weights that are not a packed
// constant (no storage: their surfaces are sized by the values).
// RUN: dla-opt %s --dla-lower-to-reference=skip-storage-layers | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @mixed
// CHECK: dla.pool max %{{[a-z_0-9]+}} kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x2x2xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.pool
// The plain one: NVDLA's fp16 pooling (nv_full's default arithmetic).
// CHECK: call @dla_nvdla_pdp_fp16
func.func @mixed(%x: tensor<1x8x4x4xf16, #dla.feature<fp16>>, %p: tensor<1x8x4x4xf16>) -> (tensor<1x8x2x2xf16, #dla.feature<fp16>>, tensor<1x8x2x2xf16>) {
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x2x2xf16, #dla.feature<fp16>>
  %z = dla.pool max %p kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xf16> -> tensor<1x8x2x2xf16>
  return %y, %z : tensor<1x8x2x2xf16, #dla.feature<fp16>>, tensor<1x8x2x2xf16>
}

// A constant packed into compressed weights: the layer reads its three
// surfaces on storage.
// CHECK-LABEL: func.func @compressed
// CHECK: dla.conv direct
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @compressed(%x: tensor<1x16x4x4xi8, #dla.feature<int8>>) -> tensor<1x32x2x2xi8, #dla.feature<int8>> {
  %c = arith.constant dense<1> : tensor<32x16x3x3xi8>
  %w = dla.relayout %c : tensor<32x16x3x3xi8> -> tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  %y = dla.conv direct %x, %w : tensor<1x16x4x4xi8, #dla.feature<int8>>, tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x32x2x2xi8, #dla.feature<int8>>
  return %y : tensor<1x32x2x2xi8, #dla.feature<int8>>
}

// A fused pair stays: it runs as one dla.on_storage.
// CHECK-LABEL: func.func @fused
// CHECK: dla.conv direct
// CHECK: dla.sdp on_the_fly
// CHECK-NOT: linalg.generic
func.func @fused(%x: tensor<1x16x4x4xi8, #dla.feature<int8>>, %w: tensor<16x16x1x1xi8, #dla.weight<direct, int8>>) -> tensor<1x16x4x4xi16, #dla.feature<int16>> {
  %c = dla.conv direct %x, %w : tensor<1x16x4x4xi8, #dla.feature<int8>>, tensor<16x16x1x1xi8, #dla.weight<direct, int8>> -> tensor<1x16x4x4xi16, #dla.feature<int16>>
  %y = dla.sdp on_the_fly %c relu : tensor<1x16x4x4xi16, #dla.feature<int16>> -> tensor<1x16x4x4xi16, #dla.feature<int16>>
  return %y : tensor<1x16x4x4xi16, #dla.feature<int16>>
}

// A fused pair is one hardware layer: when the convolution has no storage
// form (compressed weights passed in, not packed here), the SDP fused to it
// is lowered here too, not left reading a convolution that is gone.
// CHECK-LABEL: func.func @fused_compressed
// CHECK-NOT: dla.conv
// CHECK-NOT: dla.sdp
// CHECK: linalg.conv_2d_nchw_fchw
func.func @fused_compressed(%x: tensor<1x16x4x4xi8, #dla.feature<int8>>, %w: tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>) -> tensor<1x32x2x2xi8, #dla.feature<int8>> {
  %y = dla.conv direct %x, %w : tensor<1x16x4x4xi8, #dla.feature<int8>>, tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x32x2x2xi8, #dla.feature<int8>>
  %z = dla.sdp on_the_fly %y relu : tensor<1x32x2x2xi8, #dla.feature<int8>> -> tensor<1x32x2x2xi8, #dla.feature<int8>>
  return %z : tensor<1x32x2x2xi8, #dla.feature<int8>>
}
