// RUN: dla-opt %s --dla-encodings-to-memref=skip-bufferize=true | FileCheck %s
// Channel views on storage move bytes batch by batch. Two batches of
// 16 int8 channels of 2x2 on nv_small: lines of 2 x 8 bytes, surfaces of
// 32 bytes, 2 surfaces a batch (64 bytes). Channels 8..15 are the second
// surface of each batch: bytes 32..63 and 96..127 of the parent, at 0 and
// 64 in the view (its batch stride is the parent's); the view's own
// storage is 2 x 64 bytes, so one copy of it from byte 32 on would run
// past the parent's 128.

#P = #dla.feature<int8, config = nv_small>
#V = #dla.feature<int8, line_stride = 16, surface_stride = 32, batch_stride = 64, config = nv_small>

// CHECK-LABEL: func.func @slice
// CHECK-SAME:    (%[[X:.*]]: tensor<128xi8>) -> tensor<128xi8>
// CHECK:         %[[Z:.*]] = arith.constant dense<0> : tensor<128xi8>
// CHECK:         %[[B0:.*]] = tensor.extract_slice %[[X]][32] [32] [1] : tensor<128xi8> to tensor<32xi8>
// CHECK:         %[[V0:.*]] = tensor.insert_slice %[[B0]] into %[[Z]][0] [32] [1]
// CHECK:         %[[B1:.*]] = tensor.extract_slice %[[X]][96] [32] [1]
// CHECK:         %[[V1:.*]] = tensor.insert_slice %[[B1]] into %[[V0]][64] [32] [1]
// CHECK:         return %[[V1]]
func.func @slice(%x: tensor<2x16x2x2xi8, #P>) -> tensor<2x8x2x2xi8, #V> {
  %v = dla.channel_slice %x [8] : tensor<2x16x2x2xi8, #P> -> tensor<2x8x2x2xi8, #V>
  return %v : tensor<2x8x2x2xi8, #V>
}

// Joined: the first input's surface at 0 and 64, the second's at 32 and
// 96, each from its own batches at 0 and 64.
// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[A:.*]]: tensor<128xi8>, %[[B:.*]]: tensor<128xi8>) -> tensor<128xi8>
// CHECK:         %[[Z:.*]] = arith.constant dense<0> : tensor<128xi8>
// CHECK:         tensor.extract_slice %[[A]][0] [32] [1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0] [32] [1]
// CHECK:         tensor.extract_slice %[[A]][64] [32] [1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[64] [32] [1]
// CHECK:         tensor.extract_slice %[[B]][0] [32] [1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[32] [32] [1]
// CHECK:         tensor.extract_slice %[[B]][64] [32] [1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[96] [32] [1]
func.func @concat(%a: tensor<2x8x2x2xi8, #V>, %b: tensor<2x8x2x2xi8, #V>) -> tensor<2x16x2x2xi8, #P> {
  %y = dla.channel_concat %a, %b : tensor<2x8x2x2xi8, #V>, tensor<2x8x2x2xi8, #V> -> tensor<2x16x2x2xi8, #P>
  return %y : tensor<2x16x2x2xi8, #P>
}
