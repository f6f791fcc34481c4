// --dla-lower-to-memref runs every hardware layer with an encoded operand
// or result in a dla.on_storage: its operands' storage buffers (aligned as
// the ABI says), the result written into a new aligned storage buffer
// (zeroed: the padding contract), the layer ops themselves unchanged in the
// body on the logical types. A convolution and the SDP it runs on the fly
// with are one layer. lower-to-memref-plain-layers.mlir: layer ops without
// any encoding stay tensor ops.
// RUN: dla-opt %s --dla-encodings-to-memref | FileCheck %s --enable-var-scope
// The explicit storage makes the IR between the passes safe to canonicalize:
// RUN: dla-opt %s --dla-encodings-to-memref -canonicalize -cse | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @image
// CHECK-SAME: (%[[XS:.*]]: memref<512xi8>, %[[WS:.*]]: memref<128xi8>) -> memref<1152xi8>
// The ABI's alignments (pixels 32 B, weights 256 B), assumed in the IR:
// CHECK: %[[X:.*]] = memref.assume_alignment %[[XS]], 32 : memref<512xi8>
// CHECK: %[[W:.*]] = memref.assume_alignment %[[WS]], 256 : memref<128xi8>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 32 : i64} : memref<1152xi8>
// CHECK: linalg.fill ins(%{{[a-z_0-9]+}} : i8) outs(%[[OUT]] : memref<1152xi8>)
// CHECK: dla.on_storage ins(%[[X]], %[[W]] : memref<512xi8>, memref<128xi8>) outs(%[[OUT]] : memref<1152xi8>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>, %[[B:.*]]: tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>>):
// CHECK-NEXT: %[[C:.*]] = dla.conv image %[[A]], %[[B]] : {{.*}} -> tensor<1x4x6x6xi8, #dla.feature<int8>>
// CHECK-NEXT: dla.yield %[[C]] : tensor<1x4x6x6xi8, #dla.feature<int8>>
// CHECK-NEXT: }
// CHECK: return %[[OUT]] : memref<1152xi8>
// CANON-LABEL: func.func @image
// CANON: dla.on_storage ins(%{{.*}}, %{{.*}} : memref<512xi8>, memref<128xi8>) outs(%{{.*}} : memref<1152xi8>)
func.func @image(%x: tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>, %w: tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>>) -> tensor<1x4x6x6xi8, #dla.feature<int8>> {
  %y = dla.conv image %x, %w : tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>, tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>> -> tensor<1x4x6x6xi8, #dla.feature<int8>>
  return %y : tensor<1x4x6x6xi8, #dla.feature<int8>>
}

// The output's own line and surface strides (1280 B of storage); a plain
// PReLU operand is its row-major memref, not aligned by the ABI.
// CHECK-LABEL: func.func @sdp
// CHECK-SAME: (%[[X:.*]]: memref<960xi8>, %[[B:.*]]: memref<64xi8>, %[[P:.*]]: memref<20xi16>) -> memref<1280xi8>
// CHECK: %[[XA:.*]] = memref.assume_alignment %[[X]], 32 : memref<960xi8>
// CHECK: %[[BA:.*]] = memref.assume_alignment %[[B]], 32 : memref<64xi8>
// CHECK-NOT: memref.assume_alignment %[[P]]
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 32 : i64} : memref<1280xi8>
// CHECK: dla.on_storage ins(%[[XA]], %[[BA]], %[[P]] : memref<960xi8>, memref<64xi8>, memref<20xi16>) outs(%[[OUT]] : memref<1280xi8>)
// CHECK: dla.sdp offline %{{.*}} bias %{{.*}} prelu %{{.*}} : tensor<20xi16> : tensor<1x20x3x5xi16, #dla.feature<int16>> -> tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
func.func @sdp(%x: tensor<1x20x3x5xi16, #dla.feature<int16>>, %b: tensor<20xi16, #dla.bias<per_channel, int16>>, %p: tensor<20xi16>) -> tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>> {
  %y = dla.sdp offline %x bias %b : tensor<20xi16, #dla.bias<per_channel, int16>> prelu %p : tensor<20xi16> : tensor<1x20x3x5xi16, #dla.feature<int16>> -> tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
  return %y : tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
}

// A plain result: a row-major buffer.
// CHECK-LABEL: func.func @lrn
// CHECK-SAME: (%[[XS:.*]]: memref<512xi8>) -> memref<1x8x4x4xf16>
// CHECK: %[[X:.*]] = memref.assume_alignment %[[XS]], 32 : memref<512xi8>
// CHECK: %[[Y:.*]] = memref.alloc() : memref<1x8x4x4xf16>
// CHECK: dla.on_storage ins(%[[X]] : memref<512xi8>) outs(%[[Y]] : memref<1x8x4x4xf16>)
// CHECK: dla.lrn %{{.*}} size 3 : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x4x4xf16>
// CHECK: return %[[Y]]
func.func @lrn(%x: tensor<1x8x4x4xf16, #dla.feature<fp16>>) -> tensor<1x8x4x4xf16> {
  %y = dla.lrn %x size 3 : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x4x4xf16>
  return %y : tensor<1x8x4x4xf16>
}

// A convolution and its fused SDP are one hardware layer: one dla.on_storage,
// the convolution's output never in memory, placed where the SDP's bias
// (defined between the two) is available.
// CHECK-LABEL: func.func @fused
// CHECK: %[[BIAS:.*]] = memref.get_global
// CHECK: dla.on_storage ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<2048xi8>, memref<4608xi8>, memref<32xi8>) outs(%{{.*}} : memref<2048xi8>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %[[W:.*]]: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>, %[[B:.*]]: tensor<16xf16, #dla.bias<per_channel, fp16>>):
// CHECK-NEXT: %[[C:.*]] = dla.conv direct %[[A]], %[[W]] pad [1, 1, 1, 1]
// CHECK-NEXT: %[[S:.*]] = dla.sdp on_the_fly %[[C]] bias %[[B]]
// CHECK-NEXT: dla.yield %[[S]]
// CHECK-NOT: dla.on_storage
// CHECK: return
func.func @fused(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %w: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>) -> tensor<1x16x8x8xf16, #dla.feature<fp16>> {
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  %b = arith.constant dense_resource<bias16> : tensor<16xf16, #dla.bias<per_channel, fp16>>
  %y = dla.sdp on_the_fly %c bias %b : tensor<16xf16, #dla.bias<per_channel, fp16>> relu : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x8x8xf16, #dla.feature<fp16>>
}

{-#
  dialect_resources: {
    builtin: {
      bias16: "0x02000000003C003C003C003C003C003C003C003C003C003C003C003C003C003C003C003C"
    }
  }
#-}
