// RUN: dla-opt %s --dla-lower-to-reference | FileCheck %s --enable-var-scope

// The widest LRN window whose padding fits: 2^62 channels pad 16 by
// 2^61 - 1 before and 2^61 after, 16 + 2^62 - 1 = 4611686018427387919 in
// all (once a wrapped sum; found by dla-fuzz-pipeline with size INT64_MAX).
// CHECK-LABEL: func.func @lrn_wide
// CHECK: tensor.pad %{{.*}} low[0, 2305843009213693951, 0, 0] high[0, 2305843009213693952, 0, 0]
// CHECK: tensor<1x4611686018427387919x1x1xf32>
func.func @lrn_wide(%x: tensor<1x16x1x1xf16>) -> tensor<1x16x1x1xf16> {
  %y = dla.lrn %x size 4611686018427387904 : tensor<1x16x1x1xf16> -> tensor<1x16x1x1xf16>
  return %y : tensor<1x16x1x1xf16>
}
