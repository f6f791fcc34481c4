// Every diagnostic of dla.conv's clip_truncate (NvdlaRegisters.h).
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @range(%x: tensor<1x16x4x4xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x2x2xi8> {
  // expected-error @+1 {{'dla.conv' op clip_truncate = 17 is outside 0..16 (CLIP_TRUNCATE: unsigned, range 0~16)}}
  %y = dla.conv direct %x, %w clip_truncate 17 : tensor<1x16x4x4xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x2x2xi8>
  return %y : tensor<1x16x2x2xi8>
}

// -----

func.func @negative(%x: tensor<1x16x4x4xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x2x2xi8> {
  // expected-error @+1 {{'dla.conv' op clip_truncate = -1 is outside 0..16 (CLIP_TRUNCATE: unsigned, range 0~16)}}
  %y = dla.conv direct %x, %w clip_truncate -1 : tensor<1x16x4x4xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x2x2xi8>
  return %y : tensor<1x16x2x2xi8>
}

// -----

func.func @float(%x: tensor<1x16x4x4xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x2x2xf16> {
  // expected-error @+1 {{'dla.conv' op clip_truncate is an integer register: this convolution computes in fp32}}
  %y = dla.conv direct %x, %w clip_truncate 2 : tensor<1x16x4x4xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x2x2xf16>
  return %y : tensor<1x16x2x2xf16>
}
