// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics | FileCheck %s
// An int8 feature map rescaled to int8 with no accumulator in front (the
// rescale after squeeze-excitation's pool, a requantization between two
// layers) as an offline SDP (RescalePatterns.cpp): x - zx in X1's ALU, the
// factor as X1 x X2 int16 multipliers whose shifts keep 12 bits below the
// output's unit, ReLU at the output zero point in X2, the zero point in
// the output converter. The multipliers below come from a brute force over
// int16 pairs (Python, written for this test), not from the output.
// Executed against TOSA in test/Execution/quant-tosa-layers.test, on
// NVIDIA's C model in test/NvdlaCModel/trace-quant-tosa.test.

// Factor 0.75 (1610612736 2^-31): 0.75 2^30 = 805306368 lands in
// [2^29, 2^30), so the shifts are 3 + 15 + 12 = 30; the int16 pair whose
// product is nearest is 30778 x 26165 (805306370). X1 adds -zx = -3 (one
// value for every channel: a register, as X1's multiplier is; NVIDIA's
// firmware takes a stage's two operands from one source); out_cvt adds
// -zy 2^12 = 20480; the clamp at zy = -5 is X2's ReLU.
// CHECK-LABEL: func.func @per_tensor_relu
// CHECK:         dla.sdp offline %{{.*}} bs <alu = sum, alu_operand = -3, mul_operand = 30778, mul_shift = 3> bn <mul_operand = 26165, mul_shift = 15, relu = true> out_cvt <offset = 20480, scale = 1, shift = 12> : tensor<1x3x2x2xi8> -> tensor<1x3x2x2xi8>
// CHECK-NOT:     tosa.rescale
// CHECK-NOT:     tosa.clamp
// CHECK-NOT:     dla.clamp
func.func @per_tensor_relu(%x: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %m = "tosa.const"() {values = dense<1610612736> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<31> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %m, %s, %zx, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  %1 = tosa.clamp %0 {min_val = -5 : i8, max_val = 127 : i8} : (tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8>
  return %1 : tensor<1x2x2x3xi8>
}

// -----

// Per channel, factors 1 and 0.1875: 2^29 sets the shifts (2 + 15 + 12);
// 32766 x 16385 = 2^29 - 2 (nearest pair), 24576 x 4096 exact. X1's
// multipliers are the PReLU surface read as a plain multiply; X2 reads
// (bias, multiplier) pairs, the bias -zx = 2 in X1's result units:
// 2 x 32766 / 2^2 = 16383, 2 x 24576 / 2^2 = 12288.
// CHECK-LABEL: func.func @per_channel
// CHECK-DAG:     %[[BN:.*]] = arith.constant dense<{{\[}}[16383, 16385], [12288, 4096]]> : tensor<2x2xi16>
// CHECK-DAG:     %[[P:.*]] = arith.constant dense<[32766, 24576]> : tensor<2xi16>
// CHECK:         dla.sdp offline %{{.*}} batchnorm %[[BN]] : tensor<2x2xi16> prelu %[[P]] : tensor<2xi16> bs <mul_operand = prelu, mul_shift = 2> bn <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm, mul_shift = 15> out_cvt <offset = 0, scale = 1, shift = 12> : tensor<1x2x1x4xi8> -> tensor<1x2x1x4xi8>
func.func @per_channel(%x: tensor<1x1x4x2xi8>) -> tensor<1x1x4x2xi8> {
  %m = "tosa.const"() {values = dense<[1073741824, 1610612736]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s = "tosa.const"() {values = dense<[30, 33]> : tensor<2xi8>} : () -> tensor<2xi8>
  %zx = "tosa.const"() {values = dense<-2> : tensor<1xi8>} : () -> tensor<1xi8>
  %zy = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.rescale %x, %m, %s, %zx, %zy {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x4x2xi8>, tensor<2xi32>, tensor<2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x4x2xi8>
  return %0 : tensor<1x1x4x2xi8>
}

// -----

// Squeeze-excitation's pool and its rescale: the PDP chain, then the
// offline SDP on its result (no host step between).
// CHECK-LABEL: func.func @pool_then_rescale
// CHECK:         %[[P:.*]] = dla.pool average
// CHECK:         %[[Q:.*]] = dla.pool average %[[P]]
// CHECK:         %[[R:.*]] = dla.pool average %[[Q]]
// CHECK:         dla.sdp offline %[[R]]
// CHECK-NOT:     tosa.rescale
func.func @pool_then_rescale(%x: tensor<1x3x96x8xi8>) -> tensor<1x1x1x8xi8> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{split into 3 dla.pool layers}}
  %0 = tosa.avg_pool2d %x, %z, %z {acc_type = i32, kernel = array<i64: 3, 96>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x3x96x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
  %m = "tosa.const"() {values = dense<1702423680> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<29> : tensor<1xi8>} : () -> tensor<1xi8>
  %1 = tosa.rescale %0, %m, %s, %z, %z {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
  return %1 : tensor<1x1x1x8xi8>
}

// -----

// What is not a feature map stays on the host, saying why.
// CHECK-LABEL: func.func @flat
// CHECK:         tosa.rescale
func.func @flat(%x: tensor<4x2xi8>) -> tensor<4x2xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator, and is not a static rank-4 feature map in the target precision rescaled to it}}
  %0 = tosa.rescale %x, %m, %s, %z, %z {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<4x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

// Unsigned output: the SDP writes signed int8.
// CHECK-LABEL: func.func @unsigned
// CHECK:         tosa.rescale
func.func @unsigned(%x: tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: its rescale reads or writes unsigned values}}
  %0 = tosa.rescale %x, %m, %s, %z, %z {input_unsigned = false, output_unsigned = true, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x2xi8>
  return %0 : tensor<1x1x1x2xi8>
}

// -----

// The affine map dla-import-onnx writes for a batch-norm between quantize
// steps (python/dla/onnx/qdq_affine.py): x to i32 at f 2^16 (f = 0.75:
// 1610612736 2^-15), plus b 2^16 per channel (b = 1.5, -2.25), back by
// 2^-16 with zy = -5, ReLU. One offline SDP: X1 as @per_tensor_relu's (f =
// 0.75, -zx = -3 from a register); X2 adds b in X1's result units,
// b 2^(15 + 12) / 26165 = 7694.49998, -11541.74997 (rounded half away from
// zero: 7694, -11542), beside the second multiplier.
// CHECK-LABEL: func.func @affine
// CHECK:         %[[BN:.*]] = arith.constant dense<{{\[}}[7694, 26165], [-11542, 26165]]> : tensor<2x2xi16>
// CHECK:         dla.sdp offline %{{.*}} batchnorm %[[BN]] : tensor<2x2xi16> bs <alu = sum, alu_operand = -3, mul_operand = 30778, mul_shift = 3> bn <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm, mul_shift = 15, relu = true> out_cvt <offset = 20480, scale = 1, shift = 12> : tensor<1x2x2x2xi8> -> tensor<1x2x2x2xi8>
// CHECK-NOT:     tosa.rescale
// CHECK-NOT:     tosa.add
func.func @affine(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %m = "tosa.const"() {values = dense<1610612736> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %t = tosa.rescale %x, %m, %s, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x2xi32>
  %b = "tosa.const"() {values = dense<[[[[98304, -147456]]]]> : tensor<1x1x1x2xi32>} : () -> tensor<1x1x1x2xi32>
  %u = tosa.add %t, %b : (tensor<1x2x2x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x2x2x2xi32>
  %m2 = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s2 = "tosa.const"() {values = dense<46> : tensor<1xi8>} : () -> tensor<1xi8>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %u, %m2, %s2, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  %r = tosa.clamp %y {min_val = -5 : i8, max_val = 127 : i8} : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %r : tensor<1x2x2x2xi8>
}

// -----

// @affine with channel 1's factor negative (a batch-norm's negative scale;
// TOSA's multipliers are non-negative, so dla-import-onnx multiplies the
// |f| rescale by a sign per channel before the add): factors 0.75, -0.75.
// The pair is @affine's with X2's int16 negated (30778 x -26165), so the
// program is per channel: X1's multipliers from the PReLU surface, X2's
// (bias, multiplier) pairs, where the bias joins -zx's share in X1's
// result units: -3 30778 2^-3 + b 2^27 / second = -11541.75 + 7694.49998
// = -3847.25 (-3847) and -11541.75 + (-2.25 2^27 / -26165 = 11541.74997)
// = -0.00003 (0).
// CHECK-LABEL: func.func @affine_negative
// CHECK:         %[[BN:.*]] = arith.constant dense<{{\[}}[-3847, 26165], [0, -26165]]> : tensor<2x2xi16>
// CHECK:         %[[PRELU:.*]] = arith.constant dense<30778> : tensor<2xi16>
// CHECK:         dla.sdp offline %{{.*}} batchnorm %[[BN]] : tensor<2x2xi16> prelu %[[PRELU]] : tensor<2xi16> bs <mul_operand = prelu, mul_shift = 3> bn <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm, mul_shift = 15, relu = true> out_cvt <offset = 20480, scale = 1, shift = 12> : tensor<1x2x2x2xi8> -> tensor<1x2x2x2xi8>
// CHECK-NOT:     tosa.mul
// CHECK-NOT:     tosa.add
func.func @affine_negative(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %m = "tosa.const"() {values = dense<1610612736> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %t = tosa.rescale %x, %m, %s, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x2xi32>
  %sign = "tosa.const"() {values = dense<[[[[1, -1]]]]> : tensor<1x1x1x2xi32>} : () -> tensor<1x1x1x2xi32>
  %n = tosa.mul %t, %sign, %z8 : (tensor<1x2x2x2xi32>, tensor<1x1x1x2xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  %b = "tosa.const"() {values = dense<[[[[98304, -147456]]]]> : tensor<1x1x1x2xi32>} : () -> tensor<1x1x1x2xi32>
  %u = tosa.add %n, %b : (tensor<1x2x2x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x2x2x2xi32>
  %m2 = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s2 = "tosa.const"() {values = dense<46> : tensor<1xi8>} : () -> tensor<1xi8>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %u, %m2, %s2, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  %r = tosa.clamp %y {min_val = -5 : i8, max_val = 127 : i8} : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %r : tensor<1x2x2x2xi8>
}

// -----

// @affine_negative with the sign alone (no bias: a batch-norm whose shift
// is zero, or a Mul by a negative constant): the sign is still X2's, and
// X2's bias is -zx's share alone, -3 30778 2^-3 = -11541.75 (-11542) on
// both channels (the sign sits in X2's multiplier, after the add).
// CHECK-LABEL: func.func @affine_sign_only
// CHECK:         %[[BN:.*]] = arith.constant dense<{{\[}}[-11542, 26165], [-11542, -26165]]> : tensor<2x2xi16>
// CHECK:         %[[PRELU:.*]] = arith.constant dense<30778> : tensor<2xi16>
// CHECK:         dla.sdp offline %{{.*}} batchnorm %[[BN]] : tensor<2x2xi16> prelu %[[PRELU]] : tensor<2xi16> bs <mul_operand = prelu, mul_shift = 3> bn <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm, mul_shift = 15> out_cvt <offset = 20480, scale = 1, shift = 12> : tensor<1x2x2x2xi8> -> tensor<1x2x2x2xi8>
// CHECK-NOT:     tosa.mul
func.func @affine_sign_only(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %m = "tosa.const"() {values = dense<1610612736> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %t = tosa.rescale %x, %m, %s, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x2xi32>
  %sign = "tosa.const"() {values = dense<[[[[1, -1]]]]> : tensor<1x1x1x2xi32>} : () -> tensor<1x1x1x2xi32>
  %n = tosa.mul %t, %sign, %z8 : (tensor<1x2x2x2xi32>, tensor<1x1x1x2xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  %m2 = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s2 = "tosa.const"() {values = dense<46> : tensor<1xi8>} : () -> tensor<1xi8>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %n, %m2, %s2, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// A per-channel rescale after the add: not the affine map's form.
// CHECK-LABEL: func.func @affine_outer_per_channel
// CHECK:         tosa.add
func.func @affine_outer_per_channel(%x: tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xi8> {
  %m = "tosa.const"() {values = dense<1610612736> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator, and is not a static rank-4 feature map in the target precision rescaled to it}}
  %t = tosa.rescale %x, %m, %s, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x2xi32>
  %b = "tosa.const"() {values = dense<[[[[98304, -147456]]]]> : tensor<1x1x1x2xi32>} : () -> tensor<1x1x1x2xi32>
  // expected-remark @+1 {{stays on the host: element type i32 is not the target precision int8}}
  %u = tosa.add %t, %b : (tensor<1x1x1x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x1x1x2xi32>
  %m2 = "tosa.const"() {values = dense<[1073741824, 1073741824]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2 = "tosa.const"() {values = dense<[46, 45]> : tensor<2xi8>} : () -> tensor<2xi8>
  // expected-remark @+1 {{stays on the host: its rescales are not per channel then per tensor with zero points outside the sum}}
  %y = tosa.rescale %u, %m2, %s2, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x1x1x2xi8>
  return %y : tensor<1x1x1x2xi8>
}
