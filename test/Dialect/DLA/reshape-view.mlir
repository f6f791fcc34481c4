// RUN: dla-opt %s --dla-lower-to-reference | FileCheck %s --check-prefix=REF
// RUN: dla-opt %s | dla-opt | FileCheck %s --check-prefix=ROUND
// dla.reshape_view: without encoding a reshape of the positions; on
// nv_small's feature data [1, 16, 1, 40] as [1, 16, 5, 8] with lines of 8
// atoms (64 bytes) and the source's surfaces of 320 bytes, the same bytes.

// REF-LABEL: func.func @plain
// REF:         %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x16x1x40xi8> into tensor<1x16x40xi8>
// REF:         tensor.expand_shape %[[F]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 16, 5, 8] : tensor<1x16x40xi8> into tensor<1x16x5x8xi8>
// REF-NOT:     dla.reshape_view
func.func @plain(%x: tensor<1x16x1x40xi8>) -> tensor<1x16x5x8xi8> {
  %v = dla.reshape_view %x : tensor<1x16x1x40xi8> -> tensor<1x16x5x8xi8>
  return %v : tensor<1x16x5x8xi8>
}

// REF-LABEL: func.func @in_place
// ROUND-LABEL: func.func @in_place
// ROUND:         dla.reshape_view %{{.*}} : tensor<1x16x1x40xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 64, surface_stride = 320, batch_stride = 640, config = nv_small>>
func.func @in_place(%x: tensor<1x16x1x40xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 64, surface_stride = 320, batch_stride = 640, config = nv_small>> {
  %v = dla.reshape_view %x : tensor<1x16x1x40xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 64, surface_stride = 320, batch_stride = 640, config = nv_small>>
  return %v : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 64, surface_stride = 320, batch_stride = 640, config = nv_small>>
}
