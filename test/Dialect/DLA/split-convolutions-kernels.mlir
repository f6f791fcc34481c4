// RUN: dla-opt %s --dla-split-convolutions -split-input-file -verify-diagnostics | FileCheck %s

// 9000 kernels, more than one layer writes (DATAOUT_CHANNEL, 8192): two
// parts of 4504 and 4496 (563 int8 atoms of 8 on nv_small, as even as
// they allow), each with its slice of the weights and bias, and its part
// of the SDP after it: the per-channel batch-norm pairs and the
// per-element operand (a run-time map: a channel view of it); the
// parts' results joined in place.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @wide
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x1x1xi8>, %[[E:.*]]: tensor<1x9000x1x1xi8>)
// CHECK-DAG: %[[W0:.*]] = arith.constant dense<1> : tensor<4504x2x1x1xi8>
// CHECK-DAG: %[[B0:.*]] = arith.constant dense<3> : tensor<4504xi8>
// CHECK: %[[C0:.*]] = dla.conv direct %[[X]], %[[W0]], %[[B0]] : tensor<1x2x1x1xi8>, tensor<4504x2x1x1xi8>, tensor<4504xi8> -> tensor<1x4504x1x1xi8>
// CHECK-DAG: %[[N0:.*]] = arith.constant dense<5> : tensor<4504x2xi16>
// CHECK-DAG: %[[E0:.*]] = dla.channel_slice %[[E]][0] : tensor<1x9000x1x1xi8> -> tensor<1x4504x1x1xi8>
// CHECK: %[[S0:.*]] = dla.sdp on_the_fly %[[C0]] batchnorm %[[N0]] : tensor<4504x2xi16> eltwise %[[E0]] : tensor<1x4504x1x1xi8>
// CHECK-SAME: -> tensor<1x4504x1x1xi8>
// CHECK: dla.conv direct %[[X]], %{{.*}}, %{{.*}} : tensor<1x2x1x1xi8>, tensor<4496x2x1x1xi8>, tensor<4496xi8> -> tensor<1x4496x1x1xi8>
// CHECK: dla.channel_slice %[[E]][4504] : tensor<1x9000x1x1xi8> -> tensor<1x4496x1x1xi8>
// CHECK: %[[S1:.*]] = dla.sdp on_the_fly
// CHECK-SAME: -> tensor<1x4496x1x1xi8>
// CHECK: %[[J:.*]] = dla.channel_concat %[[S0]], %[[S1]] : tensor<1x4504x1x1xi8>, tensor<1x4496x1x1xi8> -> tensor<1x9000x1x1xi8>
// CHECK: return %[[J]]
func.func @wide(%x: tensor<1x2x1x1xi8>, %e: tensor<1x9000x1x1xi8>) -> tensor<1x9000x1x1xi8> {
  %w = arith.constant dense<1> : tensor<9000x2x1x1xi8>
  %b = arith.constant dense<3> : tensor<9000xi8>
  %n = arith.constant dense<5> : tensor<9000x2xi16>
  // expected-remark @+1 {{runs as 2 convolutions of at most 4504 of its 9000 kernels (one layer writes at most 8192 channels: DATAOUT_CHANNEL), each with its part of the SDP after it, joined in place (a channel concatenation; exact)}}
  %c = dla.conv direct %x, %w, %b : tensor<1x2x1x1xi8>, tensor<9000x2x1x1xi8>, tensor<9000xi8> -> tensor<1x9000x1x1xi8>
  %y = dla.sdp on_the_fly %c batchnorm %n : tensor<9000x2xi16> eltwise %e : tensor<1x9000x1x1xi8> : tensor<1x9000x1x1xi8> -> tensor<1x9000x1x1xi8>
  return %y : tensor<1x9000x1x1xi8>
}
}

// -----

// Run-time weights (dla.as_weights) are not cut.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @runtime(%x: tensor<1x2x1x1xi8>, %w: tensor<9000x2x1x1xi8>) -> tensor<1x9000x1x1xi8> {
  // expected-error @+1 {{'dla.conv' op writes 9000 output channels, one NVDLA layer at most 8192 (DATAOUT_CHANNEL); cutting its kernels needs constant weights (these are computed at run time)}}
  %c = dla.conv direct %x, %w : tensor<1x2x1x1xi8>, tensor<9000x2x1x1xi8> -> tensor<1x9000x1x1xi8>
  return %c : tensor<1x9000x1x1xi8>
}
}

