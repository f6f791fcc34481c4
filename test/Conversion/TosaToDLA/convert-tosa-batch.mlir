// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -verify-diagnostics | FileCheck %s
// RUN: grep -v expected- %s | dla-opt --dla-convert-tosa="target=nv_full precision=int8" 2>&1 | FileCheck %s --check-prefix=FULL
// Layers on a batch of several images are offloaded; where the
// configuration has no batch mode (nv_small, nv_large), a remark says each
// image runs as a hardware layer of its own. nv_full's convolution takes a
// batch: nothing to say.
// FULL-NOT: remark
// FULL: dla.pool max {{.*}} : tensor<3x2x4x4xi8> -> tensor<3x2x2x2xi8>

// expected-remark @below {{dla-convert-tosa: 2 layers take a batch of up to 3 images: nv_small has no batch mode (BATCH_DISABLE), so each runs as one hardware layer per image (5 in all)}}
module {
// CHECK-LABEL: func.func @batches
// CHECK: dla.pool max {{.*}} : tensor<3x2x4x4xi8> -> tensor<3x2x2x2xi8>
// CHECK: dla.pool max {{.*}} : tensor<2x2x4x4xi8> -> tensor<2x2x2x2xi8>
// CHECK: dla.pool max {{.*}} : tensor<1x2x4x4xi8> -> tensor<1x2x2x2xi8>
func.func @batches(%x: tensor<3x4x4x2xi8>, %y: tensor<2x4x4x2xi8>, %z: tensor<1x4x4x2xi8>) -> (tensor<3x2x2x2xi8>, tensor<2x2x2x2xi8>, tensor<1x2x2x2xi8>) {
  %a = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<3x4x4x2xi8>) -> tensor<3x2x2x2xi8>
  %b = tosa.max_pool2d %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<2x4x4x2xi8>) -> tensor<2x2x2x2xi8>
  %c = tosa.max_pool2d %z {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8>
  return %a, %b, %c : tensor<3x2x2x2xi8>, tensor<2x2x2x2xi8>, tensor<1x2x2x2xi8>
}
}
