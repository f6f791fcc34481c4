// RUN: dla-opt %s -split-input-file --dla-assign-layouts='pixel-format=T_R8' -verify-diagnostics
// RUN: not dla-opt %s --dla-assign-layouts='target=tpu' 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not dla-opt %s --dla-assign-layouts='winograd=always' 2>&1 | FileCheck %s --check-prefix=WINOGRAD
// RUN: not dla-opt %s --dla-assign-layouts='pixel-format=RGB' 2>&1 | FileCheck %s --check-prefix=PIXEL

// TARGET: error: unknown target 'tpu'; expected htp, nvdla, or nvdla:<config> / <config> with <config> one of nv_full, nv_large, nv_small
// WINOGRAD: for the --winograd option: Cannot find option named 'always'!
// PIXEL: error: unknown pixel format 'RGB'

func.func @four_channels(%img: tensor<1x4x8x8xui8>) -> tensor<1x16x6x6xi8> {
  %w = arith.constant dense<1> : tensor<16x3x3x3xi8>
  // expected-error @+1 {{pixel format T_R8 does not fit this image}}
  %y = dla.conv image %img, %w : tensor<1x4x8x8xui8>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}
