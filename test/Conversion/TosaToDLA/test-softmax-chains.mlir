// RUN: dla-opt %s --dla-test-softmax-chains -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not dla-opt %s --dla-test-softmax-chains=max-segments=12 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// The reciprocal chain over a convolution's accumulator
// (emitAccumulatorChain; its CPU execution against numpy:
// test/Execution/reciprocal-chain.test): the marked convolution reads by
// the first on-the-fly SDP, each later segment a copy of it (marker
// dropped) whose SDP adds the previous pass's map in X2. The first two
// passes as softmax_int8_model.RECIP_SEGMENTS plans them: knots 127, 151,
// 190; multipliers 28672 >> 15, 18485 >> 15; offsets -(-127 + 127 - -106)
// = -106 and (127 - -106) - (127 - -84) = 22; the last pass negates back
// (scale -1) with c = 0.

// CHECK-LABEL: func.func @recip
// CHECK: %[[A0:.*]] = dla.conv direct %[[E:[^,]*]], %[[W:[^ ]*]] : tensor<1x40x5x8xi8>, tensor<16x40x1x1xi8> -> tensor<1x16x5x8xi8>
// CHECK-NEXT: %[[R0:.*]] = dla.sdp on_the_fly %[[A0]] bs <alu = sum, alu_operand = -127, mul_operand = 28672, mul_shift = 15, relu = true> out_cvt <offset = -106, scale = 1, shift = 0>
// CHECK-NEXT: %[[A1:.*]] = dla.conv direct %[[E]], %[[W]] :
// CHECK-NEXT: %[[R1:.*]] = dla.sdp on_the_fly %[[A1]] eltwise %[[R0]] : tensor<1x16x5x8xi8> bs <alu = sum, alu_operand = -151, mul_operand = 18485, mul_shift = 15, relu = true> bn <alu = sum, alu_operand = eltwise> out_cvt <offset = 22, scale = 1, shift = 0>
// CHECK-COUNT-18: dla.sdp on_the_fly
// CHECK-NOT: dla.test_reciprocal_keys
// CHECK: %[[LAST:.*]] = dla.sdp on_the_fly %{{.*}} bs <alu = sum, alu_operand = -4610, mul_operand = 0, mul_shift = 24, relu = true> bn <alu = sum, alu_operand = eltwise> out_cvt <offset = {{-?[0-9]+}}, scale = -1, shift = 0>
// CHECK-NEXT: return %[[LAST]]
// LIMIT: error: the reciprocal over 40 keys has no chain of 12 segments
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @recip(%e: tensor<1x40x5x8xi8>) -> tensor<1x16x5x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x40x1x1xi8>
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 40 : i64} : tensor<1x40x5x8xi8>, tensor<16x40x1x1xi8> -> tensor<1x16x5x8xi8>
  return %s : tensor<1x16x5x8xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @bad(%e: tensor<1x40x5x8xi8>) -> tensor<1x16x5x8xi8> {
  %ones = arith.constant dense<1> : tensor<16x40x1x1xi8>
  // expected-error @+1 {{dla.test_reciprocal_keys is not a positive integer}}
  %s = dla.conv direct %e, %ones {dla.test_reciprocal_keys = 0 : i64} : tensor<1x40x5x8xi8>, tensor<16x40x1x1xi8> -> tensor<1x16x5x8xi8>
  return %s : tensor<1x16x5x8xi8>
}
}

// -----

// The exp chain over d = m - s - 128 (scores at 0.0317: 13 offline passes,
// the chain of the negated table; its CPU execution against numpy:
// test/Execution/exp-chain.test): pass 0 as softmax_int8_model plans it,
// knots -128, -120, multiplier 29696 >> 13, offset -(-127 + 127 - -98) =
// -98; the last negates back. The marked op's users read the chain.
// CHECK-LABEL: func.func @exp
// CHECK: %[[D:.*]] = dla.sdp offline %arg0 : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
// CHECK-NEXT: %[[P0:.*]] = dla.sdp offline %[[D]] bs <alu = sum, alu_operand = 128, mul_operand = 29696, mul_shift = 13, relu = true> out_cvt <offset = -98, scale = 1, shift = 0>
// CHECK-NEXT: dla.sdp offline %[[D]] eltwise %[[P0]] : tensor<1x16x4x4xi8> bs <alu = sum, alu_operand = 120, mul_operand = 22118, mul_shift = 13, relu = true> bn <alu = sum, alu_operand = eltwise>
// CHECK-COUNT-10: dla.sdp offline %[[D]] eltwise
// CHECK-NEXT: %[[LAST:.*]] = dla.sdp offline %[[D]] eltwise {{.*}} bs <alu = sum, alu_operand = -69, mul_operand = 0, mul_shift = 24, relu = true> bn <alu = sum, alu_operand = eltwise> out_cvt <offset = {{-?[0-9]+}}, scale = -1, shift = 0>
// CHECK-NEXT: return %[[LAST]]
// LIMIT: error: the exp at scale 0.0317 has no chain of 12 segments
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @exp(%x: tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8> {
  %d = dla.sdp offline %x {dla.test_exp_scale = 0.0317 : f64} : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  return %d : tensor<1x16x4x4xi8>
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @bad_exp(%x: tensor<1x16x4x4xi8>) -> tensor<1x16x4x4xi8> {
  // expected-error @+1 {{dla.test_exp_scale is not a positive float on an op of one rank-4 int8 result}}
  %d = dla.sdp offline %x {dla.test_exp_scale = 0.0 : f64} : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  return %d : tensor<1x16x4x4xi8>
}
}
