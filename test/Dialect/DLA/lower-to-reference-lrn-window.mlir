// RUN: dla-opt %s --dla-lower-to-reference=fp16-arithmetic=ideal | FileCheck %s --enable-var-scope
// (The ideal arithmetic's window; on nv_full NVDLA's, the default, is one
// call of the CDP's fp16 path, below.)
// RUN: dla-opt %s --dla-lower-to-reference | FileCheck %s --check-prefix=NVDLA
// NVDLA: call @dla_nvdla_cdp_fp16(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i64, %c9223372036854775799_i64, %c1_i64{{.*}}, %c9_i64)

// The widest padded channel extent: NORMALZ_LEN's widest window (9) pads
// 2^63 - 9 channels by 4 on each side to exactly INT64_MAX (a size of 2^62,
// found by dla-fuzz-pipeline with size INT64_MAX, once wrapped the sum; the
// register now holds 3..9 only).
// CHECK-LABEL: func.func @lrn_wide
// CHECK: tensor.pad %{{.*}} low[0, 4, 0, 0] high[0, 4, 0, 0]
// CHECK: tensor<1x9223372036854775807x1x1xf32>
func.func @lrn_wide(%x: tensor<1x9223372036854775799x1x1xf16>) -> tensor<1x9223372036854775799x1x1xf16> {
  %y = dla.lrn %x size 9 : tensor<1x9223372036854775799x1x1xf16> -> tensor<1x9223372036854775799x1x1xf16>
  return %y : tensor<1x9223372036854775799x1x1xf16>
}
