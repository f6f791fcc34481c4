// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -verify-diagnostics | FileCheck %s
// The remark of resize-to-dla.mlir's @int8_bilinear_by_32, pinned: an int8
// bilinear resize whose box sum (32 x 32 x 128) leaves int8 runs as a box,
// its mean rounded to int8, then [1, 1] (docs/Resize.md "Bilinear"), and
// says how far that is from TOSA's exact integer result.
// CHECK-LABEL: func.func @int8_bilinear_by_32
// CHECK-NOT: tosa.resize
func.func @int8_bilinear_by_32(%x: tensor<1x2x2x8xi8>) -> tensor<1x64x64x8xi8> {
  %s = tosa.const_shape {values = dense<[64, 2, 64, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-31, -31]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[31, 31]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @+1 {{a bilinear resize by a box then [1, 1], its box's mean rounded to int8 between them (its sum does not fit an int8 intermediate): within one step of the exact integer result where the output's scale is the input's}}
  %r = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x2x2x8xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x64x64x8xi32>
  %m = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %sh = "tosa.const"() {values = dense<42> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %r, %m, %sh, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x64x64x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x64x64x8xi8>
  return %y : tensor<1x64x64x8xi8>
}
