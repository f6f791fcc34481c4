// RUN: dla-opt %s | FileCheck %s
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --mlir-print-op-generic | dla-opt | FileCheck %s

// Every spelling of the issue, and the defaults that print away.
// CHECK-LABEL: func.func @spellings
// CHECK-SAME: tensor<64x32x3x3xi8, #dla.weight<direct, int8>>
// CHECK-SAME: tensor<64x32x3x3xf16, #dla.weight<direct, fp16, compressed>>
// CHECK-SAME: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4>>
// CHECK-SAME: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4, post_extension = 2>>
// CHECK-SAME: tensor<64x64x3x3xf16, #dla.weight<winograd, fp16>>
// CHECK-SAME: tensor<64x64x6x6xf16, #dla.weight<winograd, fp16, stride = 2>>
// CHECK-SAME: tensor<32x16x4x4xf16, #dla.weight<deconv, fp16, stride = [2, 2]>>
// CHECK-SAME: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4, post_extension = auto>>
// CHECK-SAME: tensor<64x32x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
// CHECK-SAME: tensor<64x64x3x3xf16, #dla.weight<winograd, fp16>>
// CHECK-SAME: tensor<64x3x3x3xi8, #dla.weight<image, int8, channels = 4, post_extension = 4, stride = 2, config = nv_large>>
// CHECK-SAME: tensor<16x16x3x5xi8, #dla.weight<deconv, int8, stride = [1, 2]>>
// CHECK-SAME: tensor<64x32x3x3xi8, #dla.weight<direct, int8>>
// CHECK-SAME: tensor<64x64x3x3xf16, #dla.weight<winograd, fp16, rounding = to_nearest_even>>
// CHECK-SAME: tensor<64x32x3x3xf16, #dla.weight<direct, fp16, rounding = to_nearest_even>>
// CHECK-SAME: tensor<64x32x3x3xi8, #dla.weight<direct, int8>>
func.func @spellings(
  %a: tensor<64x32x3x3xi8, #dla.weight<direct, int8>>,
  %b: tensor<64x32x3x3xf16, #dla.weight<direct, fp16, compressed>>,
  %c: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4>>,
  %d: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4, post_extension = 2>>,
  %e: tensor<64x64x3x3xf16, #dla.weight<winograd, fp16>>,
  %f: tensor<64x64x6x6xf16, #dla.weight<winograd, fp16, stride = 2>>,
  %g: tensor<32x16x4x4xf16, #dla.weight<deconv, fp16, stride = [2, 2]>>,
  %h: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4, post_extension = auto>>,
  %i: tensor<64x32x3x3xi8, #dla.weight<direct, int8, config = nv_small>>,
  %j: tensor<64x64x3x3xf16, #dla.weight<winograd, fp16, rounding = to_nearest_away>>,
  %k: tensor<64x3x3x3xi8, #dla.weight<image, int8, config = nv_large, stride = 2, post_extension = 4, channels = 4>>,
  %l: tensor<16x16x3x5xi8, #dla.weight<deconv, int8, stride = [1, 2]>>,
  %m: tensor<64x32x3x3xi8, #dla.weight<direct, int8, config = nv_full, post_extension = none>>,
  %n: tensor<64x64x3x3xf16, #dla.weight<winograd, fp16, rounding = to_nearest_even, stride = 1>>,
  %o: tensor<64x32x3x3xf16, #dla.weight<direct, fp16, rounding = to_nearest_even>>,
  %p: tensor<64x32x3x3xi8, #dla.weight<direct, int8, rounding = to_nearest_away>>) {
  return
}

// The default rounding is ties away from zero (NVIDIA's): stated or not, the
// same encoding (a value of one type returned as the other), printed without
// it; ties to even is another encoding and prints.
// CHECK-LABEL: func.func @default_rounding_is_away
// CHECK-SAME: (%{{.*}}: tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>) -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
func.func @default_rounding_is_away(%a: tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>)
    -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16, rounding = to_nearest_away>> {
  return %a : tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
}

// CHECK-LABEL: func.func @compressed_constant
// CHECK: dla.weight_constant wgs = dense<1> : tensor<128xi8>, wmb = dense<2> : tensor<128xi8>, data = dense<3> : tensor<256xi8> : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
func.func @compressed_constant() -> tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>> {
  %0 = dla.weight_constant wgs = dense<1> : tensor<128xi8>, wmb = dense<2> : tensor<128xi8>, data = dense<3> : tensor<256xi8> : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  return %0 : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
}

// int8 / int16 Winograd taps with a scale (the stored taps are
// round(G g G^T / scale)); it prints after the other parameters.
// CHECK-LABEL: func.func @winograd_scale
// CHECK-SAME: tensor<64x64x3x3xi8, #dla.weight<winograd, int8, scale = 7.812500e-03>>
// CHECK-SAME: tensor<64x64x6x6xi16, #dla.weight<winograd, int16, compressed, stride = 2, scale = 2.500000e-01>>
func.func @winograd_scale(
  %a: tensor<64x64x3x3xi8, #dla.weight<winograd, int8, scale = 0.0078125>>,
  %b: tensor<64x64x6x6xi16, #dla.weight<winograd, int16, scale = 0.25, stride = 2, compressed>>) {
  return
}
