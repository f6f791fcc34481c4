// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" --dla-assign-layouts=target=nv_full | FileCheck %s --check-prefix=LAYOUT
// nv_full reads 64 channels per cube (atomic-C): a depthwise convolution of
// 70 channels runs as two dense convolutions over channels 0-63 and 64-69
// (the integer form on nv_small's 8: quant-tosa-layers.test), each reading
// its group as a view of the input (dla.channel_slice) and writing its
// result into the joined one (dla.channel_concat): no host slice or concat.

// CHECK-LABEL: func.func @depthwise_slices
// CHECK-NOT:     tosa.slice
// CHECK:         %[[H:.*]] = tosa.cast %{{.*}} : (tensor<1x70x3x3xf32>) -> tensor<1x70x3x3xf16>
// CHECK:         %[[P0:.*]] = dla.channel_slice %[[H]][0] : tensor<1x70x3x3xf16> -> tensor<1x64x3x3xf16>
// CHECK:         %[[C0:.*]] = dla.conv direct %[[P0]], %{{.*}} pad [1, 1, 1, 1] : tensor<1x64x3x3xf16>, tensor<64x64x3x3xf16> -> tensor<1x64x3x3xf16>
// CHECK:         %[[P1:.*]] = dla.channel_slice %[[H]][64] : tensor<1x70x3x3xf16> -> tensor<1x6x3x3xf16>
// CHECK:         %[[C1:.*]] = dla.conv direct %[[P1]], %{{.*}} pad [1, 1, 1, 1] : tensor<1x6x3x3xf16>, tensor<6x6x3x3xf16> -> tensor<1x6x3x3xf16>
// CHECK:         %[[CAT:.*]] = dla.channel_concat %[[C0]], %[[C1]] : tensor<1x64x3x3xf16>, tensor<1x6x3x3xf16> -> tensor<1x70x3x3xf16>
// CHECK:         tosa.cast %[[CAT]] : (tensor<1x70x3x3xf16>) -> tensor<1x70x3x3xf32>

// Layouts: one relayout in (the host's input), one out; the views take
// the parent's strides (3 columns of 32-byte atoms a line, 3 lines a
// surface, 5 surfaces of 16 channels a batch), the convolutions read and
// write them in place.
// LAYOUT-LABEL: func.func @depthwise_slices
// LAYOUT:         %[[IN:.*]] = dla.relayout %{{.*}} : tensor<1x70x3x3xf16> -> tensor<1x70x3x3xf16, #dla.feature<fp16>>
// LAYOUT:         %[[P0:.*]] = dla.channel_slice %[[IN]][0] : tensor<1x70x3x3xf16, #dla.feature<fp16>> -> tensor<1x64x3x3xf16, #dla.feature<fp16, line_stride = 96, surface_stride = 288, batch_stride = 1440>>
// LAYOUT:         %[[C0:.*]] = dla.conv direct %[[P0]], {{.*}} -> tensor<1x64x3x3xf16, #dla.feature<fp16, line_stride = 96, surface_stride = 288, batch_stride = 1440>>
// LAYOUT:         %[[P1:.*]] = dla.channel_slice %[[IN]][64] : {{.*}} -> tensor<1x6x3x3xf16, #dla.feature<fp16, line_stride = 96, surface_stride = 288, batch_stride = 1440>>
// LAYOUT:         %[[C1:.*]] = dla.conv direct %[[P1]], {{.*}} -> tensor<1x6x3x3xf16, #dla.feature<fp16, line_stride = 96, surface_stride = 288, batch_stride = 1440>>
// LAYOUT:         %[[CAT:.*]] = dla.channel_concat %[[C0]], %[[C1]] : {{.*}} -> tensor<1x70x3x3xf16, #dla.feature<fp16>>
// LAYOUT:         dla.relayout %[[CAT]] : tensor<1x70x3x3xf16, #dla.feature<fp16>> -> tensor<1x70x3x3xf16>
// LAYOUT-NOT:     dla.relayout
func.func @depthwise_slices(%x: tensor<1x3x3x70xf32>) -> tensor<1x3x3x70xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<3x3x70x1xf32>} : () -> tensor<3x3x70x1xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<70xf32>} : () -> tensor<70xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x3x70xf32>, tensor<3x3x70x1xf32>, tensor<70xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x70xf32>
  return %0 : tensor<1x3x3x70xf32>
}
