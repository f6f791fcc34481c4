// RUN: dla-opt %s --dla-split-convolutions='banks=17' -verify-diagnostics
// RUN: not dla-opt %s --dla-split-convolutions='target=nv_small bank-entries=1024' 2>&1 | FileCheck %s --check-prefix=ENTRIES
// RUN: not dla-opt %s --dla-split-convolutions='target=nv_tiny' 2>&1 | FileCheck %s --check-prefix=TARGET

// The options against the configuration's buffer (nv_full: 16 banks of
// 256 entries; nv_small: 32 of 512).
// expected-error @+1 {{--dla-split-convolutions: banks=17: nv_full has 1 to 16 (CBUF_BANK_NUMBER; 0: all)}}
module {
  func.func @f(%x: tensor<1x16x4x4xi8>, %w: tensor<16x16x1x1xi8>) -> tensor<1x16x4x4xi8> {
    %y = dla.conv direct %x, %w : tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8> -> tensor<1x16x4x4xi8>
    return %y : tensor<1x16x4x4xi8>
  }
}
// ENTRIES: error: --dla-split-convolutions: bank-entries=1024: nv_small has 1 to 512 (CBUF_BANK_DEPTH; 0: all)
// TARGET: error: {{.*}}nv_tiny
