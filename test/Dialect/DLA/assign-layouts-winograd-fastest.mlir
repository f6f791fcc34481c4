// RUN: dla-opt %s --dla-assign-layouts='target=nv_full winograd=fastest' -verify-diagnostics=only-expected 2>/dev/null | FileCheck %s
// winograd=fastest asks the performance model (compareLayers): Winograd
// only where it estimates fewer cycles than direct. Bytes alone say direct
// for both layers (Winograd's weights are 16/9 larger); winograd=auto
// takes Winograd for both. Derived from docs/PerformanceModel.md's
// formulas for nv_full fp16 at 1 GHz and 10 GB/s (10 bytes a cycle):
// MACS = 64 x 16 = 1024, 16 channels of 2 bytes a memory atom.
//
// %small, 64 -> 64 channels, 3x3 on 4x4 (pad 1): direct MAC
// 64 x 16 x 64 x 9 / 1024 = 576 cycles; memory (input 64 x 16 x 2 = 2048
// + weights 64 x 9 x 64 x 2 = 73728 + output 2048) / 10 = 7782.4 -> 7783.
// Winograd: MAC 576 / 2.25 = 256; weights x 16/9 = 131072, memory
// 135168 / 10 -> 13517. Memory-bound: stays direct (time and bytes agree).
//
// %big, 128 -> 128 channels, 3x3 on 28x28: direct MAC 128 x 784 x 128 x 9
// / 1024 = 112896, memory (200704 + 294912 + 200704) / 10 = 69632: 112896
// (MAC). Winograd: MAC 50176, memory (200704 + 524288 + 200704) / 10 =
// 92569.6 -> 92570 (memory): Winograd, though it reads more bytes.

// CHECK-LABEL: func.func @fastest
// CHECK: dla.conv direct
// CHECK: dla.conv winograd
func.func @fastest(%x: tensor<1x64x4x4xf16>, %y: tensor<1x128x28x28xf16>) -> (tensor<1x64x4x4xf16>, tensor<1x128x28x28xf16>) {
  %ws = arith.constant dense<1.0> : tensor<64x64x3x3xf16>
  %wb = arith.constant dense<1.0> : tensor<128x128x3x3xf16>
  // expected-remark @+1 {{stays direct (winograd=fastest): it is not faster as Winograd: the performance model estimates 13517 cycles (memory) as Winograd, 7783 cycles (memory) direct}}
  %small = dla.conv direct %x, %ws pad [1, 1, 1, 1] : tensor<1x64x4x4xf16>, tensor<64x64x3x3xf16> -> tensor<1x64x4x4xf16>
  // expected-remark @+1 {{direct convolution turned into Winograd (winograd=fastest): 3x3 kernel, stride 1, constant weights; the performance model estimates 92570 cycles (memory) as Winograd, 112896 cycles (MAC) direct}}
  %big = dla.conv direct %y, %wb pad [1, 1, 1, 1] : tensor<1x128x28x28xf16>, tensor<128x128x3x3xf16> -> tensor<1x128x28x28xf16>
  return %small, %big : tensor<1x64x4x4xf16>, tensor<1x128x28x28xf16>
}
