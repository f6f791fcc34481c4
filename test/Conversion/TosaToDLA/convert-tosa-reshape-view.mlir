// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>%t.err | FileCheck %s --enable-var-scope
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// A reshape of a layer's positions in the NCHW frame the importer keeps
// between layers (the attention core reads k_h's one-row map of 40 keys as
// 5 x 8, AttentionSoftmax.cpp). On nv_small's feature data (8-byte atoms)
// [1, 16, 1, 40] and [1, 16, 5, 8] with lines of 8 atoms are the same
// bytes: a view, no host op between the layers.

// CHECK-LABEL: func.func @keys_as_rows
// CHECK:         %[[A:.*]] = dla.pool max {{.*}} -> tensor<1x16x1x40xi8>
// CHECK:         %[[V:.*]] = dla.reshape_view %[[A]] : tensor<1x16x1x40xi8> -> tensor<1x16x5x8xi8>
// CHECK:         dla.pool max %[[V]]
// CHECK-NOT:     tosa.reshape
func.func @keys_as_rows(%x: tensor<1x1x40x16xi8>) -> tensor<1x5x8x16xi8> {
  %a = tosa.max_pool2d %x {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x1x40x16xi8>) -> tensor<1x1x40x16xi8>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x1x40x16xi8>) -> tensor<1x16x1x40xi8>
  %shape = tosa.const_shape {values = dense<[1, 16, 5, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %an, %shape : (tensor<1x16x1x40xi8>, !tosa.shape<4>) -> tensor<1x16x5x8xi8>
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x16x5x8xi8>) -> tensor<1x5x8x16xi8>
  %y = tosa.max_pool2d %t {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x5x8x16xi8>) -> tensor<1x5x8x16xi8>
  return %y : tensor<1x5x8x16xi8>
}

// -----

// A reshape that moves channels into positions is data movement: it stays
// on the host, with a remark saying why.
// CHECK-LABEL: func.func @channels_moved
// CHECK:         tosa.reshape
// REMARK: remark: stays on the host: a reshape of a layer's result runs as a view only of its positions (N and C kept, rank 4); it reshapes 1x16x1x40 to 1x8x2x40
func.func @channels_moved(%x: tensor<1x1x40x16xi8>) -> tensor<1x2x40x8xi8> {
  %a = tosa.max_pool2d %x {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x1x40x16xi8>) -> tensor<1x1x40x16xi8>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x1x40x16xi8>) -> tensor<1x16x1x40xi8>
  %shape = tosa.const_shape {values = dense<[1, 8, 2, 40]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %an, %shape : (tensor<1x16x1x40xi8>, !tosa.shape<4>) -> tensor<1x8x2x40xi8>
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x2x40xi8>) -> tensor<1x2x40x8xi8>
  %y = tosa.max_pool2d %t {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x2x40x8xi8>) -> tensor<1x2x40x8xi8>
  return %y : tensor<1x2x40x8xi8>
}

