// RUN: dla-opt %s --dla-assign-layouts 2>/dev/null | FileCheck %s --enable-var-scope

// A chain: feature data between the layers, relayouts only at the boundary.
// CHECK: module attributes {dla.target = #dla.target<nvdla, nv_full>}
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x4x4xi8>, %[[B:.*]]: tensor<16xi8>) -> tensor<1x16x2x2xi8>
// CHECK-NEXT: %[[XF:.*]] = dla.relayout %[[X]] : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[BB:.*]] = dla.relayout %[[B]] : tensor<16xi8> -> tensor<16xi8, #dla.bias<per_channel, int8>>
// CHECK-NEXT: %[[CST:.*]] = arith.constant
// CHECK-NEXT: %[[W:.*]] = dla.relayout %[[CST]] : tensor<16x16x3x3xi8> -> tensor<16x16x3x3xi8, #dla.weight<direct, int8>>
// CHECK-NEXT: %[[C:.*]] = dla.conv direct %[[XF]], %[[W]] pad [1, 1, 1, 1] : tensor<1x16x4x4xi8, #dla.feature<int8>>, tensor<16x16x3x3xi8, #dla.weight<direct, int8>> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[S:.*]] = dla.sdp offline %[[C]] bias %[[BB]] : tensor<16xi8, #dla.bias<per_channel, int8>> relu : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[P:.*]] = dla.pool max %[[S]] kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[R:.*]] = dla.relayout %[[P]] : tensor<1x16x2x2xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8>
// CHECK-NEXT: return %[[R]]
func.func @chain(%x: tensor<1x16x4x4xi8>, %b: tensor<16xi8>) -> tensor<1x16x2x2xi8> {
  %w = arith.constant dense<1> : tensor<16x16x3x3xi8>
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x4x4xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x4x4xi8>
  %s = dla.sdp offline %c bias %b : tensor<16xi8> relu : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  %p = dla.pool max %s kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8> -> tensor<1x16x2x2xi8>
  return %p : tensor<1x16x2x2xi8>
}


// A residual add: the argument is relayouted once and read by the
// convolution (feature data) and by the SDP as its element-wise operand
// (#dla.eltwise accepts feature data: the atoms are the same bytes).
// CHECK-LABEL: func.func @residual
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x4x4xf16>)
// CHECK-NEXT: %[[XF:.*]] = dla.relayout %[[X]] : tensor<1x16x4x4xf16> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
// CHECK: %[[W:.*]] = dla.relayout %{{.*}} : tensor<16x16x1x1xf16> -> tensor<16x16x1x1xf16, #dla.weight<direct, fp16>>
// CHECK-NEXT: %[[C:.*]] = dla.conv direct %[[XF]], %[[W]] : {{.*}} -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
// CHECK-NEXT: %[[S:.*]] = dla.sdp offline %[[C]] eltwise %[[XF]] : tensor<1x16x4x4xf16, #dla.feature<fp16>> relu : tensor<1x16x4x4xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
// CHECK-NEXT: %[[R:.*]] = dla.relayout %[[S]] : tensor<1x16x4x4xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: dla.relayout
func.func @residual(%x: tensor<1x16x4x4xf16>) -> tensor<1x16x4x4xf16> {
  %w = arith.constant dense<1.0> : tensor<16x16x1x1xf16>
  %c = dla.conv direct %x, %w : tensor<1x16x4x4xf16>, tensor<16x16x1x1xf16> -> tensor<1x16x4x4xf16>
  %s = dla.sdp offline %c eltwise %x : tensor<1x16x4x4xf16> relu : tensor<1x16x4x4xf16> -> tensor<1x16x4x4xf16>
  return %s : tensor<1x16x4x4xf16>
}