// -----

// Both limits, fp16 on nv_full: 9000 kernels by 9000 input channels. Cut
// by kernels first (2 parts of 4512 and 4488), then each part by input
// channels (2 parts of 4512 and 4488: DATAIN_CHANNEL): four convolutions,
// each part's second adding its first's result.
module attributes {dla.target = #dla.target<nvdla, nv_full>} {
// CHECK-LABEL: func.func @both
// CHECK-COUNT-4: dla.conv direct {{.*}} : tensor<1x{{4512|4488}}x1x1xf16>, tensor<{{4512|4488}}x{{4512|4488}}x1x1xf16>
// CHECK: dla.channel_concat {{.*}} -> tensor<1x9000x1x1xf16>
func.func @both(%x: tensor<1x9000x1x1xf16>) -> tensor<1x9000x1x1xf16> {
  %w = arith.constant dense<1.0> : tensor<9000x9000x1x1xf16>
  // Both kernel parts' remarks (the same words at the same place) match
  // the one expectation below; the four convolutions are counted above.
  // expected-remark @+2 {{runs as 2 convolutions of at most 4512 of its 9000 kernels}}
  // expected-remark @+1 {{runs as 2 convolutions of at most 4512 of its 9000 input channels (one layer reads at most 8192 (DATAIN_CHANNEL))}}
  %c = dla.conv direct %x, %w : tensor<1x9000x1x1xf16>, tensor<9000x9000x1x1xf16> -> tensor<1x9000x1x1xf16>
  return %c : tensor<1x9000x1x1xf16>
}
}

// -----

// A bias computed at run time, per channel (rank 1), is not cut.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @runtime_bias(%x: tensor<1x2x1x1xi8>, %b: tensor<9000xi8>) -> tensor<1x9000x1x1xi8> {
  %w = arith.constant dense<1> : tensor<9000x2x1x1xi8>
  // expected-error @+1 {{'dla.conv' op writes 9000 output channels, one NVDLA layer at most 8192 (DATAOUT_CHANNEL); cutting its kernels needs its bias at hand}}
  %c = dla.conv direct %x, %w, %b : tensor<1x2x1x1xi8>, tensor<9000x2x1x1xi8>, tensor<9000xi8> -> tensor<1x9000x1x1xi8>
  return %c : tensor<1x9000x1x1xi8>
}
}

// -----

// The SDP after it reads a per-channel operand computed at run time
// (rank 1: no channel view of it): not cut.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @runtime_sdp_operand(%x: tensor<1x2x1x1xi8>, %p: tensor<9000xi8>) -> tensor<1x9000x1x1xi8> {
  %w = arith.constant dense<1> : tensor<9000x2x1x1xi8>
  // expected-error @+1 {{cutting its kernels needs the operands of the SDP after it at hand}}
  %c = dla.conv direct %x, %w : tensor<1x2x1x1xi8>, tensor<9000x2x1x1xi8> -> tensor<1x9000x1x1xi8>
  %y = dla.sdp on_the_fly %c prelu %p : tensor<9000xi8> : tensor<1x9000x1x1xi8> -> tensor<1x9000x1x1xi8>
  return %y : tensor<1x9000x1x1xi8>
}
}

// -----

// After layout assignment the cut is not made.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @encoded(%x: tensor<1x2x1x1xi8>) -> tensor<1x9000x1x1xi8, #dla.feature<int8, config = nv_small>> {
  %w = arith.constant dense<1> : tensor<9000x2x1x1xi8>
  // expected-error @+1 {{cutting its kernels is done before layout assignment (its tensors have encodings)}}
  %c = dla.conv direct %x, %w : tensor<1x2x1x1xi8>, tensor<9000x2x1x1xi8> -> tensor<1x9000x1x1xi8, #dla.feature<int8, config = nv_small>>
  return %c : tensor<1x9000x1x1xi8, #dla.feature<int8, config = nv_small>>
}
}
