// RUN: dla-opt %s --dla-pack-weights --dla-encodings-to-memref --canonicalize | FileCheck %s --enable-var-scope

// Globals come first: the image weights' offset table (byte offset of every
// element, row-major), and the packed weights, 256-byte aligned, on the
// folder's blob (no copy).
// Compressed weights: three 256-byte aligned globals on their surfaces.
// CHECK-DAG: memref.global "private" constant @__dla_weights_wgs : memref<128xi8> = dense_resource<{{.*}}> {alignment = 256 : i64}
// CHECK-DAG: memref.global "private" constant @__dla_weights_wmb : memref<640xi8> = dense_resource<{{.*}}> {alignment = 256 : i64}
// CHECK-DAG: memref.global "private" constant @__dla_weights_data : memref<4608xi8> = dense_resource<{{.*}}> {alignment = 256 : i64}
// CHECK: memref.global "private" constant @[[$O:__dla_offsets[_0-9]*]] : memref<72xi32> = dense<[0, 1, 2, 24, 25, 26, 48,
// CHECK: memref.global "private" constant @[[$G:__dla_constant[_0-9]*]] : memref<1152xi8> = dense_resource<{{.*}}> {alignment = 256 : i64}

// Function boundaries carry storage bytes, aligned by the alignment table
// (feature data: 32 B); the relayout writes through a strided view whose
// strides are the line stride 224 B = 112 and surface stride 1344 B = 672
// fp16 elements; the destination is zeroed first (padding). Channels are
// innermost in storage and W in the logical tensor: rows of W are read as
// vectors, transposed in registers and stored as atoms through the view.
// CHECK-LABEL: func.func @pack_feature
// CHECK-SAME: (%[[X:.*]]: memref<1x20x5x6xf16>) -> memref<2688xi8>
// CHECK: %[[S:.*]] = memref.alloc() {alignment = 32 : i64} : memref<2688xi8>
// CHECK: linalg.fill ins(%{{.*}} : i8) outs(%[[S]] : memref<2688xi8>)
// CHECK: %[[V:.*]] = memref.view %[[S]][%{{.*}}][] : memref<2688xi8> to memref<1344xf16>
// CHECK: %[[T:.*]] = memref.reinterpret_cast %[[V]] to offset: [0], sizes: [1, 2, 5, 6, 16], strides: [1344, 672, 112, 16, 1]
// CHECK-SAME: to memref<1x2x5x6x16xf16, strided<[1344, 672, 112, 16, 1]>>
// CHECK: vector.load %[[X]]{{.*}} : memref<1x20x5x6xf16>, vector<6xf16>
// CHECK: vector.{{(transpose|from_elements)}}
// CHECK: vector.store %{{.*}}, %[[T]]{{.*}}, vector<16xf16>
// CHECK: return %[[S]] : memref<2688xi8>
func.func @pack_feature(%x: tensor<1x20x5x6xf16>) -> tensor<1x20x5x6xf16, #dla.feature<fp16, line_stride = 224, surface_stride = 1344>> {
  %y = dla.relayout %x : tensor<1x20x5x6xf16> -> tensor<1x20x5x6xf16, #dla.feature<fp16, line_stride = 224, surface_stride = 1344>>
  return %y : tensor<1x20x5x6xf16, #dla.feature<fp16, line_stride = 224, surface_stride = 1344>>
}

