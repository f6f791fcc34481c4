// Winograd fp16 weights from f32 weights, the two ways --dla-pack-weights
// packs them, each with a remark saying which (the bytes are checked in
// pack-nvdla-weight-reference.mlir): straight from the f32 constant (one
// rounding, as NVIDIA's compiler) or through arith.truncf (two). Only
// Winograd fp16 weights may be relayouted from f32 (invalid.mlir).
// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-pack-weights
// The reference execution reads the taps the packer stores (the f32
// weights transformed and rounded once): the storage of the relayout.
// RUN: dla-opt %s -split-input-file --dla-lower-to-reference 2>/dev/null | FileCheck %s

// CHECK-LABEL: func.func @straight
// CHECK: %[[W:.*]] = dla.relayout %{{.*}} : tensor<16x16x3x3xf32> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
// CHECK: dla.to_storage %[[W]]
// CHECK-NOT: arith.truncf {{.*}} : tensor<16x16x3x3xf32>
// CHECK: return
func.func @straight(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  %c = arith.constant dense<0.3> : tensor<16x16x3x3xf32>
  // expected-remark @+1 {{Winograd fp16 weights from f32: transformed in f32, rounded once (as NVIDIA's compiler)}}
  %w = dla.relayout %c : tensor<16x16x3x3xf32> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
  %y = dla.conv winograd %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// -----

func.func @through_truncf() -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>> {
  %c = arith.constant dense<0.3> : tensor<16x16x3x3xf32>
  %h = arith.truncf %c : tensor<16x16x3x3xf32> to tensor<16x16x3x3xf16>
  // expected-remark @+1 {{Winograd fp16 weights from the arith.truncf-rounded weights: transformed, rounded again (relayout the f32 constant straight into the encoding to round once)}}
  %w = dla.relayout %h : tensor<16x16x3x3xf16> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
  return %w : tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
}

