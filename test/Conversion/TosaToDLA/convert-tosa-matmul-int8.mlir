// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" | FileCheck %s
// An integer product is offloaded with its rescale (the quantized
// convolution's SDP program), here on an i8 map with input zero point 3:
// -3 times each column's sum (13, 15, 17) joins the bias: -39, -45, -51,
// whose int16 high parts differ, so the program is the per-channel form
// (X1's register multiplier beside a memory ALU is no NVIDIA dla_sdp_op):
// X1 multiplies by 32766 at shift 5 (read from the PReLU surface), X2 adds
// the bias in X1's units, -39 32766 / 32 = -39933.4 (-39933), -46077.2
// (-46077), -52221.1 (-52221), as int16s at ALU shift 1, halves rounded
// away from zero: -19967, -23039, -26111.
// CHECK-LABEL: func.func @quantized
// CHECK:         %[[BN:.*]] = arith.constant dense<{{\[}}[-19967, 16385], [-23039, 16385], [-26111, 16385]]> : tensor<3x2xi16>
// CHECK:         %[[P:.*]] = arith.constant dense<32766> : tensor<3xi16>
// CHECK:         %[[C:.*]] = dla.conv direct %{{.*}}, %{{.*}} : tensor<1x4x1x5xi8>, tensor<3x4x1x1xi8> -> tensor<1x3x1x5xi8>
// CHECK:         dla.sdp on_the_fly %[[C]] batchnorm %[[BN]] : tensor<3x2xi16> prelu %[[P]] : tensor<3xi16> bs <mul_operand = prelu, mul_shift = 5> bn <alu = sum, alu_operand = batchnorm, alu_shift = 1,
// CHECK-NOT:     tosa.matmul
// CHECK-NOT:     tosa.rescale
func.func @quantized(%a: tensor<1x5x4xi8>) -> tensor<1x5x3xi8> {
  %az = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %bz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %w = "tosa.const"() {values = dense<[[[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 0, -1]]]> : tensor<1x4x3xi8>} : () -> tensor<1x4x3xi8>
  %m = tosa.matmul %a, %w, %az, %bz : (tensor<1x5x4xi8>, tensor<1x4x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x3xi32>
  %mult = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %shift = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %m, %mult, %shift, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x5x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x5x3xi8>
  return %y : tensor<1x5x3xi8>
}