// Eight or more columns: 8 x 8 blocks of fp16 transposed by shuffles of
// 16-byte vectors (unpack instructions), no zero-fill (no padding).
// CHECK-LABEL: func.func @pack_feature_blocks
// CHECK-SAME: (%[[X:.*]]: memref<1x16x2x16xf16>)
// CHECK-NOT: linalg.fill
// CHECK: %[[T:.*]] = memref.reinterpret_cast {{.*}} to memref<1x1x2x16x16xf16, strided<[512, 512, 256, 16, 1]>>
// CHECK: vector.load %[[X]]{{.*}} : memref<1x16x2x16xf16>, vector<8xf16>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 1, 9, 2, 10, 3, 11] : vector<8xi16>, vector<8xi16>
// CHECK: vector.store %{{.*}}, %[[T]]{{.*}} : memref<1x1x2x16x16xf16, strided<[512, 512, 256, 16, 1]>>, vector<8xf16>
func.func @pack_feature_blocks(%x: tensor<1x16x2x16xf16>) -> tensor<1x16x2x16xf16, #dla.feature<fp16>> {
  %y = dla.relayout %x : tensor<1x16x2x16xf16> -> tensor<1x16x2x16xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x2x16xf16, #dla.feature<fp16>>
}

// Surfaces interleaved line by line (nv_small: surface stride 64 B, one
// line of 8 atoms; line stride 128 B, both surfaces' lines): the view's
// surface stride is below its line stride; 5 lines of 128 B of storage.
// CHECK-LABEL: func.func @pack_feature_interleaved
// CHECK-SAME: -> memref<640xi8>
// CHECK: memref.reinterpret_cast {{.*}} to memref<1x2x5x8x8xi8, strided<[640, 64, 128, 8, 1]>>
func.func @pack_feature_interleaved(%x: tensor<1x16x5x8xi8>) -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> {
  %y = dla.relayout %x : tensor<1x16x5x8xi8> -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
  return %y : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
}

// Crouton keeps 32 channels innermost on both sides: each run of 32 bytes
// moves as one vector.
// CHECK-LABEL: func.func @pack_crouton
// CHECK-SAME: (%[[X:.*]]: memref<1x8x8x64xi8>)
// CHECK: %[[T:.*]] = memref.reinterpret_cast {{.*}} to memref<1x1x1x2x8x8x32xi8, strided<[4096, 4096, 4096, 2048, 256, 32, 1]>>
// CHECK: %[[R:.*]] = vector.load %[[X]]{{.*}} : memref<1x8x8x64xi8>, vector<32xi8>
// CHECK: vector.store %[[R]], %[[T]]
func.func @pack_crouton(%x: tensor<1x8x8x64xi8>) -> tensor<1x8x8x64xi8, #dla.chunked<crouton>> {
  %y = dla.relayout %x : tensor<1x8x8x64xi8> -> tensor<1x8x8x64xi8, #dla.chunked<crouton>>
  return %y : tensor<1x8x8x64xi8, #dla.chunked<crouton>>
}

// Semi-planar pixels: one view per component, at its plane offset (Y at 0;
// UV plane after two 32-byte Y lines: V at 64, U at 65, pixel stride 2).
// CHECK-LABEL: func.func @semi_planar
// CHECK-SAME: (%[[S:.*]]: memref<128xi8>) -> memref<1x3x2x5xi8>
// CHECK: %[[B:.*]] = memref.assume_alignment %[[S]], 32 : memref<128xi8>
// CHECK: memref.reinterpret_cast %[[B]] to offset: [0], sizes: [2, 5], strides: [32, 1] : memref<128xi8> to memref<2x5xi8, strided<[32, 1]>>
// CHECK: memref.reinterpret_cast %[[B]] to offset: [65], sizes: [2, 5], strides: [32, 2] : memref<128xi8> to memref<2x5xi8, strided<[32, 2], offset: 65>>
// CHECK: memref.reinterpret_cast %[[B]] to offset: [64], sizes: [2, 5], strides: [32, 2] : memref<128xi8> to memref<2x5xi8, strided<[32, 2], offset: 64>>
func.func @semi_planar(%x: tensor<1x3x2x5xi8, #dla.pixel<T_Y8___U8V8_N444>>) -> tensor<1x3x2x5xi8> {
  %y = dla.relayout %x : tensor<1x3x2x5xi8, #dla.pixel<T_Y8___U8V8_N444>> -> tensor<1x3x2x5xi8>
  return %y : tensor<1x3x2x5xi8>
}

