// What --dla-lower-buffers-to-reference cannot run on the CPU.
// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-lower-buffers-to-reference

// A view that comes from nowhere the pass can see: no storage to unpack.
func.func @view_argument(%x: memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>, %y: memref<1x16x8x8xf16>) {
  // expected-error @+1 {{'dla.buffer.lrn' op cannot find the storage buffer of 'input': its view is not a memref.reinterpret_cast of a memref.view of the storage bytes}}
  dla.buffer.lrn input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>>
      output(%y : memref<1x16x8x8xf16>) of tensor<1x16x8x8xf16> size 3
  return
}

// -----

// --dla-lower-to-memref states it; a hand-written one may not.
func.func @on_the_fly(%s: memref<2048xi8>, %y: memref<1x16x8x8xf16>) {
  %c0 = arith.constant 0 : index
  %v = memref.view %s[%c0][] : memref<2048xi8> to memref<1024xf16>
  %x = memref.reinterpret_cast %v to offset: [0], sizes: [1, 1, 8, 8, 16], strides: [1024, 1024, 128, 16, 1] : memref<1024xf16> to memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>
  // expected-error @+1 {{'dla.buffer.sdp' op an on_the_fly SDP runs on the CPU from its memref form only with its pipeline_precision (the memref form does not name the producing convolution)}}
  dla.buffer.sdp on_the_fly input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>) of tensor<1x16x8x8xf16, #dla.feature<fp16>> relu
      output(%y : memref<1x16x8x8xf16>) of tensor<1x16x8x8xf16>
  return
}
