// Integer constants in every SDP pattern: read exactly, never dereferenced
// unread (an int8 tosa.add of a per-channel constant aborted with "out of
// memory" before), and kept on the host with a remark when the integer
// layer cannot hold them.
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>/dev/null | FileCheck %s
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics -o /dev/null
// The same at int16 (the i8 sources stay on the host there, said so; nothing aborts):
// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=int16" -split-input-file -o /dev/null

// CHECK-LABEL: func.func @bias
// CHECK: %[[B:.*]] = arith.constant dense<[1, -2, 3, -4, 5, -6, 7, -8]> : tensor<8xi8>
// CHECK: dla.sdp offline %{{.*}} bias %[[B]] : tensor<8xi8> : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8>
func.func @bias(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %c = "tosa.const"() {values = dense<[[[[1, -2, 3, -4, 5, -6, 7, -8]]]]> : tensor<1x1x1x8xi8>} : () -> tensor<1x1x1x8xi8>
  %y = tosa.add %x, %c : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// The constant first, broadcast from 1x1x1x1.
// CHECK-LABEL: func.func @bias_splat_first
// CHECK: %[[B:.*]] = arith.constant dense<-7> : tensor<8xi8>
// CHECK: dla.sdp offline %{{.*}} bias %[[B]]
func.func @bias_splat_first(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %c = "tosa.const"() {values = dense<-7> : tensor<1x1x1x1xi8>} : () -> tensor<1x1x1x1xi8>
  %y = tosa.add %c, %x : (tensor<1x1x1x1xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// CHECK-LABEL: func.func @scale
// CHECK: %[[BN:.*]] = arith.constant dense<{{\[\[}}0, 2], [0, -3], [0, 4], [0, 5]]> : tensor<4x2xi8>
// CHECK: dla.sdp offline %{{.*}} batchnorm %[[BN]] : tensor<4x2xi8>
func.func @scale(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x4xi8> {
  %a = "tosa.const"() {values = dense<[[[[2, -3, 4, 5]]]]> : tensor<1x1x1x4xi8>} : () -> tensor<1x1x1x4xi8>
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.mul %x, %a, %s : (tensor<1x2x2x4xi8>, tensor<1x1x1x4xi8>, tensor<1xi8>) -> tensor<1x2x2x4xi8>
  return %y : tensor<1x2x2x4xi8>
}

// -----

// x * a + b with b a multiple of a: (x + b / a) * a exactly.
// CHECK-LABEL: func.func @batchnorm
// CHECK: %[[BN:.*]] = arith.constant dense<{{\[\[}}3, 2], [-1, -3], [0, 4], [2, 5]]> : tensor<4x2xi8>
// CHECK: dla.sdp offline %{{.*}} batchnorm %[[BN]] : tensor<4x2xi8>
func.func @batchnorm(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x4xi8> {
  %a = "tosa.const"() {values = dense<[[[[2, -3, 4, 5]]]]> : tensor<1x1x1x4xi8>} : () -> tensor<1x1x1x4xi8>
  %b = "tosa.const"() {values = dense<[[[[6, 3, 0, 10]]]]> : tensor<1x1x1x4xi8>} : () -> tensor<1x1x1x4xi8>
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.mul %x, %a, %s : (tensor<1x2x2x4xi8>, tensor<1x1x1x4xi8>, tensor<1xi8>) -> tensor<1x2x2x4xi8>
  %y = tosa.add %m, %b : (tensor<1x2x2x4xi8>, tensor<1x1x1x4xi8>) -> tensor<1x2x2x4xi8>
  return %y : tensor<1x2x2x4xi8>
}

// -----

// b not a multiple of a: no integer batch-norm; the multiply alone runs,
// the add of b (a bias) after it.
// CHECK-LABEL: func.func @batchnorm_inexact
// CHECK: dla.sdp offline %{{.*}} batchnorm
// CHECK: dla.sdp offline %{{.*}} bias
func.func @batchnorm_inexact(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x4xi8> {
  %a = "tosa.const"() {values = dense<[[[[2, -3, 4, 5]]]]> : tensor<1x1x1x4xi8>} : () -> tensor<1x1x1x4xi8>
  %b = "tosa.const"() {values = dense<[[[[1, 3, 0, 10]]]]> : tensor<1x1x1x4xi8>} : () -> tensor<1x1x1x4xi8>
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.mul %x, %a, %s : (tensor<1x2x2x4xi8>, tensor<1x1x1x4xi8>, tensor<1xi8>) -> tensor<1x2x2x4xi8>
  %y = tosa.add %m, %b : (tensor<1x2x2x4xi8>, tensor<1x1x1x4xi8>) -> tensor<1x2x2x4xi8>
  return %y : tensor<1x2x2x4xi8>
}

// -----

// CHECK-LABEL: func.func @residual
// CHECK: dla.sdp offline %{{.*}} eltwise %{{.*}} : tensor<1x8x4x4xi8>
func.func @residual(%x: tensor<1x4x4x8xi8>, %r: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %y = tosa.add %x, %r : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// An integer ReLU is the SDP's MAX / MIN stage program (dla.clamp).
// CHECK-LABEL: func.func @relu
// CHECK: dla.clamp %{{.*}} min 0.000000e+00 max 1.270000e+02 : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8>
func.func @relu(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %y = tosa.clamp %x {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}

// -----

// (x + 128) * -1 needs +128, which int8 cannot hold: the multiply runs
// alone, the add as a bias after it.
// CHECK-LABEL: func.func @batchnorm_out_of_range
// CHECK: dla.sdp offline %{{.*}} batchnorm
// CHECK: dla.sdp offline %{{.*}} bias
func.func @batchnorm_out_of_range(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x4xi8> {
  %a = "tosa.const"() {values = dense<[[[[-1, 1, 1, 1]]]]> : tensor<1x1x1x4xi8>} : () -> tensor<1x1x1x4xi8>
  %b = "tosa.const"() {values = dense<[[[[-128, 0, 0, 0]]]]> : tensor<1x1x1x4xi8>} : () -> tensor<1x1x1x4xi8>
  %s = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.mul %x, %a, %s : (tensor<1x2x2x4xi8>, tensor<1x1x1x4xi8>, tensor<1xi8>) -> tensor<1x2x2x4xi8>
  %y = tosa.add %m, %b : (tensor<1x2x2x4xi8>, tensor<1x1x1x4xi8>) -> tensor<1x2x2x4xi8>
  return %y : tensor<1x2x2x4xi8>
}

// -----

// A clamp below at 64 is no ReLU, but the SDP's MAX / MIN program: dla.clamp.
// CHECK-LABEL: func.func @clamp_low
// CHECK: dla.clamp %{{.*}} min 6.400000e+01 max 1.270000e+02
func.func @clamp_low(%x: tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8> {
  %y = tosa.clamp %x {min_val = 64 : i8, max_val = 127 : i8} : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return %y : tensor<1x4x4x8xi8>
}
