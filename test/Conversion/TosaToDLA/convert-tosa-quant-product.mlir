// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics | FileCheck %s
// The product of a quantized hard-swish, rescale(mul(rescale(x, 1, zx),
// rescale(u, 1, 0)), f, zy) (python/dla/onnx/qdq_hardswish.py), as one
// offline SDP (QuantizedProducts.cpp): X1 adds -zx and multiplies by f's
// int16 (registers), X2 multiplies by u read per element and shifts, keeping
// 12 bits below the output's unit, the output converter adds zy and shifts
// them out (the memory operand alone in its stage: NVIDIA's firmware takes
// a stage's two operands from one source).
// Executed against TOSA in test/Execution/quant-tosa-layers.test
// (--products), on NVIDIA's C model in test/NvdlaCModel/trace-quant-tosa.test.

// f = 2^-10 (2^30 2^-40): f 2^12 = 4 = 16384 2^-12 (the int16 at its
// largest 15-bit mantissa); X1's ALU -zx = -3; out_cvt offset
// -zy 2^12 = 20480.
// CHECK-LABEL: func.func @product
// CHECK:         dla.sdp offline %{{.*}} eltwise %{{.*}} : tensor<1x3x2x2xi8> bs <alu = sum, alu_operand = -3, mul_operand = 16384> bn <mul_operand = eltwise, mul_shift = 12> out_cvt <offset = 20480, scale = 1, shift = 12> : tensor<1x3x2x2xi8> -> tensor<1x3x2x2xi8>
// CHECK-NOT:     tosa.mul
// CHECK-NOT:     tosa.rescale
func.func @product(%x: tensor<1x2x2x3xi8>, %u: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %a = tosa.rescale %x, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %b = tosa.rescale %u, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x2x2x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  %y = tosa.rescale %p, %m, %s, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// A constant added to the product (the learnable affine block's bias after
// a hard-swish, qdq_hardswish.py) joins the output converter's offset:
// c f = 1000 2^-10 output units, so offset = -(zy + c f) 2^12 =
// 20480 - 4000 = 16480.
// CHECK-LABEL: func.func @product_plus_constant
// CHECK:         dla.sdp offline %{{.*}} eltwise %{{.*}} : tensor<1x3x2x2xi8> bs <alu = sum, alu_operand = -3, mul_operand = 16384> bn <mul_operand = eltwise, mul_shift = 12> out_cvt <offset = 16480, scale = 1, shift = 12> : tensor<1x3x2x2xi8> -> tensor<1x3x2x2xi8>
// CHECK-NOT:     tosa.add
// CHECK-NOT:     tosa.rescale
func.func @product_plus_constant(%x: tensor<1x2x2x3xi8>, %u: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<1000> : tensor<1x1x1x1xi32>} : () -> tensor<1x1x1x1xi32>
  %a = tosa.rescale %x, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %b = tosa.rescale %u, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x2x2x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  %q = tosa.add %p, %c : (tensor<1x2x2x3xi32>, tensor<1x1x1x1xi32>) -> tensor<1x2x2x3xi32>
  %y = tosa.rescale %q, %m, %s, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// Both factors with a zero point: the X stages read u with no offset, so
// the product stays on the host and says why (the rescale's reason is the
// pattern's own, whyNotQuantProduct).
// CHECK-LABEL: func.func @both_zero_points
// CHECK:         tosa.mul
func.func @both_zero_points(%x: tensor<1x2x2x3xi8>, %u: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator}}
  %a = tosa.rescale %x, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator}}
  %b = tosa.rescale %u, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: element type i32 is not the target precision int8}}
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x2x2x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: neither factor of its product has zero point 0 (the X stages read a memory operand without an offset)}}
  %y = tosa.rescale %p, %m, %s, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// One multiplier per channel (squeeze-excitation's x * gate[c]): the gate,
// as the layer's 1x3x1x1 NCHW operand, is X2's per-kernel data (the PReLU
// operand read as a plain multiply); the rest as @product. (An argument's
// NHWC -> NCHW transpose moves unit dimensions only: a reshape.)
// CHECK-LABEL: func.func @per_channel
// CHECK:         %[[G:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<1x1x1x3xi8>, !tosa.shape<4>) -> tensor<1x3x1x1xi8>
// CHECK:         dla.sdp offline %{{.*}} prelu %[[G]] : tensor<1x3x1x1xi8> bs <alu = sum, alu_operand = -3, mul_operand = 16384> bn <mul_operand = prelu, mul_shift = 12> out_cvt <offset = 20480, scale = 1, shift = 12> : tensor<1x3x2x2xi8> -> tensor<1x3x2x2xi8>
// CHECK-NOT:     tosa.mul
func.func @per_channel(%x: tensor<1x2x2x3xi8>, %u: tensor<1x1x1x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %a = tosa.rescale %x, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %b = tosa.rescale %u, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x3xi32>
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x1x1x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  %y = tosa.rescale %p, %m, %s, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// The gate computed by a layer (here a clamp to [0, 127] on the SDP):
// the product reads its 1x3x1x1 result in place, no reshape or transpose
// between the two (issue 45).
// CHECK-LABEL: func.func @per_channel_gate_from_layer
// CHECK:         %[[G:.*]] = dla.clamp %{{.*}} min 0.000000e+00 max 1.270000e+02 : tensor<1x3x1x1xi8> -> tensor<1x3x1x1xi8>
// CHECK-NOT:     tosa.reshape
// CHECK-NOT:     tosa.transpose %[[G]]
// CHECK:         dla.sdp offline %{{.*}} prelu %[[G]] : tensor<1x3x1x1xi8> bs <alu = sum, alu_operand = -3, mul_operand = 16384> bn <mul_operand = prelu, mul_shift = 12>
// CHECK-NOT:     tosa.mul
func.func @per_channel_gate_from_layer(%x: tensor<1x2x2x3xi8>, %u: tensor<1x1x1x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %g = tosa.clamp %u {max_val = 127 : i8, min_val = 0 : i8} : (tensor<1x1x1x3xi8>) -> tensor<1x1x1x3xi8>
  %a = tosa.rescale %x, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %b = tosa.rescale %g, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x3xi32>
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x1x1x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  %y = tosa.rescale %p, %m, %s, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// A per-channel gate with a zero point (3): X2 reads the PReLU surface
// without an offset, so the product stays on the host, said so.
// CHECK-LABEL: func.func @per_channel_zero_point
// CHECK: tosa.mul
func.func @per_channel_zero_point(%x: tensor<1x2x2x3xi8>, %u: tensor<1x1x1x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator, and is not a static rank-4 feature map in the target precision rescaled to it}}
  %a = tosa.rescale %x, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator, and is not a static rank-4 feature map in the target precision rescaled to it}}
  %b = tosa.rescale %u, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x3xi32>
  // expected-remark @+1 {{stays on the host: element type i32 is not the target precision int8}}
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x1x1x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: its per-channel multiplier has a zero point (the X stages read a memory operand without an offset)}}
  %y = tosa.rescale %p, %m, %s, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// A product with a shift (TOSA's mul shift 4): not the exact product the
