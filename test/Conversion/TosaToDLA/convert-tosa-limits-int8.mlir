// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -verify-diagnostics | FileCheck %s
// Integer average pools whose window the PDP registers cannot hold (the
// global pools of squeeze-excitation) as chains of dla.pool layers, each
// rounding once (docs/IntegerAttributes.md decision 20); the fp16 and max
// chains are convert-tosa-limits.mlir's. Executed against the exact mean
// in test/Execution/int-pool-chains.test, on NVIDIA's C model in
// test/NvdlaCModel/trace-quant-tosa.test.

// The int8 global average pool of PaddleOCR's squeeze-excitation (12x96,
// zero point 0): the same chain, 12 = 6 x 2 (after an identity stage),
// 96 = 8 x 6 x 2, each layer with its one-rounding reciprocals (2^16 and
// round(2^16 / n): n = 8, 36, 4 -> 8192, 1820, 16384). Three roundings
// half away from zero, each off by at most 1/2, and each reciprocal by
// 2^-17 on a sum of at most 128 n <= 2^13 (1/16): within 27/16 of the
// exact mean, so at most 2 from TOSA's single rounding (1/2 from it).
// CHECK-LABEL: func.func @global_average_int8
// CHECK:         %[[A:.*]] = dla.pool average %{{.*}} kernel [1, 8] stride [1, 8] recip_kernel_width 65536 recip_kernel_height 8192 : tensor<1x8x12x96xi8> -> tensor<1x8x12x12xi8>
// CHECK:         %[[B:.*]] = dla.pool average %[[A]] kernel [6, 6] stride [6, 6] recip_kernel_width 65536 recip_kernel_height 1820 : tensor<1x8x12x12xi8> -> tensor<1x8x2x2xi8>
// CHECK:         dla.pool average %[[B]] kernel [2, 2] recip_kernel_width 65536 recip_kernel_height 16384 : tensor<1x8x2x2xi8> -> tensor<1x8x1x1xi8>
// CHECK-NOT:     tosa.avg_pool2d
func.func @global_average_int8(%x: tensor<1x12x96x8xi8>) -> tensor<1x1x1x8xi8> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{split into 3 dla.pool layers of kernels [1, 8], [6, 6], [2, 2]: its kernel height 12 is outside 1..8 (KERNEL_HEIGHT: 4-bit enum KERNEL_HEIGHT_1..8) (mean of equal sub-window means; integers round each of the 3 layers half away from zero: within 9/16 a layer of the exact mean (1/2 the rounding, 1/16 the reciprocal), at most 2 from the mean rounded once)}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 12, 96>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x12x96x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
  return %0 : tensor<1x1x1x8xi8>
}

// -----

// Two layers (48 = 8 x 6, a zero point of 5 in and out, which cancels in
// a mean; 2^16 / 6 = 10922.7): within 18/16 of the exact mean, so at
// most 1 from one rounding.
// CHECK-LABEL: func.func @average_int8_two
// CHECK:         %[[A:.*]] = dla.pool average %{{.*}} kernel [1, 8] stride [1, 8] recip_kernel_width 65536 recip_kernel_height 8192
// CHECK:         dla.pool average %[[A]] kernel [1, 6] recip_kernel_width 65536 recip_kernel_height 10923
// CHECK-NOT:     tosa.avg_pool2d
func.func @average_int8_two(%x: tensor<1x1x48x8xi8>) -> tensor<1x1x1x8xi8> {
  %zp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{split into 2 dla.pool layers of kernels [1, 8], [1, 6]: its kernel width 48 is outside 1..8 (KERNEL_WIDTH: 4-bit enum KERNEL_WIDTH_1..8) (mean of equal sub-window means; integers round each of the 2 layers half away from zero: within 9/16 a layer of the exact mean (1/2 the rounding, 1/16 the reciprocal), at most 1 from the mean rounded once)}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 1, 48>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x1x48x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x8xi8>
  return %0 : tensor<1x1x1x8xi8>
}
