// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" -split-input-file 2>%t.err | FileCheck %s --enable-var-scope
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// Slices along channels of a layer's result (attention's heads: q, k, v
// of one qkv projection, qdq_heads.py) in the NCHW frame the importer
// keeps between layers. fp16 on nv_full: 16 channels an atom.

// Two heads of 16 channels of a convolution's 32, each read by a layer:
// views of the map, no host op between the layers.
// CHECK-LABEL: func.func @heads
// CHECK:         %[[A:.*]] = dla.conv direct {{.*}} -> tensor<1x32x4x4xf16>
// CHECK:         %[[S0:.*]] = dla.channel_slice %[[A]][0] : tensor<1x32x4x4xf16> -> tensor<1x16x4x4xf16>
// CHECK:         %[[S1:.*]] = dla.channel_slice %[[A]][16] : tensor<1x32x4x4xf16> -> tensor<1x16x4x4xf16>
// CHECK-DAG:     dla.conv direct %[[S0]]
// CHECK-DAG:     dla.conv direct %[[S1]]
// CHECK-NOT:     tosa.slice
func.func @heads(%x: tensor<1x4x4x8xf16>) -> (tensor<1x4x4x2xf16>, tensor<1x4x4x2xf16>) {
  %wa = "tosa.const"() {values = dense<1.0> : tensor<32x1x1x8xf16>} : () -> tensor<32x1x1x8xf16>
  %ba = "tosa.const"() {values = dense<0.0> : tensor<32xf16>} : () -> tensor<32xf16>
  %wc = "tosa.const"() {values = dense<1.0> : tensor<2x1x1x16xf16>} : () -> tensor<2x1x1x16xf16>
  %bc = "tosa.const"() {values = dense<0.0> : tensor<2xf16>} : () -> tensor<2xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<32x1x1x8xf16>, tensor<32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x32xf16>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x32xf16>) -> tensor<1x32x4x4xf16>
  %size = tosa.const_shape {values = dense<[1, 16, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s0 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s1 = tosa.const_shape {values = dense<[0, 16, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h0 = tosa.slice %an, %s0, %size : (tensor<1x32x4x4xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x16x4x4xf16>
  %h1 = tosa.slice %an, %s1, %size : (tensor<1x32x4x4xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x16x4x4xf16>
  %t0 = tosa.transpose %h0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x16x4x4xf16>) -> tensor<1x4x4x16xf16>
  %t1 = tosa.transpose %h1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x16x4x4xf16>) -> tensor<1x4x4x16xf16>
  %y0 = tosa.conv2d %t0, %wc, %bc, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xf16>, tensor<2x1x1x16xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
  %y1 = tosa.conv2d %t1, %wc, %bc, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xf16>, tensor<2x1x1x16xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
  return %y0, %y1 : tensor<1x4x4x2xf16>, tensor<1x4x4x2xf16>
}

// -----

// A head of 8 channels from channel 8 (15-dimension heads padded to 16
// for nv_small's 8-channel atom meet nv_full's 16 here): not on an atom,
// a host slice with a remark saying why.
// CHECK-LABEL: func.func @off_atom
// CHECK:         tosa.slice
// REMARK: remark: stays on the host: a slice along channels runs as a view only from a channel atom of 16 channels on; it starts at channel 8
func.func @off_atom(%x: tensor<1x4x4x8xf16>) -> tensor<1x4x4x2xf16> {
  %wa = "tosa.const"() {values = dense<1.0> : tensor<32x1x1x8xf16>} : () -> tensor<32x1x1x8xf16>
  %ba = "tosa.const"() {values = dense<0.0> : tensor<32xf16>} : () -> tensor<32xf16>
  %wc = "tosa.const"() {values = dense<1.0> : tensor<2x1x1x8xf16>} : () -> tensor<2x1x1x8xf16>
  %bc = "tosa.const"() {values = dense<0.0> : tensor<2xf16>} : () -> tensor<2xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<32x1x1x8xf16>, tensor<32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x32xf16>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x32xf16>) -> tensor<1x32x4x4xf16>
  %size = tosa.const_shape {values = dense<[1, 8, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s1 = tosa.const_shape {values = dense<[0, 8, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h1 = tosa.slice %an, %s1, %size : (tensor<1x32x4x4xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x8x4x4xf16>
  %t1 = tosa.transpose %h1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x4x4xf16>) -> tensor<1x4x4x8xf16>
  %y1 = tosa.conv2d %t1, %wc, %bc, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<2x1x1x8xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
  return %y1 : tensor<1x4x4x2xf16>
}

// -----

// Channels 0 .. 23 of 32: not whole atoms and not up to the last channel
// (the last atom's padding would be the source's channels 24 .. 31).
// CHECK-LABEL: func.func @partial_atom
// CHECK:         tosa.slice
// REMARK: remark: stays on the host: a slice along channels runs as a view only of whole channel atoms of 16 channels or up to its source's last channel; it holds 24 of 32 from channel 0
func.func @partial_atom(%x: tensor<1x4x4x8xf16>) -> tensor<1x4x4x2xf16> {
  %wa = "tosa.const"() {values = dense<1.0> : tensor<32x1x1x8xf16>} : () -> tensor<32x1x1x8xf16>
  %ba = "tosa.const"() {values = dense<0.0> : tensor<32xf16>} : () -> tensor<32xf16>
  %wc = "tosa.const"() {values = dense<1.0> : tensor<2x1x1x24xf16>} : () -> tensor<2x1x1x24xf16>
  %bc = "tosa.const"() {values = dense<0.0> : tensor<2xf16>} : () -> tensor<2xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<32x1x1x8xf16>, tensor<32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x32xf16>
  %an = tosa.transpose %a {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x32xf16>) -> tensor<1x32x4x4xf16>
  %size = tosa.const_shape {values = dense<[1, 24, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s0 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h = tosa.slice %an, %s0, %size : (tensor<1x32x4x4xf16>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x24x4x4xf16>
  %t = tosa.transpose %h {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x24x4x4xf16>) -> tensor<1x4x4x24xf16>
  %y = tosa.conv2d %t, %wc, %bc, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x24xf16>, tensor<2x1x1x24xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
  return %y : tensor<1x4x4x2xf16>
}
