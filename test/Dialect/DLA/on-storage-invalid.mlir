// Every diagnostic of dla.on_storage's verifier (and of dla.yield's place).
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @arity(%x: memref<2048xi8>, %y: memref<512xi8>) {
  // expected-error @+1 {{'dla.on_storage' op has 1 storage operand(s) but its body takes 0 logical operand(s)}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<512xi8>) {
    %c = arith.constant dense<0.0> : tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %c : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

func.func @unranked(%x: memref<2048xi8>, %y: memref<512xi8>) {
  // expected-error @+1 {{'dla.on_storage' op operand #0 must be a ranked tensor, got 'tensor<*xf16>'}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<512xi8>) {
  ^bb0(%a: tensor<*xf16>):
    %c = arith.constant dense<0.0> : tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %c : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

func.func @dynamic(%x: memref<2048xi8>, %y: memref<512xi8>) {
  // expected-error @+1 {{'dla.on_storage' op operand #0: storage of 'tensor<1x?x8x8xf16, #dla.feature<fp16>>' needs a static shape}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<512xi8>) {
  ^bb0(%a: tensor<1x?x8x8xf16, #dla.feature<fp16>>):
    %c = arith.constant dense<0.0> : tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %c : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

func.func @foreign_encoding(%x: memref<2048xi8>, %y: memref<512xi8>) {
  // expected-error @+1 {{'dla.on_storage' op operand #0: 'tensor<1x16x8x8xf16, "nchw">' has an encoding that is no dla layout}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<512xi8>) {
  ^bb0(%a: tensor<1x16x8x8xf16, "nchw">):
    %c = arith.constant dense<0.0> : tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %c : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

// 1x16x8x8 fp16 feature data is 2048 bytes of storage.
func.func @wrong_size(%x: memref<1024xi8>, %y: memref<512xi8>) {
  // expected-error @+1 {{'dla.on_storage' op operand #0 is stored in 'memref<2048xi8>' (the storage of 'tensor<1x16x8x8xf16, #dla.feature<fp16>>'), got 'memref<1024xi8>'}}
  dla.on_storage ins(%x : memref<1024xi8>) outs(%y : memref<512xi8>) {
  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>):
    %p = dla.pool max %a kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %p : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

// A plain operand is its row-major memref, not bytes.
func.func @plain_as_bytes(%x: memref<2048xi8>, %y: memref<512xi8>) {
  // expected-error @+1 {{'dla.on_storage' op operand #0 is stored in 'memref<1x16x8x8xf16>' (the storage of 'tensor<1x16x8x8xf16>'), got 'memref<2048xi8>'}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<512xi8>) {
  ^bb0(%a: tensor<1x16x8x8xf16>):
    %p = dla.pool max %a kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %p : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

// Compressed weights are held by three surfaces (WGS, WMB, data), sized by
// the data: one buffer is too few.
func.func @compressed_one_buffer(%x: memref<2048xi8>, %w: memref<4608xi8>, %y: memref<2048xi8>) {
  // expected-error @+1 {{'dla.on_storage' op has 2 storage operand(s), too few for the 2 logical operand(s) of its body}}
  dla.on_storage ins(%x, %w : memref<2048xi8>, memref<4608xi8>) outs(%y : memref<2048xi8>) {
  ^bb0(%a: tensor<1x16x8x8xi8, #dla.feature<int8>>, %b: tensor<16x16x3x3xi8, #dla.weight<direct, int8, compressed>>):
    %c = dla.conv direct %a, %b pad [1, 1, 1, 1] : tensor<1x16x8x8xi8, #dla.feature<int8>>, tensor<16x16x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x16x8x8xi8, #dla.feature<int8>>
    dla.yield %c : tensor<1x16x8x8xi8, #dla.feature<int8>>
  }
  return
}

// -----

func.func @compressed_surface_type(%x: memref<2048xi8>, %g: memref<128xi8>, %m: memref<256xi32>, %d: memref<2304xi8>, %y: memref<2048xi8>) {
  // expected-error @+1 {{'dla.on_storage' op operand #2 holds surface 1 of 'tensor<16x16x3x3xi8, #dla.weight<direct, int8, compressed>>', which must be a static memref<BYTES x i8>, got 'memref<256xi32>'}}
  dla.on_storage ins(%x, %g, %m, %d : memref<2048xi8>, memref<128xi8>, memref<256xi32>, memref<2304xi8>) outs(%y : memref<2048xi8>) {
  ^bb0(%a: tensor<1x16x8x8xi8, #dla.feature<int8>>, %b: tensor<16x16x3x3xi8, #dla.weight<direct, int8, compressed>>):
    %c = dla.conv direct %a, %b pad [1, 1, 1, 1] : tensor<1x16x8x8xi8, #dla.feature<int8>>, tensor<16x16x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x16x8x8xi8, #dla.feature<int8>>
    dla.yield %c : tensor<1x16x8x8xi8, #dla.feature<int8>>
  }
  return
}

// -----

func.func @yield_count(%x: memref<2048xi8>, %y: memref<512xi8>, %z: memref<512xi8>) {
  // expected-error @+1 {{'dla.on_storage' op has 2 result storage(s) but its body yields 1 value(s)}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y, %z : memref<512xi8>, memref<512xi8>) {
  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>):
    %p = dla.pool max %a kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %p : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

func.func @result_storage(%x: memref<2048xi8>, %y: memref<1x16x4x4xf16>) {
  // expected-error @+1 {{'dla.on_storage' op result #0 is stored in 'memref<512xi8>' (the storage of 'tensor<1x16x4x4xf16, #dla.feature<fp16>>'), got 'memref<1x16x4x4xf16>'}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<1x16x4x4xf16>) {
  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>):
    %p = dla.pool max %a kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
    dla.yield %p : tensor<1x16x4x4xf16, #dla.feature<fp16>>
  }
  return
}

// -----

func.func @not_a_layer(%x: memref<2048xi8>, %y: memref<2048xi8>) {
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<2048xi8>) {
  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>):
    // expected-error @+1 {{'dla.relayout' op cannot run on storage: only layer ops (dla.conv, dla.sdp, ...) may be in the body of a dla.on_storage}}
    %r = dla.relayout %a : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16, line_stride = 256>>
    %p = dla.relayout %r : tensor<1x16x8x8xf16, #dla.feature<fp16, line_stride = 256>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
    dla.yield %p : tensor<1x16x8x8xf16, #dla.feature<fp16>>
  }
  return
}

// -----

func.func @terminator(%x: memref<2048xi8>, %y: memref<2048xi8>) {
  // expected-error @+1 {{'dla.on_storage' op body must end in dla.yield}}
  dla.on_storage ins(%x : memref<2048xi8>) outs(%y : memref<2048xi8>) {
  ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>):
    llvm.unreachable
  }
  return
}

// -----

func.func @yield_outside(%a: tensor<1x16x8x8xf16>) {
  // expected-error @+1 {{'dla.yield' op expects parent op 'dla.on_storage'}}
  dla.yield %a : tensor<1x16x8x8xf16>
}
