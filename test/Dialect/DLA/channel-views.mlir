// Channel views round-trip; the ones the verifier accepts: whole atoms with
// the parent's strides, a last view of a partial atom, plain tensors.
// RUN: dla-opt %s | dla-opt | FileCheck %s

#P = #dla.feature<int8, config = nv_small>
#V = #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>

// CHECK-LABEL: func.func @groups
// CHECK: dla.channel_slice %{{.*}}[8] : tensor<1x21x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
// CHECK: dla.channel_slice %{{.*}}[16] : {{.*}} -> tensor<1x5x4x4xi8
// CHECK: dla.channel_concat %{{.*}}, %{{.*}} : tensor<1x8x4x4xi8, {{.*}}>, tensor<1x5x4x4xi8, {{.*}}> -> tensor<1x13x4x4xi8
func.func @groups(%x: tensor<1x21x4x4xi8, #P>) -> tensor<1x13x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>> {
  %a = dla.channel_slice %x [8] : tensor<1x21x4x4xi8, #P> -> tensor<1x8x4x4xi8, #V>
  %b = dla.channel_slice %x [16] : tensor<1x21x4x4xi8, #P> -> tensor<1x5x4x4xi8, #V>
  %y = dla.channel_concat %a, %b : tensor<1x8x4x4xi8, #V>, tensor<1x5x4x4xi8, #V> -> tensor<1x13x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
  return %y : tensor<1x13x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
}

// CHECK-LABEL: func.func @plain
// CHECK: dla.channel_slice %{{.*}}[3] : tensor<2x7x3x3xf16> -> tensor<2x4x3x3xf16>
func.func @plain(%x: tensor<2x7x3x3xf16>) -> tensor<2x4x3x3xf16> {
  %v = dla.channel_slice %x [3] : tensor<2x7x3x3xf16> -> tensor<2x4x3x3xf16>
  return %v : tensor<2x4x3x3xf16>
}

// A padded concatenation: parts of 1 channel, each from a whole atom (8
// int8 channels on nv_small); the gaps 1 .. 7, 9 .. 15 and 17 .. 23 are
// their atoms' padding.
#J = #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 512, config = nv_small>
// CHECK-LABEL: func.func @padded
// CHECK: dla.channel_concat %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} at [0, 8, 16, 24] : {{.*}} -> tensor<1x25x4x4xi8
func.func @padded(%a: tensor<1x1x4x4xi8, #J>, %b: tensor<1x1x4x4xi8, #J>, %c: tensor<1x1x4x4xi8, #J>, %d: tensor<1x1x4x4xi8, #J>) -> tensor<1x25x4x4xi8, #J> {
  %y = dla.channel_concat %a, %b, %c, %d at [0, 8, 16, 24] : tensor<1x1x4x4xi8, #J>, tensor<1x1x4x4xi8, #J>, tensor<1x1x4x4xi8, #J>, tensor<1x1x4x4xi8, #J> -> tensor<1x25x4x4xi8, #J>
  return %y : tensor<1x25x4x4xi8, #J>
}
