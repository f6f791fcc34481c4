// RUN: dla-opt %s --dla-assign-layouts=target=nv_small -split-input-file -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t
// Layout assignment and dla.as_weights (issue 45, attention's q k^T): the
// view reads its source in the weight stream's encoding, which the format
// library gives (NvdlaWeightStream.h: 16 int8 channels over 5 x 8 on
// nv_small, surfaces interleaved line by line, surface stride one line of
// 8 atoms = 64 bytes, line stride both surfaces' lines = 128 bytes), and
// gives direct weights; the convolution reads them as they are.

// The layer that computes k writes it in the stream's encoding: no copy.
// CHECK-LABEL: func.func @layer_writes_stream
// CHECK:         %[[K:.*]] = dla.sdp offline {{.*}} -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK:         %[[W:.*]] = dla.as_weights %[[K]] : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
// CHECK:         dla.conv direct %{{.*}}, %[[W]] :
func.func @layer_writes_stream(%q: tensor<1x16x5x8xi8>, %kin: tensor<1x16x5x8xi8>) -> tensor<1x40x5x8xi8> {
  %k = dla.sdp offline %kin bs <alu = sum, alu_operand = 3> : tensor<1x16x5x8xi8> -> tensor<1x16x5x8xi8>
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y = dla.conv direct %q, %w : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y : tensor<1x40x5x8xi8>
}

// -----

// k also returned: the return's relayout reads it through its strides.
// CHECK-LABEL: func.func @also_returned
// CHECK:         %[[K:.*]] = dla.sdp offline {{.*}} -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK:         %[[R:.*]] = dla.relayout %[[K]] : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> -> tensor<1x16x5x8xi8>
// CHECK:         dla.as_weights %[[K]]
// CHECK:         return %{{.*}}, %[[R]]
func.func @also_returned(%q: tensor<1x16x5x8xi8>, %kin: tensor<1x16x5x8xi8>) -> (tensor<1x40x5x8xi8>, tensor<1x16x5x8xi8>) {
  %k = dla.sdp offline %kin bs <alu = sum, alu_operand = 3> : tensor<1x16x5x8xi8> -> tensor<1x16x5x8xi8>
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y = dla.conv direct %q, %w : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y, %k : tensor<1x40x5x8xi8>, tensor<1x16x5x8xi8>
}

// -----

// A function argument: its relayout writes the stream.
// CHECK-LABEL: func.func @argument
// CHECK:         %[[K:.*]] = dla.relayout %{{.*}} : tensor<1x16x5x8xi8> -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK:         dla.as_weights %[[K]]
func.func @argument(%q: tensor<1x16x5x8xi8>, %k: tensor<1x16x5x8xi8>) -> tensor<1x40x5x8xi8> {
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y = dla.conv direct %q, %w : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y : tensor<1x40x5x8xi8>
}

// -----

// A channel view has its parent's strides: copied into the stream, said
// by a remark (the view's 1280 bytes read, 640 written). (A view of an
// offline SDP with register operands alone is the SDP's own copy instead:
// assign-layouts-weight-stream-layers.mlir.)
// REMARK: remark: relayout costs 1920 bytes: the source of 'dla.as_weights' is no layer's result that only layers read besides, so it is copied into the weight stream's interleaved surfaces
// CHECK-LABEL: func.func @slice
// CHECK:         %[[V:.*]] = dla.channel_slice
// CHECK:         %[[K:.*]] = dla.relayout %[[V]] : {{.*}} -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK:         dla.as_weights %[[K]]
func.func @slice(%q: tensor<1x16x5x8xi8>, %kv: tensor<1x32x5x8xi8>) -> tensor<1x40x5x8xi8> {
  %k = dla.channel_slice %kv [16] : tensor<1x32x5x8xi8> -> tensor<1x16x5x8xi8>
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y = dla.conv direct %q, %w : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y : tensor<1x40x5x8xi8>
}
