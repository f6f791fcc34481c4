// The softmax of a layer's dequantized int8 logits (EmulatorPatterns.cpp)
// becomes dla.emu_softmax, NVIDIA's runtime emulator: its input scale is
// the dequantization's, its output int8 probabilities in steps of 1/128,
// dequantized on the host. Anything else stays on the host.
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// REMARK: convert-tosa-emulator.mlir:[[#@LINE+34]]:9: remark: softmax over 4 int8 logits runs in NVIDIA's runtime emulator (an EMU task after the DLA task): probabilities in steps of 1/128, truncated
// REMARK-NOT: NVIDIA's runtime emulator
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8 emulator=false" -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=OFF

// The classifier's head as ONNX's importer writes it.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[L:.*]] = dla.pool average
// CHECK: %[[P:.*]] = dla.emu_softmax %[[L]] {input_scale = 1.250000e-01 : f32, output_scale = 7.812500e-03 : f32} : tensor<1x4x1x1xi8>
// CHECK: %[[F:.*]] = tosa.cast %[[P]] : (tensor<1x4x1x1xi8>) -> tensor<1x4x1x1xf32>
// CHECK: %[[M:.*]] = tosa.mul %[[F]], %{{.*}}, %{{.*}} : (tensor<1x4x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x1xf32>
// CHECK: %[[R:.*]] = tosa.reshape %[[M]]
// CHECK-NOT: tosa.exp
// CHECK: return %[[R]] : tensor<1x4xf32>
// OFF-LABEL: func.func @softmax
// OFF-NOT: dla.emu_softmax
// OFF: tosa.exp
func.func @softmax(%x: tensor<1x4x1x1xi8>) -> tensor<1x4xf32> {
  %l = dla.pool average %x kernel [1, 1] : tensor<1x4x1x1xi8> -> tensor<1x4x1x1xi8>
  %s2 = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s3 = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.reshape %l, %s2 : (tensor<1x4x1x1xi8>, !tosa.shape<2>) -> tensor<1x4xi8>
  %1 = tosa.cast %0 : (tensor<1x4xi8>) -> tensor<1x4xi32>
  %2 = tosa.reshape %1, %s3 : (tensor<1x4xi32>, !tosa.shape<3>) -> tensor<1x1x4xi32>
  %3 = tosa.cast %2 : (tensor<1x1x4xi32>) -> tensor<1x1x4xf32>
  %4 = tosa.mul %3, %scale, %shift : (tensor<1x1x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x4xf32>
  %5 = tosa.reshape %4, %s2 : (tensor<1x1x4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
  %6 = tosa.reduce_max %5 {axis = 1 : i32} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  %7 = tosa.sub %5, %6 : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %8 = tosa.exp %7 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %9 = tosa.reduce_sum %8 {axis = 1 : i32} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  %10 = tosa.reciprocal %9 : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %11 = tosa.mul %8, %10, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  return %11 : tensor<1x4xf32>
}

// -----

// A zero point: the emulator has none; the chain stays on the host.
// CHECK-LABEL: func.func @zero_point
// CHECK-NOT: dla.emu_softmax
// CHECK: tosa.exp
func.func @zero_point(%x: tensor<1x4x1x1xi8>) -> tensor<1x4xf32> {
  %l = dla.pool average %x kernel [1, 1] : tensor<1x4x1x1xi8> -> tensor<1x4x1x1xi8>
  %s2 = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zp = "tosa.const"() <{values = dense<3.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.reshape %l, %s2 : (tensor<1x4x1x1xi8>, !tosa.shape<2>) -> tensor<1x4xi8>
  %1 = tosa.cast %0 : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %2 = tosa.sub %1, %zp : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %3 = tosa.mul %2, %scale, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %6 = tosa.reduce_max %3 {axis = 1 : i32} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  %7 = tosa.sub %3, %6 : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  %8 = tosa.exp %7 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %9 = tosa.reduce_sum %8 {axis = 1 : i32} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  %10 = tosa.reciprocal %9 : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %11 = tosa.mul %8, %10, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  return %11 : tensor<1x4xf32>
}

// -----

// Two rows of logits: the emulator takes one cube's channels.
// CHECK-LABEL: func.func @rows
// CHECK-NOT: dla.emu_softmax
// CHECK: tosa.exp
func.func @rows(%x: tensor<1x8x1x1xi8>) -> tensor<2x4xf32> {
  %l = dla.pool average %x kernel [1, 1] : tensor<1x8x1x1xi8> -> tensor<1x8x1x1xi8>
  %s2 = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.reshape %l, %s2 : (tensor<1x8x1x1xi8>, !tosa.shape<2>) -> tensor<2x4xi8>
  %1 = tosa.cast %0 : (tensor<2x4xi8>) -> tensor<2x4xf32>
  %3 = tosa.mul %1, %scale, %shift : (tensor<2x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  %6 = tosa.reduce_max %3 {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %7 = tosa.sub %3, %6 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %8 = tosa.exp %7 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %9 = tosa.reduce_sum %8 {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %10 = tosa.reciprocal %9 : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %11 = tosa.mul %8, %10, %shift : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  return %11 : tensor<2x4xf32>
}
