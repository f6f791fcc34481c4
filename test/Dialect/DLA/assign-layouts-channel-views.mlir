// RUN: dla-opt %s --dla-assign-layouts=target=nv_small -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t
// Layout assignment gives channel views their parent's strides. 16 int8
// channels of 4x4 on nv_small: lines of 4 x 8 bytes, surfaces of 128, 2
// surfaces a batch (256 bytes).

// A concatenation input that is the function's argument is no layer's
// result: it is copied into its place (a relayout to the joined strides),
// and said so: 128 bytes read (one packed surface), 256 written (the
// view's storage: a batch at the joined tensor's batch stride).
// REMARK: channel-views.mlir:{{[0-9]+}}:8: remark: relayout costs 384 bytes: input #0 of 'dla.channel_concat' is no layer's only result, so it is copied into its place in the joined tensor
// REMARK: remark: layouts assigned to 2 ops: 4 run-time relayouts of 1280 bytes
// CHECK-LABEL: func.func @argument_input
// CHECK:         %[[C:.*]] = dla.relayout %{{.*}} : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
// CHECK:         %[[CONV:.*]] = dla.conv direct %[[C]], {{.*}} -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
// CHECK:         %[[V:.*]] = dla.relayout %[[C]] : tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
// CHECK:         dla.channel_concat %[[V]], %[[CONV]] : {{.*}} -> tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>>
func.func @argument_input(%a: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi8>) -> tensor<1x16x4x4xi8> {
  %c = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  // The conv writes its result into the joined tensor: no copy.
  %y = dla.channel_concat %a, %c : tensor<1x8x4x4xi8>, tensor<1x8x4x4xi8> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}
