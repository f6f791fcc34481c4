// dla.as_weights round trips; the weight stream's encodings it accepts
// (interleaved surfaces; one surface or one line packed).
// RUN: dla-opt %s | dla-opt | FileCheck %s

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @interleaved
// CHECK: dla.as_weights %{{.*}} : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
func.func @interleaved(%k: tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>) -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>> {
  %w = dla.as_weights %k : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  return %w : tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
}

// One surface: the packed cube is the stream.
// CHECK-LABEL: func.func @one_surface
func.func @one_surface(%k: tensor<1x8x5x8xi8, #dla.feature<int8, config = nv_small>>) -> tensor<40x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>> {
  %w = dla.as_weights %k : tensor<1x8x5x8xi8, #dla.feature<int8, config = nv_small>> -> tensor<40x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  return %w : tensor<40x8x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
}

// One line: so is it.
// CHECK-LABEL: func.func @one_line
func.func @one_line(%k: tensor<1x32x1x8xi8, #dla.feature<int8, config = nv_small>>) -> tensor<8x32x1x1xi8, #dla.weight<direct, int8, config = nv_small>> {
  %w = dla.as_weights %k : tensor<1x32x1x8xi8, #dla.feature<int8, config = nv_small>> -> tensor<8x32x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  return %w : tensor<8x32x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
}

// Without encodings: the transpose (CPU execution), before layout assignment.
// CHECK-LABEL: func.func @plain
// CHECK: dla.as_weights %{{.*}} : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
func.func @plain(%k: tensor<1x16x5x8xi8>) -> tensor<40x16x1x1xi8> {
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  return %w : tensor<40x16x1x1xi8>
}
}
