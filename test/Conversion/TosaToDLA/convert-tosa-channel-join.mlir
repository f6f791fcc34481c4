// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" | FileCheck %s --enable-var-scope
// A tosa.concat along channels (NHWC axis 3) of two convolutions' results
// is a dla.channel_concat: the convolutions write into the joined tensor.
// fp16 on nv_full has 16 channels an atom (32 bytes): 16 channels then 5
// join in place; 8 then 5 do not (the first ends inside an atom), nor does
// a join with a host value.

// CHECK-LABEL: func.func @join
// CHECK:         %[[A:.*]] = dla.conv direct {{.*}} -> tensor<1x16x4x4xf16>
// CHECK:         %[[B:.*]] = dla.conv direct {{.*}} -> tensor<1x5x4x4xf16>
// CHECK:         %[[J:.*]] = dla.channel_concat %[[A]], %[[B]] : tensor<1x16x4x4xf16>, tensor<1x5x4x4xf16> -> tensor<1x21x4x4xf16>
// CHECK:         tosa.transpose %[[J]]
// CHECK-NOT:     tosa.concat
func.func @join(%x: tensor<1x4x4x8xf16>) -> tensor<1x4x4x21xf16> {
  %wa = "tosa.const"() {values = dense<1.0> : tensor<16x1x1x8xf16>} : () -> tensor<16x1x1x8xf16>
  %ba = "tosa.const"() {values = dense<0.0> : tensor<16xf16>} : () -> tensor<16xf16>
  %wb = "tosa.const"() {values = dense<1.0> : tensor<5x1x1x8xf16>} : () -> tensor<5x1x1x8xf16>
  %bb = "tosa.const"() {values = dense<0.0> : tensor<5xf16>} : () -> tensor<5xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<16x1x1x8xf16>, tensor<16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x16xf16>
  %b = tosa.conv2d %x, %wb, %bb, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<5x1x1x8xf16>, tensor<5xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x5xf16>
  %y = tosa.concat %a, %b {axis = 3 : i32} : (tensor<1x4x4x16xf16>, tensor<1x4x4x5xf16>) -> tensor<1x4x4x21xf16>
  return %y : tensor<1x4x4x21xf16>
}

// CHECK-LABEL: func.func @inside_atom
// CHECK-NOT:     dla.channel_concat
// CHECK:         tosa.concat
func.func @inside_atom(%x: tensor<1x4x4x8xf16>) -> tensor<1x4x4x13xf16> {
  %wa = "tosa.const"() {values = dense<1.0> : tensor<8x1x1x8xf16>} : () -> tensor<8x1x1x8xf16>
  %ba = "tosa.const"() {values = dense<0.0> : tensor<8xf16>} : () -> tensor<8xf16>
  %wb = "tosa.const"() {values = dense<1.0> : tensor<5x1x1x8xf16>} : () -> tensor<5x1x1x8xf16>
  %bb = "tosa.const"() {values = dense<0.0> : tensor<5xf16>} : () -> tensor<5xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<8x1x1x8xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
  %b = tosa.conv2d %x, %wb, %bb, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<5x1x1x8xf16>, tensor<5xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x5xf16>
  %y = tosa.concat %a, %b {axis = 3 : i32} : (tensor<1x4x4x8xf16>, tensor<1x4x4x5xf16>) -> tensor<1x4x4x13xf16>
  return %y : tensor<1x4x4x13xf16>
}

// CHECK-LABEL: func.func @host_input
// CHECK-NOT:     dla.channel_concat
// CHECK:         tosa.concat
func.func @host_input(%x: tensor<1x4x4x8xf16>, %h: tensor<1x4x4x5xf16>) -> tensor<1x4x4x21xf16> {
  %wa = "tosa.const"() {values = dense<1.0> : tensor<16x1x1x8xf16>} : () -> tensor<16x1x1x8xf16>
  %ba = "tosa.const"() {values = dense<0.0> : tensor<16xf16>} : () -> tensor<16xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<16x1x1x8xf16>, tensor<16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x16xf16>
  %y = tosa.concat %a, %h {axis = 3 : i32} : (tensor<1x4x4x16xf16>, tensor<1x4x4x5xf16>) -> tensor<1x4x4x21xf16>
  return %y : tensor<1x4x4x21xf16>
}
