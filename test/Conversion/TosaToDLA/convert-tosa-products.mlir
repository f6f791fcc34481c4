// RUN: dla-opt %s --dla-convert-tosa -split-input-file -verify-diagnostics | FileCheck %s
// Products of tensors computed at run time run on the SDP's X multiplier
// with a memory operand (float stage form, docs/IntegerAttributes.md 4.7).

// Two feature maps of one shape (hard-swish's x * hard-sigmoid(x)): the
// multiplier reads the other map per element.
// CHECK-LABEL: func.func @per_element
// CHECK-DAG:     %[[XT:.*]] = tosa.transpose %arg0
// CHECK-DAG:     %[[YT:.*]] = tosa.transpose %arg1
// CHECK-DAG:     %[[X:.*]] = tosa.cast %[[XT]] : (tensor<1x3x2x4xf32>) -> tensor<1x3x2x4xf16>
// CHECK-DAG:     %[[Y:.*]] = tosa.cast %[[YT]] : (tensor<1x3x2x4xf32>) -> tensor<1x3x2x4xf16>
// CHECK:         dla.sdp offline %[[X]] eltwise %[[Y]] : tensor<1x3x2x4xf16> bs <mul_operand = eltwise> : tensor<1x3x2x4xf16> -> tensor<1x3x2x4xf16>
// CHECK-NOT:     tosa.mul
func.func @per_element(%x: tensor<1x2x4x3xf32>, %y: tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %x, %y, %shift : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>, tensor<1xi8>) -> tensor<1x2x4x3xf32>
  return %0 : tensor<1x2x4x3xf32>
}

// -----

// A per-channel tensor computed at run time (squeeze-excitation's scale),
// either operand order: the multiplier reads it per channel as the PReLU
// operand, a plain multiply, in the 1x3x1x1 NCHW form a layer writes (the
// argument's transpose moves unit dimensions only: a reshape).
// CHECK-LABEL: func.func @per_channel
// CHECK:         %[[S:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<1x1x1x3xf32>, !tosa.shape<4>) -> tensor<1x3x1x1xf32>
// CHECK:         %[[SH:.*]] = tosa.cast %[[S]] : (tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf16>
// CHECK:         dla.sdp offline %{{.*}} prelu %[[SH]] : tensor<1x3x1x1xf16> bs <mul_operand = prelu> : tensor<1x3x2x4xf16> -> tensor<1x3x2x4xf16>
// CHECK-NOT:     tosa.mul
func.func @per_channel(%x: tensor<1x2x4x3xf32>, %s: tensor<1x1x1x3xf32>) -> tensor<1x2x4x3xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %s, %x, %shift : (tensor<1x1x1x3xf32>, tensor<1x2x4x3xf32>, tensor<1xi8>) -> tensor<1x2x4x3xf32>
  return %0 : tensor<1x2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @per_image
func.func @per_image(%x: tensor<2x2x4x3xf32>, %s: tensor<2x1x1x3xf32>) -> tensor<2x2x4x3xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: its per-channel multiplier differs between the images of the batch (the SDP reads one value per channel for the whole batch)}}
  %0 = tosa.mul %x, %s, %shift : (tensor<2x2x4x3xf32>, tensor<2x1x1x3xf32>, tensor<1xi8>) -> tensor<2x2x4x3xf32>
  return %0 : tensor<2x2x4x3xf32>
}

// -----

func.func @per_row(%x: tensor<1x2x4x3xf32>, %s: tensor<1x2x1x1xf32>) -> tensor<1x2x4x3xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-remark @+1 {{stays on the host: it multiplies a feature map by neither a per-channel constant, a per-channel tensor nor a feature map of its shape}}
  %0 = tosa.mul %x, %s, %shift : (tensor<1x2x4x3xf32>, tensor<1x2x1x1xf32>, tensor<1xi8>) -> tensor<1x2x4x3xf32>
  return %0 : tensor<1x2x4x3xf32>
}
