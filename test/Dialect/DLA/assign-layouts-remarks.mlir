// RUN: dla-opt %s -split-input-file --dla-assign-layouts='target=nv_full' -verify-diagnostics -mlir-print-op-on-diagnostic=false | FileCheck %s --enable-var-scope

// Costs by hand (NVDLA format document): 1x16x4x4 int8 is 256 bytes
// row-major and 4 x 4 atoms of 32 bytes = 512 bytes as feature data; 16
// int8 bias values are 16 bytes, one 32-byte atom per channel run; the
// 1x16x2x2 result is 64 bytes row-major, 128 as feature data.
// expected-remark @+1 {{layouts assigned to 3 ops: 3 run-time relayouts of 1008 bytes, 1 constants packed at compile time; minimum cost (exact: no cycle of the graph passes through a choice)}}
func.func @chain(%x: tensor<1x16x4x4xi8>, %b: tensor<16xi8>) -> tensor<1x16x2x2xi8> {
  %w = arith.constant dense<1> : tensor<16x16x3x3xi8>
  // expected-remark @+3 {{relayout costs 768 bytes (256 read + 512 written): function argument #0 is row-major, 'dla.conv' reads its input as #dla.feature<int8>}}
  // expected-remark @+2 {{relayout of a constant, packed at compile time by --dla-pack-weights (no run-time cost): 'dla.conv' reads its weight as #dla.weight<direct, int8>}}
  // expected-remark @+2 {{relayout costs 48 bytes (16 read + 32 written): function argument #1 is row-major, 'dla.sdp' reads its bias as #dla.bias<per_channel, int8>}}
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x4x4xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x4x4xi8>
  %s = dla.sdp offline %c bias %b : tensor<16xi8> relu : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  %p = dla.pool max %s kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8> -> tensor<1x16x2x2xi8>
  // expected-remark @+1 {{relayout costs 192 bytes (128 read + 64 written): 'dla.pool' writes #dla.feature<int8>, function result #0 is declared row-major}}
  return %p : tensor<1x16x2x2xi8>
}

// -----

// The option overrides the module's target, and the user's nv_small
// weights stay: the convolution reads a converted copy (16 x 16 int8
// weights are 256 bytes in either configuration).
// CHECK: module attributes {dla.target = #dla.target<nvdla, nv_full>}
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  // expected-remark @+1 {{layouts assigned to 1 ops: 3 run-time relayouts of 2048 bytes, 0 constants packed at compile time}}
  func.func @override(%x: tensor<1x16x4x4xi8>, %w: tensor<16x16x1x1xi8>) -> tensor<1x16x4x4xi8> {
    // CHECK: %[[S:.*]] = dla.relayout %{{.*}} : tensor<16x16x1x1xi8> -> tensor<16x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
    // CHECK-NEXT: %[[F:.*]] = dla.relayout %[[S]] : tensor<16x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<16x16x1x1xi8, #dla.weight<direct, int8>>
    %ws = dla.relayout %w : tensor<16x16x1x1xi8> -> tensor<16x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
    // expected-remark @+2 {{relayout costs 512 bytes (256 read + 256 written): 'dla.relayout' writes #dla.weight<direct, int8, config = nv_small>, 'dla.conv' reads its weight as #dla.weight<direct, int8>}}
    // expected-remark @+1 {{relayout costs 768 bytes (256 read + 512 written): function argument #0 is row-major, 'dla.conv' reads its input as #dla.feature<int8>}}
    %y = dla.conv direct %x, %ws : tensor<1x16x4x4xi8>, tensor<16x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x16x4x4xi8>
    // expected-remark @+1 {{relayout costs 768 bytes (512 read + 256 written): 'dla.conv' writes #dla.feature<int8>, function result #0 is declared row-major}}
    return %y : tensor<1x16x4x4xi8>
  }
}

// -----

// A dynamic batch: the relayouts are still placed, their size is unknown.
// expected-remark @+1 {{layouts assigned to 1 ops: 2 run-time relayouts of 0 bytes, 0 constants packed at compile time}}
func.func @dynamic(%x: tensor<?x16x4x4xi8>) -> tensor<?x16x2x2xi8> {
  // expected-remark @+1 {{relayout of a size unknown at compile time: function argument #0 is row-major, 'dla.pool' reads its input as #dla.feature<int8>}}
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<?x16x4x4xi8> -> tensor<?x16x2x2xi8>
  // expected-remark @+1 {{relayout of a size unknown at compile time: 'dla.pool' writes #dla.feature<int8>, function result #0 is declared row-major}}
  return %p : tensor<?x16x2x2xi8>
}
