// RUN: dla-opt %s --dla-assign-layouts=target=nv_small -split-input-file -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t
// Layout assignment gives channel views their parent's strides. 16 int8
// channels of 4x4 on nv_small: lines of 4 x 8 bytes, surfaces of 128, 2
// surfaces a batch (256 bytes).

// A join's input that a layer reads too: the function argument's relayout
// writes it into its place in the joined tensor once, and the convolution
// reads it there (feature data through the joined strides): no copy.
// REMARK: remark: layouts assigned to 2 ops: 3 run-time relayouts
// CHECK-LABEL: func.func @argument_input
// CHECK:         %[[C:.*]] = dla.relayout %{{.*}} : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
// CHECK:         %[[CONV:.*]] = dla.conv direct %[[C]], {{.*}} -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
// CHECK:         dla.channel_concat %[[C]], %[[CONV]] : {{.*}} -> tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>>
func.func @argument_input(%a: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi8>) -> tensor<1x16x4x4xi8> {
  %c = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  %y = dla.channel_concat %a, %c : tensor<1x8x4x4xi8>, tensor<1x8x4x4xi8> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// -----

// A join of a join (a depthwise layer's slices joined, then joined beside a
// skip connection): the inner join becomes a view of the outer one with
// its parts, whose layers write straight into the outer tensor (24
// channels: 3 surfaces, batch stride 384). No copy.
// REMARK: remark: layouts assigned to 5 ops: 3 run-time relayouts
// CHECK-LABEL: func.func @nested
// CHECK:         %[[A:.*]] = dla.conv direct {{.*}} -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
// CHECK:         %[[B:.*]] = dla.conv direct {{.*}} -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
// CHECK:         %[[I:.*]] = dla.channel_concat %[[A]], %[[B]] : {{.*}} -> tensor<1x16x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
// CHECK:         %[[S:.*]] = dla.conv direct {{.*}} -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
// CHECK:         dla.channel_concat %[[I]], %[[S]] : {{.*}} -> tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>>
// CHECK-NOT:     dla.relayout {{.*}}#dla.feature{{.*}} -> {{.*}}#dla.feature
func.func @nested(%a: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi8>) -> tensor<1x24x4x4xi8> {
  %c0 = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  %c1 = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  %i = dla.channel_concat %c0, %c1 : tensor<1x8x4x4xi8>, tensor<1x8x4x4xi8> -> tensor<1x16x4x4xi8>
  %s = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  %y = dla.channel_concat %i, %s : tensor<1x16x4x4xi8>, tensor<1x8x4x4xi8> -> tensor<1x24x4x4xi8>
  return %y : tensor<1x24x4x4xi8>
}

// -----

// One layer's result in two joins: one join holds it in place (the
// second: when the first is assigned, the other reader is a join), the
// first copies it (a relayout between the two joins' strides), and says
// so: 128 bytes read (its surface in the other join), 256 written (the
// view's storage: a batch at the joined tensor's batch stride).
// REMARK: remark: relayout costs 384 bytes: input #0 of 'dla.channel_concat' is no layer's or join's result that only layers read besides, so it is copied into its place in the joined tensor
// CHECK-LABEL: func.func @two_joins
// CHECK:         %[[C:.*]] = dla.conv direct {{.*}} -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
// CHECK:         %[[V:.*]] = dla.relayout %[[C]] : tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>> -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
// CHECK:         dla.channel_concat %[[V]], %{{.*}} : {{.*}} -> tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>>
// CHECK:         dla.channel_concat %[[C]], %{{.*}} : {{.*}} -> tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>>
func.func @two_joins(%a: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi8>) -> (tensor<1x16x4x4xi8>, tensor<1x16x4x4xi8>) {
  %c = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  %d = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  %e = dla.conv direct %a, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  %y = dla.channel_concat %c, %d : tensor<1x8x4x4xi8>, tensor<1x8x4x4xi8> -> tensor<1x16x4x4xi8>
  %z = dla.channel_concat %c, %e : tensor<1x8x4x4xi8>, tensor<1x8x4x4xi8> -> tensor<1x16x4x4xi8>
  return %y, %z : tensor<1x16x4x4xi8>, tensor<1x16x4x4xi8>
}
