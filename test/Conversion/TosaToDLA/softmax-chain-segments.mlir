// RUN: dla-opt %s --dla-test-softmax-chains=max-segments=22 -split-input-file | FileCheck %s
// RUN: not dla-opt %s --dla-test-softmax-chains=max-segments=21 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT21 --implicit-check-not=error
// RUN: not dla-opt %s --dla-test-softmax-chains=max-segments=15 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT15 --implicit-check-not="the exp at scale"
// The softmax's chains stay within AttentionSoftmax.cpp's 24 segments
// (SoftmaxTables.h kSoftmaxMaxSegments) on every input it plans them for,
// so its remarks "the reciprocal over T keys has no chain" and "the exp at
// the scores' scale has no chain" are not reached: the reciprocal over
// each key count it takes (8 to 64, multiples of 8) plans in at most 22
// (56 keys; 21 for 40), the exp in at most 16 at the worst scale found
// (0.0231, scanning 2000 scales from 1e-3 to 1; 1 or 2 at scales from
// 1e-8 to 1e-3 and from 1 to 1e4).
// LIMIT21: error: the reciprocal over 56 keys has no chain of 21 segments
// LIMIT15: error: the exp at scale 0.0231 has no chain of 15 segments

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_8
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_8(%e: tensor<1x8x1x8xi8>) -> tensor<1x16x1x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x8x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 8 : i64} : tensor<1x8x1x8xi8>, tensor<16x8x1x1xi8> -> tensor<1x16x1x8xi8>
  return %s : tensor<1x16x1x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_16
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_16(%e: tensor<1x16x2x8xi8>) -> tensor<1x16x2x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x16x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 16 : i64} : tensor<1x16x2x8xi8>, tensor<16x16x1x1xi8> -> tensor<1x16x2x8xi8>
  return %s : tensor<1x16x2x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_24
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_24(%e: tensor<1x24x3x8xi8>) -> tensor<1x16x3x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x24x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 24 : i64} : tensor<1x24x3x8xi8>, tensor<16x24x1x1xi8> -> tensor<1x16x3x8xi8>
  return %s : tensor<1x16x3x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_32
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_32(%e: tensor<1x32x4x8xi8>) -> tensor<1x16x4x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x32x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 32 : i64} : tensor<1x32x4x8xi8>, tensor<16x32x1x1xi8> -> tensor<1x16x4x8xi8>
  return %s : tensor<1x16x4x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_40
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_40(%e: tensor<1x40x5x8xi8>) -> tensor<1x16x5x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x40x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 40 : i64} : tensor<1x40x5x8xi8>, tensor<16x40x1x1xi8> -> tensor<1x16x5x8xi8>
  return %s : tensor<1x16x5x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_48
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_48(%e: tensor<1x48x6x8xi8>) -> tensor<1x16x6x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x48x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 48 : i64} : tensor<1x48x6x8xi8>, tensor<16x48x1x1xi8> -> tensor<1x16x6x8xi8>
  return %s : tensor<1x16x6x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_56
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_56(%e: tensor<1x56x7x8xi8>) -> tensor<1x16x7x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x56x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 56 : i64} : tensor<1x56x7x8xi8>, tensor<16x56x1x1xi8> -> tensor<1x16x7x8xi8>
  return %s : tensor<1x16x7x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @keys_64
// CHECK-NOT: dla.test_reciprocal_keys
func.func @keys_64(%e: tensor<1x64x8x8xi8>) -> tensor<1x16x8x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x64x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 64 : i64} : tensor<1x64x8x8xi8>, tensor<16x64x1x1xi8> -> tensor<1x16x8x8xi8>
  return %s : tensor<1x16x8x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @exp_tiny
// CHECK-NOT: dla.test_exp_scale
func.func @exp_tiny(%x: tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8> {
  %d = dla.sdp offline %x {dla.test_exp_scale = 1.0e-08 : f64} : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  return %d : tensor<1x16x4x4xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @exp_worst
// CHECK-NOT: dla.test_exp_scale
func.func @exp_worst(%x: tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8> {
  %d = dla.sdp offline %x {dla.test_exp_scale = 0.0231 : f64} : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  return %d : tensor<1x16x4x4xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @exp_large
// CHECK-NOT: dla.test_exp_scale
func.func @exp_large(%x: tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8> {
  %d = dla.sdp offline %x {dla.test_exp_scale = 1.0e+04 : f64} : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  return %d : tensor<1x16x4x4xi8>
}
}
