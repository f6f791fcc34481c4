// RUN: dla-opt %s --dla-lower-to-reference=skip-storage-layers --dla-encodings-to-memref --dla-lower-buffers-to-reference | FileCheck %s

// The storage layers' relayouts are calls to private functions whose
// arguments are the shape's numbers (extents, strides, bounds): layers of
// different shapes in one format call one function per direction, each
// with its own numbers (1x20x5x10 and 1x40x7x9 fp16 feature maps: 2 and 3
// surfaces of 16-channel atoms). The first number is the view's element
// count: 3200 and 6048 storage bytes of fp16.
// CHECK-LABEL: func.func @two_shapes
// CHECK: %[[N1:.*]] = arith.constant 1600 : index
// CHECK: call @[[IN:__dla_kernel_relayout[_0-9]*]](%{{.*}}, %{{.*}}, %[[N1]], {{.*}}) {no_inline} : (memref<?x?x?x?xf16>, memref<?xi8>, index,
// CHECK: call @[[OUT:__dla_kernel_relayout[_0-9]*]](%{{.*}}, %{{.*}}, %{{.*}}) {no_inline} : (memref<?x?x?x?xf16>, memref<?xi8>, index,
// CHECK: %[[N2:.*]] = arith.constant 3024 : index
// CHECK: call @[[IN]](%{{.*}}, %{{.*}}, %[[N2]], {{.*}}) {no_inline}
// CHECK: call @[[OUT]](%{{.*}}, %{{.*}}, {{.*}}) {no_inline}
// CHECK: func.func private @[[IN]](%{{.*}}: memref<?x?x?x?xf16>, %{{.*}}: memref<?xi8>, %{{.*}}: index
// CHECK: func.func private @[[OUT]](%{{.*}}: memref<?x?x?x?xf16>, %{{.*}}: memref<?xi8>, %{{.*}}: index
// CHECK-NOT: func.func
func.func @two_shapes(%x: tensor<1x20x5x10xf16, #dla.feature<fp16>>, %y: tensor<1x40x7x9xf16, #dla.feature<fp16>>)
    -> (tensor<1x20x5x10xf16, #dla.feature<fp16>>, tensor<1x40x7x9xf16, #dla.feature<fp16>>) {
  %a = dla.sdp offline %x relu : tensor<1x20x5x10xf16, #dla.feature<fp16>> -> tensor<1x20x5x10xf16, #dla.feature<fp16>>
  %b = dla.sdp offline %y relu : tensor<1x40x7x9xf16, #dla.feature<fp16>> -> tensor<1x40x7x9xf16, #dla.feature<fp16>>
  return %a, %b : tensor<1x20x5x10xf16, #dla.feature<fp16>>, tensor<1x40x7x9xf16, #dla.feature<fp16>>
}
