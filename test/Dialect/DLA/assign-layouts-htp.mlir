// RUN: dla-opt %s --dla-assign-layouts 2>/dev/null | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --dla-assign-layouts -verify-diagnostics -mlir-print-op-on-diagnostic=false -o /dev/null

// HTP: upstream linalg named ops, NHWC activations. For 1x3x5x30 a crouton
// pads to 1x8x8x32 (2048 bytes), depth32 to 1x3x8x32 (768 bytes), flat and
// row-major are 450 bytes. The convolution takes crouton or depth32, the add
// any of crouton / depth32 / flat, the max pool crouton or flat: the least
// total is depth32 for the convolution and the add (the argument's depth32
// copy serves both), one relayout to flat for the pool, and flat out.
// CHECK: module attributes {dla.target = #dla.target<htp>}
// CHECK-LABEL: func.func @padding_decides
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x5x30xi8>)
// CHECK-NEXT: %[[XD:.*]] = dla.relayout %[[X]] : tensor<1x3x5x30xi8> -> tensor<1x3x5x30xi8, #dla.chunked<depth32>>
// CHECK-NEXT: %[[CST:.*]] = arith.constant
// CHECK-NEXT: %[[F:.*]] = dla.relayout %[[CST]] : tensor<1x1x30x30xi8> -> tensor<1x1x30x30xi8, #dla.chunked<conv_weight>>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x3x5x30xi8, #dla.chunked<depth32>>
// CHECK-NEXT: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf ins(%[[XD]], %[[F]] : {{.*}}) outs(%[[E]] : tensor<1x3x5x30xi8, #dla.chunked<depth32>>) -> tensor<1x3x5x30xi8, #dla.chunked<depth32>>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<1x3x5x30xi8, #dla.chunked<depth32>>
// CHECK-NEXT: %[[A:.*]] = linalg.add ins(%[[C]], %[[XD]] : {{.*}}) outs(%[[E2]] : {{.*}}) -> tensor<1x3x5x30xi8, #dla.chunked<depth32>>
// CHECK-NEXT: %[[AF:.*]] = dla.relayout %[[A]] : tensor<1x3x5x30xi8, #dla.chunked<depth32>> -> tensor<1x3x5x30xi8, #dla.chunked<flat>>
// CHECK-NEXT: %[[W:.*]] = tensor.empty() : tensor<2x2xi8>
// CHECK-NEXT: %[[E3:.*]] = tensor.empty() : tensor<1x1x2x30xi8, #dla.chunked<flat>>
// CHECK-NEXT: %[[P:.*]] = linalg.pooling_nhwc_max {{.*}} ins(%[[AF]], %[[W]] : {{.*}}) outs(%[[E3]] : {{.*}}) -> tensor<1x1x2x30xi8, #dla.chunked<flat>>
// CHECK-NEXT: %[[R:.*]] = dla.relayout %[[P]] : tensor<1x1x2x30xi8, #dla.chunked<flat>> -> tensor<1x1x2x30xi8>
// CHECK-NEXT: return %[[R]]
module attributes {dla.target = #dla.target<htp>} {
  // expected-remark @+1 {{layouts assigned to 3 ops: 3 run-time relayouts of 2556 bytes, 1 constants packed at compile time; best found}}
  func.func @padding_decides(%x: tensor<1x3x5x30xi8>) -> tensor<1x1x2x30xi8> {
    %f = arith.constant dense<1> : tensor<1x1x30x30xi8>
    %e = tensor.empty() : tensor<1x3x5x30xi8>
    // expected-remark @+2 {{relayout costs 1218 bytes (450 read + 768 written): function argument #0 is row-major, 'linalg.conv_2d_nhwc_hwcf' reads its input as #dla.chunked<depth32>}}
    // expected-remark @+1 {{relayout of a constant, packed at compile time by --dla-pack-weights (no run-time cost): 'linalg.conv_2d_nhwc_hwcf' reads its filter as #dla.chunked<conv_weight>}}
    %c = linalg.conv_2d_nhwc_hwcf ins(%x, %f : tensor<1x3x5x30xi8>, tensor<1x1x30x30xi8>) outs(%e : tensor<1x3x5x30xi8>) -> tensor<1x3x5x30xi8>
    %e2 = tensor.empty() : tensor<1x3x5x30xi8>
    %a = linalg.add ins(%c, %x : tensor<1x3x5x30xi8>, tensor<1x3x5x30xi8>) outs(%e2 : tensor<1x3x5x30xi8>) -> tensor<1x3x5x30xi8>
    %win = tensor.empty() : tensor<2x2xi8>
    %e3 = tensor.empty() : tensor<1x1x2x30xi8>
    // expected-remark @+1 {{relayout costs 1218 bytes (768 read + 450 written): 'linalg.add' writes #dla.chunked<depth32>, 'linalg.pooling_nhwc_max' reads its input as #dla.chunked<flat>}}
    %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a, %win : tensor<1x3x5x30xi8>, tensor<2x2xi8>) outs(%e3 : tensor<1x1x2x30xi8>) -> tensor<1x1x2x30xi8>
    // expected-remark @+1 {{relayout costs 120 bytes (60 read + 60 written): 'linalg.pooling_nhwc_max' writes #dla.chunked<flat>, function result #0 is declared row-major}}
    return %p : tensor<1x1x2x30xi8>
  }

  // The 8x8x32 input needs no padding, so crouton and depth32 tie on the
  // convolution and preference decides: crouton. The pooled 1x4x4x32 f32
  // crouton pads to 1x8x8x32 (8192 bytes, 2048 row-major), still cheaper
  // than a second relayout to flat (16384 + 4096).
  // CHECK-LABEL: func.func @preference
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x8x8x32xf32, #dla.chunked<crouton>>
  // CHECK: linalg.pooling_nhwc_sum {{.*}} -> tensor<1x4x4x32xf32, #dla.chunked<crouton>>
  // expected-remark @+1 {{layouts assigned to 2 ops: 2 run-time relayouts of 26624 bytes, 1 constants packed at compile time; minimum cost}}
  func.func @preference(%x: tensor<1x8x8x32xf32>) -> tensor<1x4x4x32xf32> {
    %f = arith.constant dense<1.0> : tensor<1x1x32x32xf32>
    %e = tensor.empty() : tensor<1x8x8x32xf32>
    // expected-remark @+2 {{relayout costs 16384 bytes}}
    // expected-remark @+1 {{relayout of a constant}}
    %c = linalg.conv_2d_nhwc_hwcf ins(%x, %f : tensor<1x8x8x32xf32>, tensor<1x1x32x32xf32>) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
    %win = tensor.empty() : tensor<2x2xf32>
    %e2 = tensor.empty() : tensor<1x4x4x32xf32>
    %p = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%c, %win : tensor<1x8x8x32xf32>, tensor<2x2xf32>) outs(%e2 : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
    // expected-remark @+1 {{relayout costs 10240 bytes (8192 read + 2048 written): 'linalg.pooling_nhwc_sum' writes #dla.chunked<crouton>, function result #0 is declared row-major}}
    return %p : tensor<1x4x4x32xf32>
  }
}
