// RUN: dla-opt %s --dla-lower-to-reference -verify-diagnostics -o /dev/null
// RUN: dla-opt %s --dla-lower-to-reference=fp16-arithmetic=ideal -o /dev/null 2>&1 | FileCheck %s --check-prefix=IDEAL --allow-empty
// RUN: dla-opt %s --dla-lower-to-reference 2>/dev/null | FileCheck %s --check-prefix=HW

// Nothing silently computes less than asked: on nv_full with
// fp16-arithmetic=hardware (the default), an fp16 convolution that NVDLA's
// arithmetic does not cover keeps the ideal meaning, with a located remark
// naming the op and the reason. With fp16-arithmetic=ideal nothing is
// remarked (that meaning was asked for).
// IDEAL-NOT: {{: remark:}}

// Covered: a direct convolution and a 3x3 stride-1 Winograd one from stored
// taps compute NVDLA's arithmetic, without a remark.
// HW-LABEL: func.func @direct
// HW: call @dla_nvdla_conv_fp16(
func.func @direct(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>,
                  %w: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>)
    -> tensor<1x16x8x8xf16, #dla.feature<fp16>> {
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1]
      : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
        -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x8x8xf16, #dla.feature<fp16>>
}

// HW-LABEL: func.func @winograd_taps
// HW: call @dla_nvdla_conv_wino_fp16(
func.func @winograd_taps(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>)
    -> tensor<1x16x8x8xf16, #dla.feature<fp16>> {
  %c = arith.constant dense<0.5> : tensor<16x16x3x3xf16>
  %w = dla.relayout %c : tensor<16x16x3x3xf16> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
  %y = dla.conv winograd %x, %w pad [1, 1, 1, 1]
      : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
        -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x8x8xf16, #dla.feature<fp16>>
}

// Winograd on plain weights: no stored taps G g G^T to read.
// HW-LABEL: func.func @winograd_plain_weights
// HW-NOT: call @dla_nvdla_conv_wino_fp16(
// HW: linalg.conv_2d_nchw_fchw
func.func @winograd_plain_weights(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>,
                                  %w: tensor<16x16x3x3xf16>)
    -> tensor<1x16x8x8xf16, #dla.feature<fp16>> {
  // expected-remark @+1 {{dla.conv winograd keeps fp16-arithmetic=ideal's meaning, not NVDLA's arithmetic: its weights hold no stored Winograd taps (plain weights, or encoded ones whose storage cannot be named); NVDLA's Winograd reads the taps G g G^T}}
  %y = dla.conv winograd %x, %w pad [1, 1, 1, 1]
      : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16>
        -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x8x8xf16, #dla.feature<fp16>>
}

// Winograd at stride 2 (a 5x5 kernel, 3x3 after channel extension): NVDLA's
// programs run Winograd at stride 1 only.
// HW-LABEL: func.func @winograd_stride2
// HW-NOT: call @dla_nvdla_conv_wino_fp16(
// HW: return
func.func @winograd_stride2(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>,
                            %w: tensor<16x16x5x5xf16, #dla.weight<winograd, fp16, stride = 2>>)
    -> tensor<1x16x4x4xf16, #dla.feature<fp16>> {
  // expected-remark @+1 {{dla.conv winograd keeps fp16-arithmetic=ideal's meaning, not NVDLA's arithmetic: NVDLA runs Winograd on 3x3 kernels at stride 1 only (this layer's 5x5 kernel at stride 2 is refused by the register plan)}}
  %y = dla.conv winograd %x, %w stride [2, 2] pad [2, 2, 2, 2]
      : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x5x5xf16, #dla.weight<winograd, fp16, stride = 2>>
        -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x4x4xf16, #dla.feature<fp16>>
}

// Covered too: image input from fp16 pixels (CDMA passes them unchanged
// into CSC's image atoms), without a remark.
// HW-LABEL: func.func @image_fp16_pixels
// HW: call @dla_nvdla_image_conv_fp16(
// HW: return
func.func @image_fp16_pixels(%x: tensor<1x1x8x8xf16, #dla.pixel<T_R16_F>>,
                             %w: tensor<4x1x3x3xf16>) -> tensor<1x4x6x6xf16> {
  %y = dla.conv image %x, %w : tensor<1x1x8x8xf16, #dla.pixel<T_R16_F>>, tensor<4x1x3x3xf16> -> tensor<1x4x6x6xf16>
  return %y : tensor<1x4x6x6xf16>
}
