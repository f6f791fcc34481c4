// --dla-lower-to-memref turns layer ops with encoded operands into their
// storage-view form: each operand's storage bytes viewed with the strides
// of its encoding (line and surface strides of feature data, plane offsets
// of semi-planar pixels), the result written into a new aligned storage
// buffer (zeroed: the padding contract). lower-to-memref-plain-layers.mlir:
// layer ops without any encoding stay tensor ops.
// RUN: dla-opt %s --dla-lower-to-memref | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @image
// CHECK-SAME: (%[[XS:.*]]: memref<512xi8>, %[[WS:.*]]: memref<128xi8>) -> memref<1152xi8>
// The ABI's alignments (pixels 32 B, weights 256 B), assumed in the IR:
// CHECK: %[[X:.*]] = memref.assume_alignment %[[XS]], 32 : memref<512xi8>
// CHECK: %[[W:.*]] = memref.assume_alignment %[[WS]], 256 : memref<128xi8>
// CHECK: %[[YV:.*]] = memref.view %[[X]][%{{[a-z_0-9]+}}][] : memref<512xi8> to memref<512xui8>
// CHECK: %[[Y:.*]] = memref.reinterpret_cast %[[YV]] to offset: [0], sizes: [8, 8], strides: [32, 1]
// CHECK: %[[UV:.*]] = memref.view %[[X]]
// CHECK: %[[U:.*]] = memref.reinterpret_cast %[[UV]] to offset: [257], sizes: [8, 8], strides: [32, 2]
// CHECK: %[[VV:.*]] = memref.view %[[X]]
// CHECK: %[[V:.*]] = memref.reinterpret_cast %[[VV]] to offset: [256], sizes: [8, 8], strides: [32, 2]
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 32 : i64} : memref<1152xi8>
// CHECK: %[[OV:.*]] = memref.view %[[OUT]]
// CHECK: %[[O:.*]] = memref.reinterpret_cast %[[OV]] to offset: [0], sizes: [1, 1, 6, 6, 32], strides: [1152, 1152, 192, 32, 1]
// CHECK: dla.buffer.conv image
// CHECK-SAME: input(%[[Y]], %[[U]], %[[V]] : memref<8x8xui8, strided<[32, 1]>>, memref<8x8xui8, strided<[32, 2], offset: 257>>, memref<8x8xui8, strided<[32, 2], offset: 256>>) of tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>
// CHECK-SAME: weight(%[[W]] : memref<128xi8>) of tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>>
// CHECK-SAME: output(%[[O]] : memref<1x1x6x6x32xi8, strided<[1152, 1152, 192, 32, 1]>>) of tensor<1x4x6x6xi8, #dla.feature<int8>>
// CHECK: return %[[OUT]] : memref<1152xi8>
func.func @image(%x: tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>, %w: tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>>) -> tensor<1x4x6x6xi8, #dla.feature<int8>> {
  %y = dla.conv image %x, %w : tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>, tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>> -> tensor<1x4x6x6xi8, #dla.feature<int8>>
  return %y : tensor<1x4x6x6xi8, #dla.feature<int8>>
}

// The output's own line and surface strides (192 B, 640 B: 96 and 320
// int16 elements); a plain PReLU operand is its row-major memref.
// CHECK-LABEL: func.func @sdp
// CHECK-SAME: (%[[X:.*]]: memref<960xi8>, %[[B:.*]]: memref<64xi8>, %[[P:.*]]: memref<20xi16>) -> memref<1280xi8>
// CHECK: memref.assume_alignment %[[X]], 32 : memref<960xi8>
// CHECK: memref.assume_alignment %[[B]], 32 : memref<64xi8>
// CHECK-NOT: memref.assume_alignment %[[P]]
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 32 : i64} : memref<1280xi8>
// CHECK: linalg.fill ins(%{{[a-z_0-9]+}} : i8) outs(%[[OUT]] : memref<1280xi8>)
// CHECK: dla.buffer.sdp offline
// CHECK-SAME: input(%{{[a-z_0-9]+}} : memref<1x2x3x5x16xi16, strided<[480, 240, 80, 16, 1]>>) of tensor<1x20x3x5xi16, #dla.feature<int16>>
// CHECK-SAME: bias(%{{[a-z_0-9]+}} : memref<2x16xi16, strided<[16, 1]>>) of tensor<20xi16, #dla.bias<per_channel, int16>>
// CHECK-SAME: prelu(%[[P]] : memref<20xi16>) of tensor<20xi16>
// CHECK-SAME: output(%{{[a-z_0-9]+}} : memref<1x2x3x5x16xi16, strided<[640, 320, 96, 16, 1]>>) of tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
func.func @sdp(%x: tensor<1x20x3x5xi16, #dla.feature<int16>>, %b: tensor<20xi16, #dla.bias<per_channel, int16>>, %p: tensor<20xi16>) -> tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>> {
  %y = dla.sdp offline %x bias %b : tensor<20xi16, #dla.bias<per_channel, int16>> prelu %p : tensor<20xi16> : tensor<1x20x3x5xi16, #dla.feature<int16>> -> tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
  return %y : tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
}

// A plain result: a row-major buffer, no storage.
// CHECK-LABEL: func.func @lrn
// CHECK-SAME: (%[[XS:.*]]: memref<512xi8>) -> memref<1x8x4x4xf16>
// CHECK: %[[X:.*]] = memref.assume_alignment %[[XS]], 32 : memref<512xi8>
// CHECK: %[[XV:.*]] = memref.view %[[X]][%{{[a-z_0-9]+}}][] : memref<512xi8> to memref<256xf16>
// CHECK: %[[XS:.*]] = memref.reinterpret_cast %[[XV]] to offset: [0], sizes: [1, 1, 4, 4, 16], strides: [256, 256, 64, 16, 1]
// CHECK: %[[Y:.*]] = memref.alloc() : memref<1x8x4x4xf16>
// CHECK: dla.buffer.lrn input(%[[XS]] : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x8x4x4xf16, #dla.feature<fp16>> output(%[[Y]] : memref<1x8x4x4xf16>) of tensor<1x8x4x4xf16> size 3
// CHECK: return %[[Y]]
func.func @lrn(%x: tensor<1x8x4x4xf16, #dla.feature<fp16>>) -> tensor<1x8x4x4xf16> {
  %y = dla.lrn %x size 3 : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x4x4xf16>
  return %y : tensor<1x8x4x4xf16>
}
