// TOSA's quantized layers on the integer pipeline (QuantizedPatterns.cpp):
// the rescale of a convolution's accumulator in the SDP's X1 and X2 stages, the input
// zero point as PAD_VALUE and in the bias, ReLU at the output zero point in
// the stage; a residual add of two rescaled maps in X1 + X2 + the output
// converter. Register values below are worked out from the TOSA constants
// by hand or by an independent brute force (see each case), not copied
// from the output. Executed against
// upstream's TOSA lowering in test/Execution/quant-tosa-layers.test.
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics | FileCheck %s

// Per-channel factors M_k = mult_k 2^-shift_k: 5.208e-3, 5.457e-3,
// 8.731e-3, 1.819e-3. Each is the product of X1's and X2's int16s nearest to
// M_k 2^36 (36: the largest lands in [2^29, 2^30)); the shifts split 36 as
// 9 (X1) + 15 (X2) + 12 bits that the output converter shifts out. A brute
// force over all int16 pairs (Python, written for this test) gives
// 32767 x 10923 (M_0 2^36 = 357913941.25), 31250 x 12000, 32000 x 18750,
// 31250 x 4000 (exact). Bias minus zx (5) times each kernel's sum
// (2, 3, 8, 13): 90, -215, 2960, 69935, added by X2 in X1's result units
// (times the first multiplier, 2^-9): 5759.8, -13122.6, 185000,
// 4268493.7; the largest needs ALU shift 8, so 23, -51, 723, 16674 (half
// away). ReLU at the output zero point -3 is X2's ReLU; the converter adds
// -3 (offset 3 * 2^12 subtracted) and shifts the 12 fraction bits out.
// CHECK-LABEL: func.func @conv_per_channel
// CHECK: %[[BN:.*]] = arith.constant dense<{{\[\[}}23, 10923], [-51, 12000], [723, 18750], [16674, 4000]]> : tensor<4x2xi16>
// CHECK: %[[P:.*]] = arith.constant dense<{{\[}}32767, 31250, 32000, 31250]> : tensor<4xi16>
// CHECK: %[[C:.*]] = dla.conv direct %{{.*}}, %{{.*}} pad [0, 0, 1, 1] pad_value 5 : tensor<1x3x5x5xi8>, tensor<4x3x1x3xi8> -> tensor<1x4x5x5xi8>
// CHECK: dla.sdp on_the_fly %[[C]] batchnorm %[[BN]] : tensor<4x2xi16> prelu %[[P]] : tensor<4xi16>
// CHECK-SAME: bs <mul_operand = prelu, mul_shift = 9>
// CHECK-SAME: bn <alu = sum, alu_operand = batchnorm, alu_shift = 8, mul_operand = batchnorm, mul_shift = 15, relu = true>
// CHECK-SAME: out_cvt <offset = 12288, scale = 1, shift = 12>
// CHECK-NOT: tosa.clamp
func.func @conv_per_channel(%x: tensor<1x5x5x3xi8>) -> tensor<1x5x5x4xi8> {
  %w = "tosa.const"() {values = dense<[[[[1, -2, 3], [0, 0, 0], [0, 0, 0]]], [[[4, 5, -6], [0, 0, 0], [0, 0, 0]]], [[[7, -8, 9], [0, 0, 0], [0, 0, 0]]], [[[-10, 11, 12], [0, 0, 0], [0, 0, 0]]]]> : tensor<4x1x3x3xi8>} : () -> tensor<4x1x3x3xi8>
  %b = "tosa.const"() {values = dense<[100, -200, 3000, 70000]> : tensor<4xi32>} : () -> tensor<4xi32>
  %izp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x5x5x3xi8>, tensor<4x1x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x4xi32>
  %m = "tosa.const"() {values = dense<[1431655765, 1500000000, 1200000000, 2000000000]> : tensor<4xi32>} : () -> tensor<4xi32>
  %s = "tosa.const"() {values = dense<[38, 38, 37, 40]> : tensor<4xi8>} : () -> tensor<4xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zy = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %z0, %zy {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x5x5x4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x5x5x4xi8>
  %r = tosa.clamp %y {min_val = -3 : i8, max_val = 127 : i8} : (tensor<1x5x5x4xi8>) -> tensor<1x5x5x4xi8>
  return %r : tensor<1x5x5x4xi8>
}

// -----

// Per tensor, zero points 0: the multipliers are registers.
// 1431655765 2^-38 2^37 = 715827882.5; the nearest int16 product is
// 32767 x 21846 = 715827882 (brute force); shifts 10 + 15 + 12. The bias
// [70000, -5] has int16 high parts that differ (17500, -1 at shift 2), and
// X1's memory ALU beside its register multiplier is no NVIDIA dla_sdp_op:
// the per-channel form, X1 multiplying by 32767 from the PReLU surface,
// X2 adding the whole bias in X1's units: 70000 * 32767 2^-10 =
// 2239931.6 (2239932) and -5 * 32767 2^-10 = -160.0 (-160), as int16s at
// shift 7: 17499.5 -> 17499 (2239932 / 128 = 17499.47), -1.25 -> -1.
// No padding value (no padding); the converter only shifts.
// CHECK-LABEL: func.func @conv_per_tensor
// CHECK-DAG: %[[BN:.*]] = arith.constant dense<{{\[\[}}17499, 21846], [-1, 21846]]> : tensor<2x2xi16>
// CHECK-DAG: %[[P:.*]] = arith.constant dense<32767> : tensor<2xi16>
// CHECK: %[[C:.*]] = dla.conv direct %{{.*}}, %{{.*}} : tensor<1x3x2x2xi8>, tensor<2x3x1x1xi8> -> tensor<1x2x2x2xi8>
// CHECK: dla.sdp on_the_fly %[[C]] batchnorm %[[BN]] : tensor<2x2xi16> prelu %[[P]] : tensor<2xi16>
// CHECK-SAME: bs <mul_operand = prelu, mul_shift = 10>
// CHECK-SAME: bn <alu = sum, alu_operand = batchnorm, alu_shift = 7, mul_operand = batchnorm, mul_shift = 15>
// CHECK-SAME: out_cvt <offset = 0, scale = 1, shift = 12> : tensor<1x2x2x2xi8> -> tensor<1x2x2x2xi8>
func.func @conv_per_tensor(%x: tensor<1x2x2x3xi8>) -> tensor<1x2x2x2xi8> {
  %w = "tosa.const"() {values = dense<[[[[1, -2, 3]]], [[[4, 5, -6]]]]> : tensor<2x1x1x3xi8>} : () -> tensor<2x1x1x3xi8>
  %b = "tosa.const"() {values = dense<[70000, -5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %z8, %z8 {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x3xi8>, tensor<2x1x1x3xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  %m = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %y = tosa.rescale %acc, %m, %s, %z0, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// y = Ca (a - za) + Cb (b - zb) + zy with Ca = 0.5 (2^29 2^-30), Cb = 0.25
// (2^28 2^-30), za = 3, zb = -4, zy = 10. The operand of smaller weight (b)
// is X: r = Cb / Ca 2^s with the largest s <= 23 keeping r an int16:
// 0.5 2^16 = 32768 is too big, so s = 15 and r = 16384. BS adds -zb = 4 and
// multiplies by r; BN adds a << 15. The output converter multiplies by
// Ca 2^-15 = 2^-16 (scale 16384, shift 30) after subtracting
// za 2^15 - zy 2^15 / Ca = 98304 - 655360 = -557056.
// CHECK-LABEL: func.func @residual_add
// CHECK: dla.sdp offline %{{[0-9]+}} eltwise %{{[0-9]+}} : tensor<1x8x2x2xi8>
// CHECK-SAME: bs <alu = sum, alu_operand = 4, mul_operand = 16384>
// CHECK-SAME: bn <alu = sum, alu_operand = eltwise, alu_shift = 15>
// CHECK-SAME: out_cvt <offset = -557056, scale = 16384, shift = 30>
func.func @residual_add(%a: tensor<1x2x2x8xi8>, %b: tensor<1x2x2x8xi8>) -> tensor<1x2x2x8xi8> {
  %ma = "tosa.const"() {values = dense<536870912> : tensor<1xi32>} : () -> tensor<1xi32>
  %mb = "tosa.const"() {values = dense<268435456> : tensor<1xi32>} : () -> tensor<1xi32>
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %za = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zb = "tosa.const"() {values = dense<-4> : tensor<1xi8>} : () -> tensor<1xi8>
  %zy = "tosa.const"() {values = dense<10> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %a32 = tosa.rescale %a, %ma, %s30, %za, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x8xi32>
  %b32 = tosa.rescale %b, %mb, %s30, %zb, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x8xi32>
  %sum = tosa.add %a32, %b32 : (tensor<1x2x2x8xi32>, tensor<1x2x2x8xi32>) -> tensor<1x2x2x8xi32>
  %y = tosa.rescale %sum, %one, %s30, %z0, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x8xi8>
  return %y : tensor<1x2x2x8xi8>
}

// -----

// The same add as ONNX's importer writes it, between layers in ONNX's
// NCHW (each operand a transpose to NCHW of an NHWC map): element-wise, so
// the SDP reads the operands in that order (C = 8, H = W = 2) with no
// transpose of its own (ElementwiseFrame); read as NHWC it would be a
// 1x2x8x2 map behind a host transpose per operand and one for its result.
// CHECK-LABEL: func.func @residual_add_nchw
// CHECK-SAME: (%[[A:.*]]: tensor<1x2x2x8xi8>, %[[B:.*]]: tensor<1x2x2x8xi8>)
// CHECK-DAG: %[[AN:.*]] = tosa.transpose %[[A]] {perms = array<i32: 0, 3, 1, 2>}
// CHECK-DAG: %[[BN:.*]] = tosa.transpose %[[B]] {perms = array<i32: 0, 3, 1, 2>}
// CHECK: %[[S:.*]] = dla.sdp offline %[[BN]] eltwise %[[AN]] : tensor<1x8x2x2xi8>
// CHECK-SAME: bs <alu = sum, alu_operand = 4, mul_operand = 16384>
// CHECK-SAME: bn <alu = sum, alu_operand = eltwise, alu_shift = 15>
// CHECK-SAME: out_cvt <offset = -557056, scale = 16384, shift = 30>
// CHECK-NEXT: %[[Y:.*]] = tosa.transpose %[[S]] {perms = array<i32: 0, 2, 3, 1>}
// CHECK-NEXT: return %[[Y]]
func.func @residual_add_nchw(%an: tensor<1x2x2x8xi8>, %bn: tensor<1x2x2x8xi8>) -> tensor<1x2x2x8xi8> {
  %a = tosa.transpose %an {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x8xi8>) -> tensor<1x8x2x2xi8>
  %b = tosa.transpose %bn {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x8xi8>) -> tensor<1x8x2x2xi8>
  %ma = "tosa.const"() {values = dense<536870912> : tensor<1xi32>} : () -> tensor<1xi32>
  %mb = "tosa.const"() {values = dense<268435456> : tensor<1xi32>} : () -> tensor<1xi32>
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %za = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zb = "tosa.const"() {values = dense<-4> : tensor<1xi8>} : () -> tensor<1xi8>
  %zy = "tosa.const"() {values = dense<10> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %a32 = tosa.rescale %a, %ma, %s30, %za, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x8x2x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x8x2x2xi32>
  %b32 = tosa.rescale %b, %mb, %s30, %zb, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x8x2x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x8x2x2xi32>
  %sum = tosa.add %a32, %b32 : (tensor<1x8x2x2xi32>, tensor<1x8x2x2xi32>) -> tensor<1x8x2x2xi32>
  %y = tosa.rescale %sum, %one, %s30, %z0, %zy {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x8x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x8x2x2xi8>
  %yn = tosa.transpose %y {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x2x2xi8>) -> tensor<1x2x2x8xi8>
  return %yn : tensor<1x2x2x8xi8>
}

// -----

// A residual add with a ReLU at the output zero point 0, e's zero point 0
// (a, the operand of larger weight, added exactly): offset = za 2^s -
// zy 2^s / Ca = 0, so BN's sum has the output's sign and BN's ReLU is the
// clamp: no dla.clamp layer. x's zero point (zb = -4) is BS's, before the
// sum. Ca = 0.5, Cb = 0.25 as above: s = 15, r = 16384, converter scale
// 16384, shift 30.
// CHECK-LABEL: func.func @residual_add_relu
// CHECK: dla.sdp offline %{{[0-9]+}} eltwise %{{[0-9]+}} : tensor<1x8x2x2xi8>
// CHECK-SAME: bs <alu = sum, alu_operand = 4, mul_operand = 16384>
// CHECK-SAME: bn <alu = sum, alu_operand = eltwise, alu_shift = 15, relu = true>
// CHECK-SAME: out_cvt <offset = 0, scale = 16384, shift = 30>
// CHECK-NOT: dla.clamp
// CHECK-NOT: tosa.clamp
// CHECK: return
func.func @residual_add_relu(%a: tensor<1x2x2x8xi8>, %b: tensor<1x2x2x8xi8>) -> tensor<1x2x2x8xi8> {
  %ma = "tosa.const"() {values = dense<536870912> : tensor<1xi32>} : () -> tensor<1xi32>
  %mb = "tosa.const"() {values = dense<268435456> : tensor<1xi32>} : () -> tensor<1xi32>
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zb = "tosa.const"() {values = dense<-4> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %a32 = tosa.rescale %a, %ma, %s30, %z8, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x8xi32>
  %b32 = tosa.rescale %b, %mb, %s30, %zb, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x8xi32>
  %sum = tosa.add %a32, %b32 : (tensor<1x2x2x8xi32>, tensor<1x2x2x8xi32>) -> tensor<1x2x2x8xi32>
  %y = tosa.rescale %sum, %one, %s30, %z0, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x8xi8>
  %r = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x2x2x8xi8>) -> tensor<1x2x2x8xi8>
  return %r : tensor<1x2x2x8xi8>
}

// -----

// e's zero point 3 (za): the converter subtracts za 2^15 = 98304, so BN's
// sum is not the output's sign; the ReLU stays a layer of its own.
// CHECK-LABEL: func.func @residual_add_relu_offset
// CHECK: dla.sdp offline %{{[0-9]+}} eltwise %{{[0-9]+}} : tensor<1x8x2x2xi8>
// CHECK-SAME: bn <alu = sum, alu_operand = eltwise, alu_shift = 15>
// CHECK-SAME: out_cvt <offset = 98304, scale = 16384, shift = 30>
// CHECK: dla.clamp
func.func @residual_add_relu_offset(%a: tensor<1x2x2x8xi8>, %b: tensor<1x2x2x8xi8>) -> tensor<1x2x2x8xi8> {
  %ma = "tosa.const"() {values = dense<536870912> : tensor<1xi32>} : () -> tensor<1xi32>
  %mb = "tosa.const"() {values = dense<268435456> : tensor<1xi32>} : () -> tensor<1xi32>
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %za = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %a32 = tosa.rescale %a, %ma, %s30, %za, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x8xi32>
  %b32 = tosa.rescale %b, %mb, %s30, %z8, %z0 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x8xi32>
  %sum = tosa.add %a32, %b32 : (tensor<1x2x2x8xi32>, tensor<1x2x2x8xi32>) -> tensor<1x2x2x8xi32>
  %y = tosa.rescale %sum, %one, %s30, %z0, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x8xi8>
  %r = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x2x2x8xi8>) -> tensor<1x2x2x8xi8>
  return %r : tensor<1x2x2x8xi8>
}

// -----

// What stays on the host says why: a rescale that rounds twice.
func.func @double_round(%x: tensor<1x2x2x3xi8>) -> tensor<1x2x2x2xi8> {
  %w = "tosa.const"() {values = dense<[[[[1, -2, 3]]], [[[4, 5, -6]]]]> : tensor<2x1x1x3xi8>} : () -> tensor<2x1x1x3xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: an integer convolution offloads with the tosa.rescale of its i32 accumulator (see that op's remark)}}
  %acc = tosa.conv2d %x, %w, %b, %z8, %z8 {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x3xi8>, tensor<2x1x1x3xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  %m = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{stays on the host: its rescale rounds twice (the SDP rounds once)}}
  %y = tosa.rescale %acc, %m, %s, %z0, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// A weight zero point whose differences leave int8.
func.func @weight_zero_point(%x: tensor<1x2x2x3xi8>) -> tensor<1x2x2x2xi8> {
  %w = "tosa.const"() {values = dense<[[[[1, -2, 3]]], [[[4, 5, -128]]]]> : tensor<2x1x1x3xi8>} : () -> tensor<2x1x1x3xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wz = "tosa.const"() {values = dense<1> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: an integer convolution offloads with the tosa.rescale}}
  %acc = tosa.conv2d %x, %w, %b, %z8, %wz {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x3xi8>, tensor<2x1x1x3xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  %m = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %z0 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{stays on the host: its weight minus the weight zero point leaves int8}}
  %y = tosa.rescale %acc, %m, %s, %z0, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x2x2x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// An integer clamp that is not a fused ReLU runs as dla.clamp.
// CHECK-LABEL: func.func @int_clamp
// CHECK: dla.clamp %{{.*}} min -5.000000e+00 max 6.000000e+01 : tensor<1x4x2x2xi8> -> tensor<1x4x2x2xi8>
func.func @int_clamp(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x4xi8> {
  %y = tosa.clamp %x {min_val = -5 : i8, max_val = 60 : i8} : (tensor<1x2x2x4xi8>) -> tensor<1x2x2x4xi8>
  return %y : tensor<1x2x2x4xi8>
}
