// RUN: dla-opt %s --dla-pack-weights --dla-lower-to-reference="skip-storage-layers fp16-arithmetic=ideal" --dla-encodings-to-memref --dla-lower-buffers-to-reference=fp16-arithmetic=ideal | FileCheck %s
// (The ideal fp16 arithmetic, whose sums are linalg convolutions; NVDLA's
// is one runtime call that skips masked-off channels itself:
// test/Execution/fp16-conv-layers.test.)

// A depthwise convolution run dense whose weights are packed compressed
// before the reference lowering reads them (what --dla-compile with
// layouts does): the WMB bits say every weight off the diagonal k == c is
// zero, so the storage form's reference computes the depthwise sum. One
// non-zero weight off the diagonal (kernel 1, channel 3) keeps the dense sum.

// Each storage relayout is a call to a private function shared by every
// call whose loops have the same form, the shape's numbers (extents,
// strides, bounds) passed as arguments: both layers call the same two.
// CHECK-LABEL: func.func @diagonal
// CHECK: call @[[IN:__dla_kernel_relayout[_0-9]*]](%{{.*}}, %{{.*}}, %{{.*}}) {no_inline} : (memref<?x?x?x?xf16>, memref<?xi8>, index,
// CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: call @[[OUT:__dla_kernel_relayout[_0-9]*]](%{{.*}}, %{{.*}}, %{{.*}}) {no_inline} : (memref<?x?x?x?xf16>, memref<?xi8>, index,
// CHECK-LABEL: func.func @off_diagonal
// CHECK: call @[[IN]](
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: call @[[OUT]](
// CHECK: func.func private @[[IN]](%{{.*}}: memref<?x?x?x?xf16>, %{{.*}}: memref<?xi8>, %{{.*}}: index
// CHECK: vector.load %{{.*}} : memref<?x?x?x?x?xf16, strided<[?, ?, ?, ?, 1], offset: ?>>, vector<16xf16>
// CHECK: func.func private @[[OUT]](
// CHECK-NOT: func.func

func.func @diagonal(%x: tensor<1x4x6x6xf16, #dla.feature<fp16>>) -> tensor<1x4x4x4xf16, #dla.feature<fp16>> {
  %c = arith.constant dense<[[[[-2.0, -1.5, -1.0], [-0.5, 1.5, 0.5], [1.0, 1.5, 2.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[-1.5, -1.0, -0.5], [0.0, 1.5, 1.0], [1.5, 2.0, 2.5]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[-1.0, -0.5, 0.0], [0.5, 1.5, 1.5], [2.0, 2.5, 3.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[-0.5, 0.0, 0.5], [1.0, 1.5, 2.0], [2.5, 3.0, 3.5]]]]> : tensor<4x4x3x3xf16>
  %w = dla.relayout %c : tensor<4x4x3x3xf16> -> tensor<4x4x3x3xf16, #dla.weight<direct, fp16, compressed>>
  %y = dla.conv direct %x, %w : tensor<1x4x6x6xf16, #dla.feature<fp16>>, tensor<4x4x3x3xf16, #dla.weight<direct, fp16, compressed>> -> tensor<1x4x4x4xf16, #dla.feature<fp16>>
  return %y : tensor<1x4x4x4xf16, #dla.feature<fp16>>
}

func.func @off_diagonal(%x: tensor<1x4x6x6xf16, #dla.feature<fp16>>) -> tensor<1x4x4x4xf16, #dla.feature<fp16>> {
  %c = arith.constant dense<[[[[-2.0, -1.5, -1.0], [-0.5, 1.5, 0.5], [1.0, 1.5, 2.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[-1.5, -1.0, -0.5], [0.0, 1.5, 1.0], [1.5, 2.0, 2.5]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.25, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[-1.0, -0.5, 0.0], [0.5, 1.5, 1.5], [2.0, 2.5, 3.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[-0.5, 0.0, 0.5], [1.0, 1.5, 2.0], [2.5, 3.0, 3.5]]]]> : tensor<4x4x3x3xf16>
  %w = dla.relayout %c : tensor<4x4x3x3xf16> -> tensor<4x4x3x3xf16, #dla.weight<direct, fp16, compressed>>
  %y = dla.conv direct %x, %w : tensor<1x4x6x6xf16, #dla.feature<fp16>>, tensor<4x4x3x3xf16, #dla.weight<direct, fp16, compressed>> -> tensor<1x4x4x4xf16, #dla.feature<fp16>>
  return %y : tensor<1x4x4x4xf16, #dla.feature<fp16>>
}
