// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics | FileCheck %s
// Integer average pools whose window the PDP registers cannot hold (the
// global pools of squeeze-excitation) as chains of dla.pool layers with
// the firmware's reciprocals (docs/IntegerAttributes.md decision 20); the fp16 and max
// chains are convert-tosa-limits.mlir's. Executed against the exact mean
// in test/Execution/int-pool-chains.test, on NVIDIA's C model in
// test/NvdlaCModel/trace-quant-tosa.test.

// The int8 global average pool of PaddleOCR's squeeze-excitation (12x96,
// zero point 0): the same chain, 12 = 6 x 2 (after an identity stage),
// 96 = 8 x 6 x 2, each layer with no stated reciprocals: the firmware's
// table floor(2^16 / k) per dimension, which NVIDIA's firmware writes (a
// loadable has no field for others). Each layer rounds after the width
// (1/2, and 1/8 for the floored reciprocal on a sum of at most 2^13) and
// after the height (1/2, 1/64): within 53/64 of its exact mean, three
// within 159/64 of the chain's, so at most 2 from TOSA's single rounding.
// CHECK-LABEL: func.func @global_average_int8
// CHECK:         %[[A:.*]] = dla.pool average %{{.*}} kernel [1, 8] stride [1, 8] : tensor<1x8x12x96xi8> -> tensor<1x8x12x12xi8>
// CHECK:         %[[B:.*]] = dla.pool average %[[A]] kernel [6, 6] stride [6, 6] : tensor<1x8x12x12xi8> -> tensor<1x8x2x2xi8>
// CHECK:         dla.pool average %[[B]] kernel [2, 2] : tensor<1x8x2x2xi8> -> tensor<1x8x1x1xi8>
// CHECK-NOT:     tosa.avg_pool2d
func.func @global_average_int8(%x: tensor<1x12x96x8xi8>) -> tensor<1x1x1x8xi8> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{split into 3 dla.pool layers of kernels [1, 8], [6, 6], [2, 2]: its kernel height 12 is outside 1..8 (KERNEL_HEIGHT: 4-bit enum KERNEL_HEIGHT_1..8) (mean of equal sub-window means; integers round each of the 3 layers twice, with the firmware's reciprocals floor(2^16 / k): within 53/64 a layer of the exact mean, at most 2 from the mean rounded once)}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 12, 96>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x12x96x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
  return %0 : tensor<1x1x1x8xi8>
}

// -----

// Two layers (48 = 8 x 6, a zero point of 5 in and out, which cancels in
// a mean; the table's 2^16 / 6 floored, 10922): within 106/64 of the
// exact mean, so at most 2 from one rounding.
// CHECK-LABEL: func.func @average_int8_two
// CHECK:         %[[A:.*]] = dla.pool average %{{.*}} kernel [1, 8] stride [1, 8] :
// CHECK:         dla.pool average %[[A]] kernel [1, 6] :
// CHECK-NOT:     tosa.avg_pool2d
func.func @average_int8_two(%x: tensor<1x1x48x8xi8>) -> tensor<1x1x1x8xi8> {
  %zp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{split into 2 dla.pool layers of kernels [1, 8], [1, 6]: its kernel width 48 is outside 1..8 (KERNEL_WIDTH: 4-bit enum KERNEL_WIDTH_1..8) (mean of equal sub-window means; integers round each of the 2 layers twice, with the firmware's reciprocals floor(2^16 / k): within 53/64 a layer of the exact mean, at most 2 from the mean rounded once)}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 1, 48>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x1x48x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
  return %0 : tensor<1x1x1x8xi8>
}