// 10-bit pixels: 32-bit words, one bit field per channel.
// CHECK-LABEL: func.func @ten_bit
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 3], strides: [8, 1] : memref<16xi32> to memref<2x3xi32, strided<[8, 1]>>
// CHECK: arith.shli
// CHECK: arith.ori
func.func @ten_bit(%x: tensor<1x4x2x3xi16>) -> tensor<1x4x2x3xi16, #dla.pixel<T_A2B10G10R10>> {
  %y = dla.relayout %x : tensor<1x4x2x3xi16> -> tensor<1x4x2x3xi16, #dla.pixel<T_A2B10G10R10>>
  return %y : tensor<1x4x2x3xi16, #dla.pixel<T_A2B10G10R10>>
}

// int8 bias in 2-byte components: an i16 view, sign-extended.
// CHECK-LABEL: func.func @bias
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [2, 32], strides: [32, 1] : memref<64xi16> to memref<2x32xi16, strided<[32, 1]>>
// CHECK: arith.extsi %{{.*}} : i8 to i16
func.func @bias(%x: tensor<40xi8>) -> tensor<40xi8, #dla.bias<per_channel, int8, data_size = two_byte>> {
  %y = dla.relayout %x : tensor<40xi8> -> tensor<40xi8, #dla.bias<per_channel, int8, data_size = two_byte>>
  return %y : tensor<40xi8, #dla.bias<per_channel, int8, data_size = two_byte>>
}

// Packed weights: a 256-byte aligned constant global on the folder's blob.
// CHECK-LABEL: func.func @weights
// CHECK: %[[W:.*]] = memref.get_global @[[$G]] : memref<1152xi8>
// CHECK: return %[[W]]
func.func @weights() -> tensor<16x8x3x3xi8, #dla.weight<direct, int8>> {
  %c = arith.constant dense<3> : tensor<16x8x3x3xi8>
  %w = dla.relayout %c : tensor<16x8x3x3xi8> -> tensor<16x8x3x3xi8, #dla.weight<direct, int8>>
  return %w : tensor<16x8x3x3xi8, #dla.weight<direct, int8>>
}

// Image weights have no strided view: a compile-time table of byte offsets.
// CHECK-LABEL: func.func @image_weights
// CHECK: memref.get_global @[[$O]]
// CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<{{[0-9]+}}xi8> to memref<i8>
func.func @image_weights(%w: tensor<8x1x3x3xi8>) -> tensor<8x1x3x3xi8, #dla.weight<image, int8, channels = 1>> {
  %p = dla.relayout %w : tensor<8x1x3x3xi8> -> tensor<8x1x3x3xi8, #dla.weight<image, int8, channels = 1>>
  return %p : tensor<8x1x3x3xi8, #dla.weight<image, int8, channels = 1>>
}

// dla.to_storage / dla.from_storage are the storage itself.
// CHECK-LABEL: func.func @storage
// CHECK-SAME: (%[[S:.*]]: memref<2048xi8>) -> memref<2048xi8>
// CHECK-NEXT: %[[A:.*]] = memref.assume_alignment %[[S]], 64 : memref<2048xi8>
// CHECK-NEXT: return %[[A]] : memref<2048xi8>
func.func @storage(%t: tensor<1x3x5x30xi8, #dla.chunked<crouton>>) -> tensor<2048xi8> {
  %b = dla.to_storage %t : tensor<1x3x5x30xi8, #dla.chunked<crouton>> -> tensor<2048xi8>
  return %b : tensor<2048xi8>
}

// CHECK-LABEL: func.func @compressed()
// CHECK-NEXT: return
func.func @compressed() {
  %c = arith.constant dense<1> : tensor<32x16x3x3xi8>
  %p = dla.relayout %c : tensor<32x16x3x3xi8> -> tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  return
}
