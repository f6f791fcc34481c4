// RUN: dla-opt %s --dla-convert-tosa -split-input-file | FileCheck %s --enable-var-scope

// OHWI weight 2x1x2x3 holding 0..11 becomes KCRS 2x3x1x2:
// w[k, c, 0, s] = k*6 + s*3 + c -> 0 3 1 4 2 5 6 9 7 10 8 11 (f32, little-endian).
// CHECK-LABEL: func.func @conv_bias
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x5x3xf32>)
// CHECK-DAG:     %[[B:.*]] = arith.constant dense_resource<[[BNAME:dla_conv_bias.*]]> : tensor<2xf32>
// CHECK-DAG:     %[[W:.*]] = arith.constant dense_resource<[[WNAME:dla_conv_weight.*]]> : tensor<2x3x1x2xf32>
// CHECK:         %[[T:.*]] = tosa.transpose %[[X]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
// CHECK:         %[[H:.*]] = tosa.cast %[[T]] : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf16>
// CHECK:         %[[WH:.*]] = arith.truncf %[[W]] : tensor<2x3x1x2xf32> to tensor<2x3x1x2xf16>
// CHECK:         %[[BH:.*]] = arith.truncf %[[B]] : tensor<2xf32> to tensor<2xf16>
// CHECK:         %[[C:.*]] = dla.conv direct %[[H]], %[[WH]], %[[BH]] stride [1, 2] pad [0, 0, 1, 0] : tensor<1x3x4x5xf16>, tensor<2x3x1x2xf16>, tensor<2xf16> -> tensor<1x2x4x3xf16>
// CHECK:         %[[F:.*]] = tosa.cast %[[C]] : (tensor<1x2x4x3xf16>) -> tensor<1x2x4x3xf32>
// CHECK:         %[[Y:.*]] = tosa.transpose %[[F]] {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x4x3xf32>) -> tensor<1x4x3x2xf32>
// CHECK:         return %[[Y]]
// CHECK:       [[BNAME]]: "0x080000000000003F000080BF"
// CHECK-NEXT:  [[WNAME]]: "0x0800000000000000000040400000803F00008040000000400000A0400000C040000010410000E040000020410000004100003041"
func.func @conv_bias(%x: tensor<1x4x5x3xf32>) -> tensor<1x4x3x2xf32> {
  %w = "tosa.const"() {values = dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]], [[[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]]]> : tensor<2x1x2x3xf32>} : () -> tensor<2x1x2x3xf32>
  %b = "tosa.const"() {values = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 2>} : (tensor<1x4x5x3xf32>, tensor<2x1x2x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3x2xf32>
  return %y : tensor<1x4x3x2xf32>
}

// -----

