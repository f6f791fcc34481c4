// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// An int8 product of two run-time tensors (attention's q k^T, issue 45;
// ActivationProducts.cpp) runs per batch slice as a 1x1 dla.conv of A_i
// as the map [1, K, 1, M] by dla.as_weights of B_i as the map [1, K, P / 8,
// 8] (P kernels of K channels: B_i [K, P] read as it stands), its rescale
// the convolution's SDP; the slices' results joined on the batch. Where it
// cannot (zero points, shapes the weight stream refuses), the product
// stays on the host with a located remark that says why.

// Two heads of q k^T: 40 tokens, 16 dims.
// CHECK-LABEL: func.func @two_heads
// CHECK:         %[[B0:.*]] = tosa.slice %arg1
// CHECK:         %[[S0:.*]] = tosa.reshape %[[B0]], %{{.*}} : (tensor<1x16x40xi8>, !tosa.shape<4>) -> tensor<1x16x5x8xi8>
// CHECK:         %[[W0:.*]] = dla.as_weights %[[S0]] : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
// CHECK:         %[[C0:.*]] = dla.conv direct %{{.*}}, %[[W0]] : tensor<1x16x1x40xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x1x40xi8>
// CHECK:         dla.sdp on_the_fly %[[C0]]
// CHECK:         dla.as_weights
// CHECK:         dla.conv direct
// CHECK:         tosa.concat {{.*}} {axis = 0 : i32} : (tensor<1x40x40xi8>, tensor<1x40x40xi8>) -> tensor<2x40x40xi8>
// CHECK-NOT:     tosa.matmul
// CHECK-NOT:     tosa.rescale
func.func @two_heads(%a: tensor<2x40x16xi8>, %b: tensor<2x16x40xi8>) -> tensor<2x40x40xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %a, %b, %z, %z : (tensor<2x40x16xi8>, tensor<2x16x40xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x40x40xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<2x40x40xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x40x40xi8>
  return %y : tensor<2x40x40xi8>
}

// -----

// B's zero point 5: NVDLA reads weights without an offset.
// REMARK: convert-tosa-activation-product.mlir:[[#@LINE+6]]:8: remark: stays on the host: its right operand's zero point is 5: NVDLA reads a run-time weight (dla.as_weights) without an offset, so it must be quantized at zero point 0
// CHECK-LABEL: func.func @b_offset
// CHECK:         tosa.matmul
func.func @b_offset(%a: tensor<1x8x16xi8>, %b: tensor<1x16x8xi8>) -> tensor<1x8x8xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %bz = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %a, %b, %z, %bz : (tensor<1x8x16xi8>, tensor<1x16x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x8x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8xi8>
  return %y : tensor<1x8x8xi8>
}

// -----

// A's zero point -7: its share, -7 times each run-time kernel's sum, is
// not known when compiling.
// REMARK: convert-tosa-activation-product.mlir:[[#@LINE+6]]:8: remark: stays on the host: its left operand's zero point is -7
// CHECK-LABEL: func.func @a_offset
// CHECK:         tosa.matmul
func.func @a_offset(%a: tensor<1x8x16xi8>, %b: tensor<1x16x8xi8>) -> tensor<1x8x8xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %az = "tosa.const"() {values = dense<-7> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %a, %b, %az, %z : (tensor<1x8x16xi8>, tensor<1x16x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x8x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8xi8>
  return %y : tensor<1x8x8xi8>
}

// -----

// The recognizer's heads: 15 dims. q k^T's B [15, 40] has 15 channels (the
// format library refuses the stream), p v's B [40, 15] 15 columns.
// REMARK: convert-tosa-activation-product.mlir:[[#@LINE+6]]:8: remark: stays on the host: its right operand [15, 40] cannot be read as weights: a map read as 1x1 convolution weights has 15 channels, not a positive multiple of 8
// REMARK: convert-tosa-activation-product.mlir:[[#@LINE+6]]:9: remark: stays on the host: its right operand has 15 columns: read as weights it is a map of its columns as rows of 8 positions (dla.as_weights), so they must be a multiple of 8
// CHECK-LABEL: func.func @fifteen
// CHECK-COUNT-2: tosa.matmul
func.func @fifteen(%q: tensor<8x40x15xi8>, %kt: tensor<8x15x40xi8>, %p: tensor<8x40x40xi8>, %v: tensor<8x40x15xi8>) -> (tensor<8x40x40xi8>, tensor<8x40x15xi8>) {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<8x40x15xi8>, tensor<8x15x40xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<8x40x40xi32>
  %pv = tosa.matmul %p, %v, %z, %z : (tensor<8x40x40xi8>, tensor<8x40x15xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<8x40x15xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %s8 = tosa.rescale %s, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<8x40x40xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<8x40x40xi8>
  %y = tosa.rescale %pv, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<8x40x15xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<8x40x15xi8>
  return %s8, %y : tensor<8x40x40xi8>, tensor<8x40x15xi8>
}

// -----

// A factor of 2^-63: no pair of int16 multipliers holds it, so the SDP has
// no program and the product stays on the host with the reason (it crashed
// --dla-convert-tosa: the constant-weight product pattern took the
// activation product then, and read its right operand as constant bytes).
// REMARK: convert-tosa-activation-product.mlir:[[#@LINE+5]]:8: remark: stays on the host: its requantization scale has no pair of int16 multipliers: scale factor 1.0842021724855044e-19 is outside what two int16 multipliers and 6-bit shifts hold
// CHECK-LABEL: func.func @tiny_factor
// CHECK:         tosa.matmul
func.func @tiny_factor(%a: tensor<1x8x16xi8>, %b: tensor<1x16x8xi8>) -> tensor<1x8x8xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.matmul %a, %b, %z, %z : (tensor<1x8x16xi8>, tensor<1x16x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8xi32>
  %mult = "tosa.const"() {values = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<63> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x8x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x8xi8>
  return %y : tensor<1x8x8xi8>
}
