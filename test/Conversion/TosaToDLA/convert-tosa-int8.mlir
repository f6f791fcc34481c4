// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics
// An int8 target runs no floating-point layer (this pass does not quantize)
// and no quantized convolution whose accumulator is not rescaled
// (convert-tosa-quantized.mlir has the rescaled ones).

func.func @float_on_int8(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark @+1 {{stays on the host: the target computes in int8, and a floating-point network needs fp16 (no quantization here)}}
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
