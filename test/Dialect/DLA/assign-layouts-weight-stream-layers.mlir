// RUN: dla-opt %s --dla-assign-layouts=target=nv_small -split-input-file -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t
// Layout assignment splits an offline SDP with register operands only
// whose result only views read as weights (WeightStreamLayers.cpp; issue
// 45, the attention's q_h and v_h, docs/WholeNetworks.md): the layer runs
// once per view, on the same views of its input, so each dla.as_weights
// reads a whole layer result, which writes the weight stream's
// interleaved surfaces (line stride 16 channels x 8 = 128 bytes, surface
// stride 64) and no relayout copies it.

// The recognizer's form: a part [1, 32, 1, 40] of a map (a channel view of
// it), requantized once, its heads of 16 channels read as [1, 16, 5, 8]
// weights. After: two SDPs, each reading its head's channels of the map
// (the views composed: channels 16 and 32 of the map, 320-byte surfaces,
// 8-atom lines) and writing the stream.
// CHECK-LABEL: func.func @heads
// CHECK:         %[[X:.*]] = dla.relayout %arg0
// CHECK-NOT:     dla.sdp
// CHECK:         %[[S0:.*]] = dla.channel_slice %[[X]][16] : {{.*}} -> tensor<1x16x1x40xi8, #dla.feature<int8, line_stride = 320, surface_stride = 320, batch_stride = 1920, config = nv_small>>
// CHECK-NEXT:    %[[M0:.*]] = dla.reshape_view %[[S0]] : {{.*}} -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 64, surface_stride = 320, batch_stride = 1920, config = nv_small>>
// CHECK-NEXT:    %[[Q0:.*]] = dla.sdp offline %[[M0]] bs <alu = sum, alu_operand = -8, mul_operand = 30494, mul_shift = 2> out_cvt <offset = 0, scale = 1, shift = 12> : {{.*}} -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK-NEXT:    %[[W0:.*]] = dla.as_weights %[[Q0]]
// CHECK-NEXT:    dla.conv direct %{{.*}}, %[[W0]]
// CHECK:         %[[S1:.*]] = dla.channel_slice %[[X]][32]
// CHECK-NEXT:    %[[M1:.*]] = dla.reshape_view %[[S1]]
// CHECK-NEXT:    %[[Q1:.*]] = dla.sdp offline %[[M1]] {{.*}} -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK-NEXT:    %[[W1:.*]] = dla.as_weights %[[Q1]]
// CHECK-NEXT:    dla.conv direct %{{.*}}, %[[W1]]
// CHECK-NOT:     dla.sdp
// CHECK-NOT:     tensor<1x32x1x40xi8
// REMARK-NOT: the source of 'dla.as_weights' is no layer's result
// REMARK: remark: layouts assigned to 10 ops: 4 run-time relayouts of 11520 bytes
func.func @heads(%x: tensor<1x48x1x40xi8>, %k: tensor<1x16x5x8xi8>) -> (tensor<1x40x5x8xi8>, tensor<1x40x5x8xi8>) {
  %part = dla.channel_slice %x [16] : tensor<1x48x1x40xi8> -> tensor<1x32x1x40xi8>
  %q = dla.sdp offline %part bs <alu = sum, alu_operand = -8, mul_operand = 30494, mul_shift = 2> out_cvt <offset = 0, scale = 1, shift = 12> : tensor<1x32x1x40xi8> -> tensor<1x32x1x40xi8>
  %q0 = dla.channel_slice %q [0] : tensor<1x32x1x40xi8> -> tensor<1x16x1x40xi8>
  %q1 = dla.channel_slice %q [16] : tensor<1x32x1x40xi8> -> tensor<1x16x1x40xi8>
  %m0 = dla.reshape_view %q0 : tensor<1x16x1x40xi8> -> tensor<1x16x5x8xi8>
  %w0 = dla.as_weights %m0 : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y0 = dla.conv direct %k, %w0 : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  %m1 = dla.reshape_view %q1 : tensor<1x16x1x40xi8> -> tensor<1x16x5x8xi8>
  %w1 = dla.as_weights %m1 : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y1 = dla.conv direct %k, %w1 : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y0, %y1 : tensor<1x40x5x8xi8>, tensor<1x40x5x8xi8>
}

// -----

// The part also read as a map (k_h: s^T's convolution reads it as its
// input): the layer stays whole, its view read as weights is copied.
// REMARK: remark: relayout costs 1920 bytes: the source of 'dla.as_weights' is no layer's result that only layers read besides, so it is copied into the weight stream's interleaved surfaces
// CHECK-LABEL: func.func @also_a_map
// CHECK:         %[[P:.*]] = dla.sdp offline {{.*}} -> tensor<1x32x1x40xi8, #dla.feature<int8, config = nv_small>>
// CHECK:         %[[S:.*]] = dla.channel_slice %[[P]][16]
// CHECK-NEXT:    %[[M:.*]] = dla.reshape_view %[[S]]
// CHECK-NEXT:    %[[R:.*]] = dla.relayout %[[M]] : {{.*}} -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
// CHECK-NEXT:    dla.as_weights %[[R]]
// CHECK-NOT:     dla.sdp
func.func @also_a_map(%x: tensor<1x32x1x40xi8>) -> tensor<1x40x5x8xi8> {
  %p = dla.sdp offline %x bs <alu = sum, alu_operand = 3> : tensor<1x32x1x40xi8> -> tensor<1x32x1x40xi8>
  %k0 = dla.channel_slice %p [0] : tensor<1x32x1x40xi8> -> tensor<1x16x1x40xi8>
  %km = dla.reshape_view %k0 : tensor<1x16x1x40xi8> -> tensor<1x16x5x8xi8>
  %q0 = dla.channel_slice %p [16] : tensor<1x32x1x40xi8> -> tensor<1x16x1x40xi8>
  %qm = dla.reshape_view %q0 : tensor<1x16x1x40xi8> -> tensor<1x16x5x8xi8>
  %w = dla.as_weights %qm : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y = dla.conv direct %km, %w : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y : tensor<1x40x5x8xi8>
}

// -----

// An SDP reading a memory operand (here an element-wise one) is not
// split (its operand would need the same views): copied.
// REMARK: remark: relayout costs 1920 bytes: the source of 'dla.as_weights' is no layer's result that only layers read besides, so it is copied into the weight stream's interleaved surfaces
// CHECK-LABEL: func.func @memory_operand
// CHECK:         %[[P:.*]] = dla.sdp offline %{{.*}} eltwise {{.*}} -> tensor<1x32x5x8xi8, #dla.feature<int8, config = nv_small>>
// CHECK:         %[[S:.*]] = dla.channel_slice %[[P]][16]
// CHECK-NEXT:    %[[R:.*]] = dla.relayout %[[S]]
// CHECK-NEXT:    dla.as_weights %[[R]]
func.func @memory_operand(%q: tensor<1x16x5x8xi8>, %a: tensor<1x32x5x8xi8>, %b: tensor<1x32x5x8xi8>) -> tensor<1x40x5x8xi8> {
  %p = dla.sdp offline %a eltwise %b : tensor<1x32x5x8xi8> bs <alu = sum, alu_operand = eltwise> : tensor<1x32x5x8xi8> -> tensor<1x32x5x8xi8>
  %k = dla.channel_slice %p [16] : tensor<1x32x5x8xi8> -> tensor<1x16x5x8xi8>
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y = dla.conv direct %q, %w : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y : tensor<1x40x5x8xi8>
}