// A value read by two different layers and returned: the layers share the
// feature data; the function result gets its row-major copy.
// CHECK-LABEL: func.func @two_readers
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x4x4xi8>)
// CHECK-NEXT: %[[XF:.*]] = dla.relayout %[[X]] : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[L:.*]] = dla.lrn %[[XF]] size 3 : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[LR:.*]] = dla.relayout %[[L]] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x4x4xi8>
// CHECK-NEXT: %[[P:.*]] = dla.pool max %[[L]] kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[PR:.*]] = dla.relayout %[[P]] : tensor<1x16x2x2xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8>
// CHECK-NEXT: %[[A:.*]] = dla.pool average %[[L]] kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[AR:.*]] = dla.relayout %[[A]] : tensor<1x16x2x2xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8>
// CHECK-NEXT: return %[[LR]], %[[PR]], %[[AR]]
func.func @two_readers(%x: tensor<1x16x4x4xi8>) -> (tensor<1x16x4x4xi8>, tensor<1x16x2x2xi8>, tensor<1x16x2x2xi8>) {
  %l = dla.lrn %x size 3 : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  %p = dla.pool max %l kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8> -> tensor<1x16x2x2xi8>
  %a = dla.pool average %l kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8> -> tensor<1x16x2x2xi8>
  return %l, %p, %a : tensor<1x16x4x4xi8>, tensor<1x16x2x2xi8>, tensor<1x16x2x2xi8>
}

// Pins at the boundary: an argument already in (unpacked) feature data is
// read in place -- readers accept any strides, so they share the buffer --
// and a result declared in feature data with strides is written directly.
// CHECK-LABEL: func.func @pinned_boundary
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x4x4xi8, #dla.feature<int8, line_stride = 256, surface_stride = 2048>>)
// CHECK-NEXT: %[[L:.*]] = dla.lrn %[[X]] size 3 : tensor<1x16x4x4xi8, #dla.feature<int8, line_stride = 256, surface_stride = 2048>> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[P:.*]] = dla.pool max %[[L]] kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8, #dla.feature<int8, line_stride = 128>>
// CHECK-NEXT: return %[[P]]
func.func @pinned_boundary(%x: tensor<1x16x4x4xi8, #dla.feature<int8, line_stride = 256, surface_stride = 2048>>) -> tensor<1x16x2x2xi8, #dla.feature<int8, line_stride = 128>> {
  %l = dla.lrn %x size 3 : tensor<1x16x4x4xi8, #dla.feature<int8, line_stride = 256, surface_stride = 2048>> -> tensor<1x16x4x4xi8>
  %p = dla.pool max %l kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8> -> tensor<1x16x2x2xi8, #dla.feature<int8, line_stride = 128>>
  return %p : tensor<1x16x2x2xi8, #dla.feature<int8, line_stride = 128>>
}

// A conflict gets a relayout: one value read as feature data by a pool and
// as weights by a convolution (dynamic weights; NCHW and KCRS put every
// role at the same position, so no transpose is needed).
// CHECK-LABEL: func.func @feature_and_weight
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x4x4xi8>, %[[Y:.*]]: tensor<1x16x4x4xi8>)
// CHECK-NEXT: %[[XF:.*]] = dla.relayout %[[X]] : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[YF:.*]] = dla.relayout %[[Y]] : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[L:.*]] = dla.lrn %[[XF]] size 3 : {{.*}} -> tensor<1x16x4x4xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[LW:.*]] = dla.relayout %[[L]] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x4x4xi8, #dla.weight<direct, int8>>
// CHECK-NEXT: %[[P:.*]] = dla.pool max %[[L]] kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[PR:.*]] = dla.relayout %[[P]]
// CHECK-NEXT: %[[C:.*]] = dla.conv direct %[[YF]], %[[LW]] : tensor<1x16x4x4xi8, #dla.feature<int8>>, tensor<1x16x4x4xi8, #dla.weight<direct, int8>> -> tensor<1x1x1x1xi8, #dla.feature<int8>>
// CHECK-NEXT: %[[CR:.*]] = dla.relayout %[[C]]
// CHECK-NEXT: return %[[PR]], %[[CR]]
func.func @feature_and_weight(%x: tensor<1x16x4x4xi8>, %y: tensor<1x16x4x4xi8>) -> (tensor<1x16x2x2xi8>, tensor<1x1x1x1xi8>) {
  %l = dla.lrn %x size 3 : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  %p = dla.pool max %l kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8> -> tensor<1x16x2x2xi8>
  %c = dla.conv direct %y, %l : tensor<1x16x4x4xi8>, tensor<1x16x4x4xi8> -> tensor<1x1x1x1xi8>
  return %p, %c : tensor<1x16x2x2xi8>, tensor<1x1x1x1xi8>
}
