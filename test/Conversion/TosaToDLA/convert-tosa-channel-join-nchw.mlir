// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" -split-input-file -verify-diagnostics | FileCheck %s --enable-var-scope
// Joins along channels in the NCHW frame the ONNX importer keeps between
// layers (tosa.concat axis 1), as bench/seg_net.py's decoder and side
// outputs hold them. fp16 on nv_full: 16 channels an atom.

// A layer's result and a host value (a resize on the host): the join is a
// view; layout assignment copies the host part into its place.
// CHECK-LABEL: func.func @skip
// CHECK:         %[[A:.*]] = dla.sdp on_the_fly {{.*}} -> tensor<1x16x4x4xf16>
// CHECK:         %[[H:.*]] = tosa.transpose %arg1
// CHECK:         %[[J:.*]] = dla.channel_concat %[[A]], %[[H]] : tensor<1x16x4x4xf16>, tensor<1x5x4x4xf16> -> tensor<1x21x4x4xf16>
// CHECK:         dla.conv direct %[[J]]
// CHECK-NOT:     tosa.concat
func.func @skip(%x: tensor<1x4x4x8xf16>, %h: tensor<1x4x4x5xf16>) -> tensor<1x4x4x2xf16> {
  %wa = "tosa.const"() {values = dense<1.0> : tensor<16x1x1x8xf16>} : () -> tensor<16x1x1x8xf16>
  %ba = "tosa.const"() {values = dense<0.0> : tensor<16xf16>} : () -> tensor<16xf16>
  %wc = "tosa.const"() {values = dense<1.0> : tensor<2x3x3x21xf16>} : () -> tensor<2x3x3x21xf16>
  %bc = "tosa.const"() {values = dense<0.0> : tensor<2xf16>} : () -> tensor<2xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<16x1x1x8xf16>, tensor<16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x16xf16>
  %r = tosa.clamp %a {min_val = 0.0 : f16, max_val = 0x7C00 : f16} : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %an = tosa.transpose %r {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x16xf16>) -> tensor<1x16x4x4xf16>
  %hn = tosa.transpose %h {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x5xf16>) -> tensor<1x5x4x4xf16>
  %j = tosa.concat %an, %hn {axis = 1 : i32} : (tensor<1x16x4x4xf16>, tensor<1x5x4x4xf16>) -> tensor<1x21x4x4xf16>
  %jt = tosa.transpose %j {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x21x4x4xf16>) -> tensor<1x4x4x21xf16>
  %y = tosa.conv2d %jt, %wc, %bc, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x21xf16>, tensor<2x3x3x21xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
  return %y : tensor<1x4x4x2xf16>
}

// -----

// The side outputs: four 1-channel maps into a 1x1 fuse convolution. Each
// part starts on a whole atom (channels 0, 16, 32, 48 of 49); the fuse
// convolution's weights are widened with zeros at the gaps: its kernel
// reads 49 channels, [2, 3, 5, 7] at channels 0, 16, 32 and 48.
// CHECK-LABEL: func.func @side_outputs
// CHECK:         %[[W:.*]] = arith.constant dense_resource<[[BLOB:.*]]> : tensor<1x49x1x1xf16>
// CHECK:         %[[J:.*]] = dla.channel_concat %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} at [0, 16, 32, 48] : tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16> -> tensor<1x49x4x4xf16>
// CHECK:         dla.conv direct %[[J]], %[[W]]{{.*}} : tensor<1x49x4x4xf16>, tensor<1x49x1x1xf16>
// CHECK-NOT:     tosa.concat
// 49 halves: 2.0 (0x4000), 15 zeros, 3.0 (0x4200), 15 zeros, 5.0 (0x4500), 15 zeros, 7.0 (0x4700).
// CHECK:         [[BLOB]]: "0x{{........}}0040000000000000000000000000000000000000000000000000000000000000004200000000000000000000000000000000000000000000000000000000000000450000000000000000000000000000000000000000000000000000000000000047"
func.func @side_outputs(%x: tensor<1x4x4x8xf16>) -> tensor<1x1x4x4xf16> {
  %w1 = "tosa.const"() {values = dense<1.0> : tensor<1x1x1x8xf16>} : () -> tensor<1x1x1x8xf16>
  %w2 = "tosa.const"() {values = dense<2.0> : tensor<1x1x1x8xf16>} : () -> tensor<1x1x1x8xf16>
  %b1 = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %wf = "tosa.const"() {values = dense<[[[[2.0, 3.0, 5.0, 7.0]]]]> : tensor<1x1x1x4xf16>} : () -> tensor<1x1x1x4xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<1x1x1x8xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x1xf16>
  %b = tosa.conv2d %x, %w2, %b1, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<1x1x1x8xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x1xf16>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x1xf16>) -> tensor<1x1x4x4xf16>
  %bn = tosa.transpose %b {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x1xf16>) -> tensor<1x1x4x4xf16>
  %j = tosa.concat %an, %bn, %an, %bn {axis = 1 : i32} : (tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16>) -> tensor<1x4x4x4xf16>
  %jt = tosa.transpose %j {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %f = tosa.conv2d %jt, %wf, %b1, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xf16>, tensor<1x1x1x4xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x1xf16>
  %y = tosa.transpose %f {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x1xf16>) -> tensor<1x1x4x4xf16>
  return %y : tensor<1x1x4x4xf16>
}

// -----

