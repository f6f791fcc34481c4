// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics
// An int8 target runs no floating-point layer (this pass does not quantize)
// and no quantized convolution whose accumulator is not rescaled
// (convert-tosa-quantized.mlir has the rescaled ones).

func.func @float_on_int8(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: it computes in f32 and the target in int8: a float op runs there only quantized (a float network is quantized from a calibration table, dla-calibrate)}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @zero_point(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x3xi32> {
  %w = "tosa.const"() {values = dense<1> : tensor<3x1x1x2xi8>} : () -> tensor<3x1x1x2xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<3xi32>} : () -> tensor<3xi32>
  %izp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: its i32 accumulator is not rescaled by a tosa.rescale of its own (the SDP delivers the target precision, not the accumulator)}}
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  return %0 : tensor<1x2x2x3xi32>
}

// -----

// A quantized convolution accumulates in i32; without a tosa.rescale back
// to int8 the SDP has nothing to compute.
func.func @accumulator(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x3xi32> {
  %w = "tosa.const"() {values = dense<1> : tensor<3x1x1x2xi8>} : () -> tensor<3x1x1x2xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<3xi32>} : () -> tensor<3xi32>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: its i32 accumulator is not rescaled by a tosa.rescale of its own (the SDP delivers the target precision, not the accumulator)}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x3xi32>
  return %0 : tensor<1x2x2x3xi32>
}

// -----

// Integer arithmetic that is not a quantized layer (a quantized network's
// rounding and zero points) stays on the host, said so.
func.func @i32_sum(%a: tensor<1x2x2x2xi32>, %b: tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32> {
  // expected-remark @+1 {{stays on the host: element type i32 is not the target precision int8 (a quantized network's integer steps around its layers, rounding and zero points, stay on the host)}}
  %0 = tosa.add %a, %b : (tensor<1x2x2x2xi32>, tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  return %0 : tensor<1x2x2x2xi32>
}
