// RUN: dla-opt %s --dla-split-convolutions='bank-entries=8' -split-input-file -verify-diagnostics | FileCheck %s

// nv_full with banks of 8 entries (16 KB in all, as tests shrink the
// buffer): 64 fp16 channels (4 atoms of 16) by 16 kernels of 3x3 take 18
// banks, one kernel group; not even one output column fits beside them.
// 3 atoms take 14 banks beside 2 of data, so 2 parts of 2 atoms: 32
// channels each (NvdlaConvBufferTest.cpp works the numbers on the whole
// buffer). The first part takes the bias; the relu's SDP adds the first
// part's result to the second's sums.
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
// CHECK-LABEL: func.func @folded
// CHECK-SAME: (%[[X:.*]]: tensor<1x64x3x3xf16>, %[[B:.*]]: tensor<16xf16>)
// CHECK-NOT: tensor<16x64x3x3xf16>
// CHECK-DAG: %[[S0:.*]] = dla.channel_slice %[[X]][0] : tensor<1x64x3x3xf16> -> tensor<1x32x3x3xf16>
// CHECK-DAG: %[[W0:.*]] = arith.constant dense<1.000000e+00> : tensor<16x32x3x3xf16>
// CHECK: %[[P0:.*]] = dla.conv direct %[[S0]], %[[W0]], %[[B]] pad [1, 1, 1, 1] : tensor<1x32x3x3xf16>, tensor<16x32x3x3xf16>, tensor<16xf16> -> tensor<1x16x3x3xf16>
// CHECK-DAG: %[[S1:.*]] = dla.channel_slice %[[X]][32] : tensor<1x64x3x3xf16> -> tensor<1x32x3x3xf16>
// CHECK-DAG: %[[W1:.*]] = arith.constant dense<1.000000e+00> : tensor<16x32x3x3xf16>
// CHECK: %[[P1:.*]] = dla.conv direct %[[S1]], %[[W1]] pad [1, 1, 1, 1] : tensor<1x32x3x3xf16>, tensor<16x32x3x3xf16> -> tensor<1x16x3x3xf16>
// CHECK-NEXT: %[[Y:.*]] = dla.sdp on_the_fly %[[P1]] eltwise %[[P0]] : tensor<1x16x3x3xf16> relu : tensor<1x16x3x3xf16> -> tensor<1x16x3x3xf16>
// CHECK-NEXT: return %[[Y]]
func.func @folded(%x: tensor<1x64x3x3xf16>, %b: tensor<16xf16>) -> tensor<1x16x3x3xf16> {
  %w = arith.constant dense<1.0> : tensor<16x64x3x3xf16>
  // expected-remark @+1 {{runs as 2 convolutions of at most 32 of its 64 input channels (not even one output column's window fits beside one kernel group): each part's SDP adds the previous part's result, read from memory; its sums are rounded to fp16 1 time more than uncut}}
  %c = dla.conv direct %x, %w, %b pad [1, 1, 1, 1] : tensor<1x64x3x3xf16>, tensor<16x64x3x3xf16>, tensor<16xf16> -> tensor<1x16x3x3xf16>
  %y = dla.sdp on_the_fly %c relu : tensor<1x16x3x3xf16> -> tensor<1x16x3x3xf16>
  return %y : tensor<1x16x3x3xf16>
}
}

// -----

// The SDP after it has an element-wise operand of its own: the parts' sum
// is written (an SDP adding the second part's sums to the first's) and
// that SDP reads it from memory.
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
// CHECK-LABEL: func.func @offline
// CHECK: %[[P0:.*]] = dla.conv direct %{{.*}}, %{{.*}} pad [1, 1, 1, 1] : tensor<1x32x3x3xf16>, tensor<16x32x3x3xf16> -> tensor<1x16x3x3xf16>
// CHECK: %[[P1:.*]] = dla.conv direct %{{.*}}, %{{.*}} pad [1, 1, 1, 1] : tensor<1x32x3x3xf16>, tensor<16x32x3x3xf16> -> tensor<1x16x3x3xf16>
// CHECK-NEXT: %[[SUM:.*]] = dla.sdp on_the_fly %[[P1]] eltwise %[[P0]] : tensor<1x16x3x3xf16> : tensor<1x16x3x3xf16> -> tensor<1x16x3x3xf16>
// CHECK-NEXT: %[[Y:.*]] = dla.sdp offline %[[SUM]] eltwise %arg1
// CHECK-NEXT: return %[[Y]]
func.func @offline(%x: tensor<1x64x3x3xf16>, %e: tensor<1x16x3x3xf16>) -> tensor<1x16x3x3xf16> {
  %w = arith.constant dense<2.0> : tensor<16x64x3x3xf16>
  // expected-remark @+1 {{runs as 2 convolutions of at most 32 of its 64 input channels (not even one output column's window fits beside one kernel group): each part's SDP adds the previous part's result, read from memory, and the SDP after it reads the whole sum from memory (offline); its sums are rounded to fp16 2 times more than uncut}}
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x64x3x3xf16>, tensor<16x64x3x3xf16> -> tensor<1x16x3x3xf16>
  %y = dla.sdp on_the_fly %c eltwise %e : tensor<1x16x3x3xf16> relu : tensor<1x16x3x3xf16> -> tensor<1x16x3x3xf16>
  return %y : tensor<1x16x3x3xf16>
}
}

// -----

// Weights computed at run time are not cut.
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @runtime_weights(%x: tensor<1x64x3x3xf16>, %w: tensor<16x64x3x3xf16>) -> tensor<1x16x3x3xf16> {
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_full unless its input channels are cut, which needs constant weights (these are computed at run time)}}
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x64x3x3xf16>, tensor<16x64x3x3xf16> -> tensor<1x16x3x3xf16>
  return %c : tensor<1x16x3x3xf16>
}
}

// -----

// One atom of 16 channels by 16 kernels of 7x7 takes 25 of the shrunken
// buffer's 16 banks: not cut.
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @one_atom_too_deep(%x: tensor<1x64x8x8xf16>) -> tensor<1x16x8x8xf16> {
  %w = arith.constant dense<1.0> : tensor<16x64x7x7xf16>
  // expected-error @+1 {{nor does one atom of its input channels (16 channels) beside its kernels' share of the weights}}
  %c = dla.conv direct %x, %w pad [3, 3, 3, 3] : tensor<1x64x8x8xf16>, tensor<16x64x7x7xf16> -> tensor<1x16x8x8xf16>
  return %c : tensor<1x16x8x8xf16>
}
}

// -----

// After layout assignment the cut is not made: its views and parts would
// need encodings of their own.
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
func.func @encoded(%x: tensor<1x64x3x3xf16, #dla.feature<fp16>>) -> tensor<1x16x3x3xf16, #dla.feature<fp16>> {
  %w = arith.constant dense<1.0> : tensor<16x64x3x3xf16>
  // expected-error @+1 {{'dla.conv' op does not fit NVDLA nv_full unless its input channels are cut, which is done before layout assignment (its tensors have encodings)}}
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x64x3x3xf16, #dla.feature<fp16>>, tensor<16x64x3x3xf16> -> tensor<1x16x3x3xf16, #dla.feature<fp16>>
  return %c : tensor<1x16x3x3xf16, #dla.feature<fp16>>
}
}