// SDP program computes, so it stays on the host, said so.
// CHECK-LABEL: func.func @shifted_product
// CHECK: tosa.mul
func.func @shifted_product(%x: tensor<1x2x2x3xi8>, %u: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %sh = "tosa.const"() {values = dense<4> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator, and is not a static rank-4 feature map in the target precision rescaled to it}}
  %a = tosa.rescale %x, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator, and is not a static rank-4 feature map in the target precision rescaled to it}}
  %b = tosa.rescale %u, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: element type i32 is not the target precision int8}}
  %p = tosa.mul %a, %b, %sh : (tensor<1x2x2x3xi32>, tensor<1x2x2x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: its product has a non-zero or non-constant shift}}
  %y = tosa.rescale %p, %m, %s, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// Factors and added constants one per channel (a hard-swish whose trailing
// map is per channel: qdq_hardswish.py), both factors at zero point 0: X1
// multiplies by u per element, X2 adds c[k] and multiplies by m[k] (the
// batch-norm surface's pairs). By hand: the factors 2^30 / 2^40, 2^29 /
// 2^40 and 3 * 2^28 / 2^40 are 4, 2 and 3 times 2^-12; with F = 12
// fraction bits for the converter, 4, 2, 3 at X2's shared shift 12 are
// 16384, 8192, 12288 (4 * 2^13 leaves int16); the constants fit int16 at
// ALU shift 0; the converter adds -zy 2^12 = 20480 and shifts 12.
// CHECK-LABEL: func.func @product_channels
// CHECK-DAG:     %[[PAIRS:.*]] = arith.constant dense<{{\[}}[1000, 16384], [-500, 8192], [7, 12288]]> : tensor<3x2xi16>
// CHECK:         dla.sdp offline %{{.*}} batchnorm %[[PAIRS]] : tensor<3x2xi16> eltwise %{{.*}} : tensor<1x3x2x2xi8> bs <mul_operand = eltwise> bn <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm, mul_shift = 12> out_cvt <offset = 20480, scale = 1, shift = 12>
// CHECK-NOT:     tosa.add
// CHECK-NOT:     tosa.rescale
func.func @product_channels(%x: tensor<1x2x2x3xi8>, %u: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<[1073741824, 536870912, 805306368]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<3xi8>} : () -> tensor<3xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zy = "tosa.const"() {values = dense<-5> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<[[[[1000, -500, 7]]]]> : tensor<1x1x1x3xi32>} : () -> tensor<1x1x1x3xi32>
  %a = tosa.rescale %x, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %b = tosa.rescale %u, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x2x2x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  %q = tosa.add %p, %c : (tensor<1x2x2x3xi32>, tensor<1x1x1x3xi32>) -> tensor<1x2x2x3xi32>
  %y = tosa.rescale %q, %m, %s, %z32, %zy {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// -----

// Per-channel factors with a zero point on a factor: X1 holds the memory
// operand, so no register can take the zero point away.
// CHECK-LABEL: func.func @product_channels_zero_point
// CHECK:         tosa.mul
func.func @product_channels_zero_point(%x: tensor<1x2x2x3xi8>, %u: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense<[1073741824, 536870912, 805306368]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s = "tosa.const"() {values = dense<40> : tensor<3xi8>} : () -> tensor<3xi8>
  %zx = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator}}
  %a = tosa.rescale %x, %one, %s30, %zx, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: it rescales no accumulator}}
  %b = tosa.rescale %u, %one, %s30, %z8, %z32 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: element type i32 is not the target precision int8}}
  %p = tosa.mul %a, %b, %z8 : (tensor<1x2x2x3xi32>, tensor<1x2x2x3xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  // expected-remark @+1 {{stays on the host: its rescale or added constant is per channel, which needs both factors at zero point 0 and of one shape (X1 then reads the multiplier per element, X2 the per-channel pairs)}}
  %y = tosa.rescale %p, %m, %s, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}