// Two offloaded layers in a row: the transposes and casts between them
// cancel; a zero bias gives dla.conv none; ReLU after the convolution runs
// on the fly; the surviving transposes are the partition boundary.
// CHECK-LABEL: func.func @conv_relu_conv
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x3x2xf32>)
// CHECK:         %[[T:.*]] = tosa.transpose %[[X]] {perms = array<i32: 0, 3, 1, 2>}
// CHECK:         %[[H:.*]] = tosa.cast %[[T]] : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf16>
// CHECK:         %[[C1:.*]] = dla.conv direct %[[H]], %{{.*}} : tensor<1x2x2x3xf16>, tensor<2x2x1x1xf16> -> tensor<1x2x2x3xf16>
// CHECK:         %[[R:.*]] = dla.sdp on_the_fly %[[C1]] relu : tensor<1x2x2x3xf16> -> tensor<1x2x2x3xf16>
// CHECK:         %[[C2:.*]] = dla.conv direct %[[R]], %{{.*}} : tensor<1x2x2x3xf16>, tensor<2x2x1x1xf16> -> tensor<1x2x2x3xf16>
// CHECK:         %[[F:.*]] = tosa.cast %[[C2]] : (tensor<1x2x2x3xf16>) -> tensor<1x2x2x3xf32>
// CHECK:         %[[Y:.*]] = tosa.transpose %[[F]] {perms = array<i32: 0, 2, 3, 1>}
// CHECK:         return %[[Y]]
func.func @conv_relu_conv(%x: tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32> {
  %w = "tosa.const"() {values = dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>} : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x3x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3x2xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
  %2 = tosa.conv2d %1, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x3x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3x2xf32>
  return %2 : tensor<1x2x3x2xf32>
}

// -----

// An f16 network needs no casts and no truncf. (A transpose that only moves
// a unit dimension canonicalizes to a reshape.)
// CHECK-LABEL: func.func @conv_f16
// CHECK:         %[[W:.*]] = arith.constant dense_resource<{{.*}}> : tensor<1x1x1x1xf16>
// CHECK:         %[[T:.*]] = tosa.reshape
// CHECK-NOT:     tosa.cast
// CHECK:         dla.conv direct %[[T]], %[[W]] : tensor<1x1x2x2xf16>, tensor<1x1x1x1xf16> -> tensor<1x1x2x2xf16>
// CHECK-NOT:     tosa.cast
func.func @conv_f16(%x: tensor<1x2x2x1xf16>) -> tensor<1x2x2x1xf16> {
  %w = "tosa.const"() {values = dense<2.0> : tensor<1x1x1x1xf16>} : () -> tensor<1x1x1x1xf16>
  %b = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf16>, tensor<1x1x1x1xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x2x1xf16>
  return %0 : tensor<1x2x2x1xf16>
}

// -----

// Depthwise 3 channels x multiplier 2 (HWCM 1x1x3x2 holding 1..6): one
// block-diagonal KCRS 6x3x1x1 weight; kernel c*2+m reads channel c only:
// rows [1 0 0] [2 0 0] [0 3 0] [0 4 0] [0 0 5] [0 0 6].
// CHECK-LABEL: func.func @depthwise
// CHECK:         %[[W:.*]] = arith.constant dense_resource<[[WNAME:dla_conv_weight.*]]> : tensor<6x3x1x1xf32>
// CHECK:         %[[WH:.*]] = arith.truncf %[[W]]
// CHECK:         dla.conv direct %{{.*}}, %[[WH]] : tensor<1x3x2x2xf16>, tensor<6x3x1x1xf16> -> tensor<1x6x2x2xf16>
// CHECK:       [[WNAME]]: "0x080000000000803F000000000000000000000040000000000000000000000000000040400000000000000000000080400000000000000000000000000000A04000000000000000000000C040"
func.func @depthwise(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x2x6xf32> {
  %w = "tosa.const"() {values = dense<[[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]]> : tensor<1x1x3x2xf32>} : () -> tensor<1x1x3x2xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<6xf32>} : () -> tensor<6xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x3xf32>, tensor<1x1x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x6xf32>
  return %0 : tensor<1x2x2x6xf32>
}

// -----

// CHECK-LABEL: func.func @pools
// CHECK:         %[[H:.*]] = tosa.cast %{{.*}} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf16>
// CHECK:         %[[M:.*]] = dla.pool max %[[H]] kernel [3, 3] pad [1, 1, 1, 1] : tensor<1x2x4x4xf16> -> tensor<1x2x4x4xf16>
// CHECK:         %[[A:.*]] = dla.pool average %[[M]] kernel [2, 2] stride [2, 2] : tensor<1x2x4x4xf16> -> tensor<1x2x2x2xf16>
// CHECK:         tosa.cast %[[A]]
func.func @pools(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = tosa.avg_pool2d %0, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// x * a + b per channel (a = [2, 4], b = [1, 2]) is one batch-norm with
// (add, mul) = (b / a, a) = (0.5, 2), (0.5, 4); ReLU merges into the same
// SDP layer; a per-channel add is a bias; a sum of two feature maps an
// element-wise operand, merged into one layer (bias comes before the
// element-wise stage, but after batch-norm and ReLU, so two layers remain).
// CHECK-LABEL: func.func @sdp
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x1x2xf32>, %[[Z:.*]]: tensor<1x1x1x2xf32>)
// CHECK-DAG:     %[[BN:.*]] = arith.constant dense_resource<[[BNNAME:dla_batchnorm.*]]> : tensor<2x2xf32>
// CHECK-DAG:     %[[BIAS:.*]] = arith.constant dense_resource<[[BIASNAME:dla_sdp_bias.*]]> : tensor<2xf32>
// CHECK:         %[[BNH:.*]] = arith.truncf %[[BN]] : tensor<2x2xf32> to tensor<2x2xf16>
// CHECK:         %[[XH:.*]] = tosa.cast {{.*}} -> tensor<1x2x1x1xf16>
// CHECK:         %[[S1:.*]] = dla.sdp offline %[[XH]] batchnorm %[[BNH]] : tensor<2x2xf16> relu : tensor<1x2x1x1xf16> -> tensor<1x2x1x1xf16>
// CHECK:         %[[BIASH:.*]] = arith.truncf %[[BIAS]] : tensor<2xf32> to tensor<2xf16>
// CHECK:         %[[ZH:.*]] = tosa.cast {{.*}} -> tensor<1x2x1x1xf16>
// CHECK:         %[[S2:.*]] = dla.sdp offline %[[S1]] bias %[[BIASH]] : tensor<2xf16> eltwise %[[ZH]] : tensor<1x2x1x1xf16> : tensor<1x2x1x1xf16> -> tensor<1x2x1x1xf16>
// CHECK-DAG:   [[BNNAME]]: "0x080000000000003F000000400000003F00008040"
// CHECK-DAG:   [[BIASNAME]]: "0x080000000000004000008040"
func.func @sdp(%x: tensor<1x1x1x2xf32>, %z: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %a = "tosa.const"() {values = dense<[[[[2.0, 4.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %b = "tosa.const"() {values = dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %x, %a, %shift : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x1x1x2xf32>
  %1 = tosa.add %0, %b : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 0x7F800000 : f32} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %3 = tosa.add %2, %a : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %4 = tosa.add %3, %z : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %4 : tensor<1x1x1x2xf32>
}

// -----

// A sum of two feature maps in ONNX's NCHW (transposes to NCHW of NHWC
// maps, as the importer writes an Add between layers) is read in that
// order, C = 8 (ElementwiseFrame), not as a 1x2x8x2 NHWC map.
// CHECK-LABEL: func.func @add_nchw
// CHECK:         dla.sdp offline %{{.*}} eltwise %{{.*}} : tensor<1x8x2x2xf16> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
func.func @add_nchw(%x: tensor<1x2x2x8xf32>, %z: tensor<1x2x2x8xf32>) -> tensor<1x8x2x2xf32> {
  %a = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x8xf32>) -> tensor<1x8x2x2xf32>
  %b = tosa.transpose %z {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x8xf32>) -> tensor<1x8x2x2xf32>
  %0 = tosa.add %a, %b : (tensor<1x8x2x2xf32>, tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  return %0 : tensor<1x8x2x2xf32>
}

// -----

// A scale alone is a batch-norm with zero add.
// CHECK-LABEL: func.func @scale
// CHECK:         %[[BN:.*]] = arith.constant dense_resource<[[BNNAME:dla_batchnorm.*]]> : tensor<2x2xf32>
// CHECK:         dla.sdp offline %{{.*}} batchnorm %{{.*}} : tensor<2x2xf16> : tensor<1x2x1x1xf16> -> tensor<1x2x1x1xf16>
// CHECK:       [[BNNAME]]: "0x08000000000000000000004000000000000040C0"
func.func @scale(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %a = "tosa.const"() {values = dense<[[[[2.0, -3.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %a, %x, %shift : (tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}