// A padded join whose reader is no convolution stays on the host (the
// sigmoid's SDP reads it through the element-wise frame's transpose).
// CHECK-LABEL: func.func @side_outputs_sigmoid
// CHECK:         tosa.concat
// CHECK:         dla.sdp offline %{{.*}} ew <lut =
func.func @side_outputs_sigmoid(%x: tensor<1x4x4x8xf16>) -> tensor<1x2x4x4xf16> {
  %w1 = "tosa.const"() {values = dense<1.0> : tensor<1x1x1x8xf16>} : () -> tensor<1x1x1x8xf16>
  %b1 = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<1x1x1x8xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x1xf16>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x1xf16>) -> tensor<1x1x4x4xf16>
  // expected-remark @+1 {{stays on the host: a join along channels whose parts but the last do not all end on a channel atom of 16 channels runs on the accelerator only padded, into convolutions (zero weights at the padding): 'tosa.transpose' reads it, not as the input of a direct convolution with constant weights}}
  %j = tosa.concat %an, %an {axis = 1 : i32} : (tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = tosa.sigmoid %j : (tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  return %s : tensor<1x2x4x4xf16>
}

// -----

// In NHWC (every part a transpose from NCHW), a join whose first part
// ends inside an atom stays on the host: the padded form is NCHW's.
func.func @nhwc_partial(%x: tensor<1x4x4x8xf16>) -> tensor<1x4x4x4xf16> {
  %w1 = "tosa.const"() {values = dense<1.0> : tensor<2x1x1x8xf16>} : () -> tensor<2x1x1x8xf16>
  %b1 = "tosa.const"() {values = dense<0.0> : tensor<2xf16>} : () -> tensor<2xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<2x1x1x8xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
  // expected-remark @+1 {{stays on the host: a join along channels whose parts but the last do not all end on a channel atom of 16 channels runs on the accelerator only padded, into convolutions (zero weights at the padding): it joins NHWC tensors}}
  %j = tosa.concat %a, %a {axis = 3 : i32} : (tensor<1x4x4x2xf16>, tensor<1x4x4x2xf16>) -> tensor<1x4x4x4xf16>
  return %j : tensor<1x4x4x4xf16>
}

// -----

// An f32 network compiled in fp16 (the detector's FPN): each layer's result
// is cast to f32 and the join is in f32. Every part is an exact widening
// (f16 -> f32), so the join moves the f16 values and the casts around it
// cancel: a padded join (3 channels from 0 and 16) into the 3x3
// convolution, no cast or concat left between the layers.
// CHECK-LABEL: func.func @f32_join
// CHECK:         %[[X:.*]] = tosa.cast %arg0 : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf16>
// CHECK:         %[[J:.*]] = dla.channel_concat %{{.*}}, %{{.*}} at [0, 16] : tensor<1x3x4x4xf16>, tensor<1x3x4x4xf16> -> tensor<1x19x4x4xf16>
// CHECK:         %[[Y:.*]] = dla.conv direct %[[J]], %{{.*}} pad [1, 1, 1, 1] : tensor<1x19x4x4xf16>, tensor<2x19x3x3xf16>
// CHECK-NOT:     tosa.concat
// CHECK:         tosa.cast %{{.*}} : (tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf32>
// CHECK-NOT:     tosa.cast
func.func @f32_join(%x: tensor<1x8x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = "tosa.const"() {values = dense<1.0> : tensor<3x1x1x8xf32>} : () -> tensor<3x1x1x8xf32>
  %w2 = "tosa.const"() {values = dense<2.0> : tensor<3x1x1x8xf32>} : () -> tensor<3x1x1x8xf32>
  %wc = "tosa.const"() {values = dense<1.0> : tensor<2x3x3x6xf32>} : () -> tensor<2x3x3x6xf32>
  %b3 = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %b2 = "tosa.const"() {values = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %xt = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  %a = tosa.conv2d %xt, %w1, %b3, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>, tensor<3x1x1x8xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  %b = tosa.conv2d %xt, %w2, %b3, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>, tensor<3x1x1x8xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
  %bn = tosa.transpose %b {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
  %j = tosa.concat %an, %bn {axis = 1 : i32} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x6x4x4xf32>
  %jt = tosa.transpose %j {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x6x4x4xf32>) -> tensor<1x4x4x6xf32>
  %y = tosa.conv2d %jt, %wc, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x6xf32>, tensor<2x3x3x6xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %yn = tosa.transpose %y {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
  return %yn : tensor<1x2x4x4xf32>
}

// -----

// A join of an f32 argument beside a layer's result: the argument has no
// narrow form, so the join stays in f32 on the host (no remark: it is data
// movement in another type than the layers').
// CHECK-LABEL: func.func @f32_join_host_part
// CHECK:         tosa.concat %{{.*}}, %arg1 {axis = 1 : i32} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x6x4x4xf32>
func.func @f32_join_host_part(%x: tensor<1x8x4x4xf32>, %h: tensor<1x3x4x4xf32>) -> tensor<1x6x4x4xf32> {
  %w1 = "tosa.const"() {values = dense<1.0> : tensor<3x1x1x8xf32>} : () -> tensor<3x1x1x8xf32>
  %b3 = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %xt = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  %a = tosa.conv2d %xt, %w1, %b3, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>, tensor<3x1x1x8xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
  %j = tosa.concat %an, %h {axis = 1 : i32} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x6x4x4xf32>
  return %j : tensor<1x6x4x4xf32>
}
