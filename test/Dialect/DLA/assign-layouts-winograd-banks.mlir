// RUN: dla-opt %s --dla-assign-layouts='winograd=auto banks=2 bank-entries=8' -verify-diagnostics=only-expected 2>/dev/null | FileCheck %s
// RUN: dla-opt %s --dla-assign-layouts='winograd=auto' 2>/dev/null | FileCheck %s --check-prefix=WHOLE
// winograd=auto plans a Winograd layer in the buffer --dla-split-convolutions
// was given (banks, bank-entries), not the whole one: a layer the split
// pass saw fit as direct must not become a Winograd layer that does not.
//
// By hand (nv_full, 128-byte entries): 8x8 outputs in 4x4 tiles plus 4 are
// a 12x12 extended input of 16 fp16 channels (32 bytes): 3 entries a row,
// 36 entries, ceil(36 / 8) = 5 banks; the transformed weights are
// 4*4*16*16*2 = 8192 bytes, 64 entries, 8 banks. The whole buffer (16
// banks of 512) holds both.

// CHECK: dla.conv direct
// WHOLE: dla.conv winograd
func.func @fits_whole_buffer_only(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  %w = arith.constant dense<1.0> : tensor<16x16x3x3xf16>
  // expected-remark @+1 {{stays direct (winograd=auto): convolution buffer: the Winograd input takes 5 banks and one kernel group of transformed weights 8, the buffer has 2; NVIDIA's compiler runs such a layer as a direct convolution}}
  %a = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x8x8xf16>
  return %a : tensor<1x16x8x8xf16>
}
