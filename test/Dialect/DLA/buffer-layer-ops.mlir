// The storage-view layer ops print and parse back to the same IR: each
// operand's views (strides, plane offsets) with its logical type.
// RUN: dla-opt %s | dla-opt | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --mlir-print-op-generic | dla-opt | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @conv_direct
// CHECK-SAME: (%[[X:.*]]: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %[[W:.*]]: memref<1x1x3x3x16x16xf16, strided<[2304, 2304, 768, 256, 16, 1]>>, %[[B:.*]]: memref<1x16xf16, strided<[16, 1]>>, %[[Y:.*]]: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
// CHECK: dla.buffer.conv direct input(%[[X]] : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-SAME: weight(%[[W]] : memref<1x1x3x3x16x16xf16, strided<[2304, 2304, 768, 256, 16, 1]>>) of tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK-SAME: bias(%[[B]] : memref<1x16xf16, strided<[16, 1]>>) of tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK-SAME: output(%[[Y]] : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-SAME: pad [1, 1, 1, 1]
func.func @conv_direct(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>,
                       %w: memref<1x1x3x3x16x16xf16, strided<[2304, 2304, 768, 256, 16, 1]>>, %b: memref<1x16xf16, strided<[16, 1]>>,
                       %y: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) {
  dla.buffer.conv direct
      input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
        of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      weight(%w : memref<1x1x3x3x16x16xf16, strided<[2304, 2304, 768, 256, 16, 1]>>) of tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
      bias(%b : memref<1x16xf16, strided<[16, 1]>>) of tensor<16xf16, #dla.bias<per_channel, fp16>>
      output(%y : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
        of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      pad [1, 1, 1, 1]
  return
}

// Semi-planar pixels: one view per component, U and V at their plane offsets.
// CHECK-LABEL: func.func @conv_image
// CHECK: dla.buffer.conv image input(%{{[a-z_0-9]+}}, %{{[a-z_0-9]+}}, %{{[a-z_0-9]+}} : memref<8x8xui8, strided<[32, 1]>>, memref<8x8xui8, strided<[32, 2], offset: 257>>, memref<8x8xui8, strided<[32, 2], offset: 256>>) of tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>
// CHECK-SAME: weight(%{{[a-z_0-9]+}} : memref<128xi8>) of tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>>
// CHECK-SAME: output(%{{[a-z_0-9]+}} : memref<1x1x6x6x32xi8, strided<[1152, 1152, 192, 32, 1]>>) of tensor<1x4x6x6xi8, #dla.feature<int8>>
// CHECK-SAME: {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @conv_image(%y0: memref<8x8xui8, strided<[32, 1]>>,
                      %u: memref<8x8xui8, strided<[32, 2], offset: 257>>,
                      %v: memref<8x8xui8, strided<[32, 2], offset: 256>>,
                      %w: memref<128xi8>, %out: memref<1x1x6x6x32xi8, strided<[1152, 1152, 192, 32, 1]>>) {
  dla.buffer.conv image
      input(%y0, %u, %v : memref<8x8xui8, strided<[32, 1]>>, memref<8x8xui8, strided<[32, 2], offset: 257>>,
            memref<8x8xui8, strided<[32, 2], offset: 256>>) of tensor<1x3x8x8xui8, #dla.pixel<T_Y8___U8V8_N444>>
      weight(%w : memref<128xi8>) of tensor<4x3x3x3xi8, #dla.weight<image, int8, channels = 3>>
      output(%out : memref<1x1x6x6x32xi8, strided<[1152, 1152, 192, 32, 1]>>) of tensor<1x4x6x6xi8, #dla.feature<int8>>
      {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
  return
}

// A row-major operand (no encoding) is its plain memref.
// CHECK-LABEL: func.func @sdp
// CHECK: dla.buffer.sdp offline input(%{{[a-z_0-9]+}} : memref<1x2x3x5x16xi16, strided<[480, 240, 80, 16, 1]>>) of tensor<1x20x3x5xi16, #dla.feature<int16>>
// CHECK-SAME: bias(%{{[a-z_0-9]+}} : memref<2x16xi16, strided<[16, 1]>>) of tensor<20xi16, #dla.bias<per_channel, int16>>
// CHECK-SAME: prelu(%{{[a-z_0-9]+}} : memref<20xi16>) of tensor<20xi16>
// CHECK-SAME: output(%{{[a-z_0-9]+}} : memref<1x2x3x5x16xi16, strided<[640, 320, 96, 16, 1]>>) of tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
func.func @sdp(%x: memref<1x2x3x5x16xi16, strided<[480, 240, 80, 16, 1]>>, %b: memref<2x16xi16, strided<[16, 1]>>,
               %p: memref<20xi16>, %y: memref<1x2x3x5x16xi16, strided<[640, 320, 96, 16, 1]>>) {
  dla.buffer.sdp offline
      input(%x : memref<1x2x3x5x16xi16, strided<[480, 240, 80, 16, 1]>>) of tensor<1x20x3x5xi16, #dla.feature<int16>>
      bias(%b : memref<2x16xi16, strided<[16, 1]>>) of tensor<20xi16, #dla.bias<per_channel, int16>>
      prelu(%p : memref<20xi16>) of tensor<20xi16>
      output(%y : memref<1x2x3x5x16xi16, strided<[640, 320, 96, 16, 1]>>)
        of tensor<1x20x3x5xi16, #dla.feature<int16, line_stride = 192, surface_stride = 640>>
  return
}

// CHECK-LABEL: func.func @pool_lrn
// CHECK: dla.buffer.pool average input(%{{[a-z_0-9]+}} : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-SAME: output(%{{[a-z_0-9]+}} : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x16x4x4xf16, #dla.feature<fp16>> kernel [2, 2] stride [2, 2]
// CHECK: dla.buffer.lrn input(%{{[a-z_0-9]+}} : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x16x4x4xf16, #dla.feature<fp16>>
// CHECK-SAME: output(%{{[a-z_0-9]+}} : memref<1x16x4x4xf16>) of tensor<1x16x4x4xf16> size 3 {beta = 5.000000e-01 : f32}
func.func @pool_lrn(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>,
                    %p: memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>, %y: memref<1x16x4x4xf16>) {
  dla.buffer.pool average
      input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      output(%p : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x16x4x4xf16, #dla.feature<fp16>>
      kernel [2, 2] stride [2, 2]
  dla.buffer.lrn
      input(%p : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>) of tensor<1x16x4x4xf16, #dla.feature<fp16>>
      output(%y : memref<1x16x4x4xf16>) of tensor<1x16x4x4xf16> size 3 {beta = 0.5 : f32}
  return
}
