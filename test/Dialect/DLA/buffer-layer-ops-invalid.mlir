// Every diagnostic of the storage-view layer ops' verifiers.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @views_without_type(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %b: memref<1x16xf16, strided<[16, 1]>>, %y: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.sdp' op 'bias' has views but no logical type}}
  "dla.buffer.sdp"(%x, %b, %y) <{input_type = tensor<1x16x8x8xf16, #dla.feature<fp16>>, mode = #dla<sdp_mode offline>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1>, output_type = tensor<1x16x8x8xf16, #dla.feature<fp16>>}> : (memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, memref<1x16xf16, strided<[16, 1]>>, memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) -> ()
  return
}

// -----

func.func @type_without_views(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %y: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.sdp' op 'bias' has a logical type but no views}}
  "dla.buffer.sdp"(%x, %y) <{bias_type = tensor<16xf16, #dla.bias<per_channel, fp16>>, input_type = tensor<1x16x8x8xf16, #dla.feature<fp16>>, mode = #dla<sdp_mode offline>, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 1>, output_type = tensor<1x16x8x8xf16, #dla.feature<fp16>>}> : (memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) -> ()
  return
}

// -----

func.func @foreign_encoding(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %y: memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.pool' op 'input': 'tensor<1x16x8x8xf16, "nchw">' has an encoding that is no dla layout}}
  dla.buffer.pool max input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, "nchw">
      output(%y : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x16x4x4xf16, #dla.feature<fp16>> kernel [2, 2] stride [2, 2]
  return
}

// -----

func.func @dynamic(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %y: memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.pool' op 'input': storage of 'tensor<1x?x8x8xf16, #dla.feature<fp16>>' needs a static shape}}
  dla.buffer.pool max input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x?x8x8xf16, #dla.feature<fp16>>
      output(%y : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x16x4x4xf16, #dla.feature<fp16>> kernel [2, 2] stride [2, 2]
  return
}

// -----

// Winograd weights have no storage description (no element has an offset).
func.func @winograd(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %w: memref<8192xi8>, %y: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.conv' op 'weight': #dla.weight<winograd, fp16> cannot lay out 'tensor<16x16x3x3xf16>'}}
  dla.buffer.conv winograd input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      weight(%w : memref<8192xi8>) of tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
      output(%y : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>> pad [1, 1, 1, 1]
  return
}

// -----

func.func @compressed(%x: memref<1x1x8x8x32xi8, strided<[2048, 2048, 256, 32, 1]>>, %w: memref<4608xi8>, %y: memref<1x1x8x8x32xi8, strided<[2048, 2048, 256, 32, 1]>>) {
  // expected-error @+1 {{'dla.buffer.conv' op 'weight': 'tensor<16x16x3x3xi8, #dla.weight<direct, int8, compressed>>' has no storage type (its buffers depend on the values)}}
  dla.buffer.conv direct input(%x : memref<1x1x8x8x32xi8, strided<[2048, 2048, 256, 32, 1]>>) of tensor<1x16x8x8xi8, #dla.feature<int8>>
      weight(%w : memref<4608xi8>) of tensor<16x16x3x3xi8, #dla.weight<direct, int8, compressed>>
      output(%y : memref<1x1x8x8x32xi8, strided<[2048, 2048, 256, 32, 1]>>) of tensor<1x16x8x8xi8, #dla.feature<int8>> pad [1, 1, 1, 1]
  return
}

// -----

// Semi-planar pixels are three views (Y, U, V), not one.
func.func @view_count(%x: memref<8x8xui8, strided<[32, 1]>>, %w: memref<128xi8>, %y: memref<1x1x6x6x32xi8, strided<[1152, 1152, 192, 32, 1]>>) {
  // expected-error @+1 {{'dla.buffer.conv' op 'input' of type 'tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>' is stored in 3 memref(s), got 1}}
  dla.buffer.conv image input(%x : memref<8x8xui8, strided<[32, 1]>>) of tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>
      weight(%w : memref<128xi8>) of tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>>
      output(%y : memref<1x1x6x6x32xi8, strided<[1152, 1152, 192, 32, 1]>>) of tensor<1x4x6x6xi8, #dla.feature<int8>>
  return
}

// -----

// A feature view with the default strides where the encoding has its own.
func.func @wrong_strides(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %y: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.lrn' op 'output' memref #0 must be 'memref<1x1x8x8x16xf16, strided<[4096, 4096, 256, 16, 1]>>' (the storage of 'tensor<1x16x8x8xf16, #dla.feature<fp16, line_stride = 512, surface_stride = 8192>>'), got 'memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>'}}
  dla.buffer.lrn input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      output(%y : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16, line_stride = 512, surface_stride = 8192>> size 5
  return
}

// -----

// The tensor form's rules hold for the logical types.
func.func @window(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %y: memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.pool' op output height must be 3, got 4}}
  dla.buffer.pool max input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      output(%y : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x16x4x4xf16, #dla.feature<fp16>> kernel [3, 3] stride [2, 2]
  return
}

// -----

func.func @relu_prelu(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %p: memref<16xf16>, %y: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) {
  // expected-error @+1 {{'dla.buffer.sdp' op relu and prelu are mutually exclusive}}
  dla.buffer.sdp offline input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      prelu(%p : memref<16xf16>) of tensor<16xf16> relu
      output(%y : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
  return
}

// -----

func.func @not_a_precision(%x: memref<1x16x8x8xi32>, %w: memref<16x16x3x3xi8>, %y: memref<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.buffer.conv' op input element type 'i32' is not an NVDLA precision (i8, i16 or f16)}}
  dla.buffer.conv direct input(%x : memref<1x16x8x8xi32>) of tensor<1x16x8x8xi32>
      weight(%w : memref<16x16x3x3xi8>) of tensor<16x16x3x3xi8>
      output(%y : memref<1x16x8x8xi8>) of tensor<1x16x8x8xi8> pad [1, 1, 1, 1]
  return
}

// -----

// ODS states the logical types' ranks and element types.
func.func @logical_type_constraint(%x: memref<1x16x8x8xf32>, %y: memref<1x16x8x8xf32>) {
  // expected-error @+1 {{'dla.buffer.lrn' op attribute 'input_type' failed to satisfy constraint: type attribute of 4D tensor of NVDLA precision (i8, i16 or f16) values}}
  dla.buffer.lrn input(%x : memref<1x16x8x8xf32>) of tensor<1x16x8x8xf32>
      output(%y : memref<1x16x8x8xf32>) of tensor<1x16x8x8xf32> size 5
  return
}
