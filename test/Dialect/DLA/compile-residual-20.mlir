// RUN: dla-opt %s --dla-compile 2>/dev/null | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --dla-compile='target=nv_small winograd=auto' 2>/dev/null | FileCheck %s --enable-var-scope --check-prefix=SMALL

// A 20-layer residual network of layer ops on plain tensors (10 blocks of
// a 3x3 convolution with bias and an SDP adding the block's input, then
// ReLU). Compiled, its only run-time relayouts are at the function
// boundary; every layer has checked precisions; every weight and bias is
// a packed constant.
// CHECK: module attributes {dla.target = #dla.target<nvdla, nv_full>}
// CHECK-LABEL: func.func @resnet20
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16>
// CHECK-NEXT: %[[XF:.*]] = dla.relayout %[[X]] : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// CHECK: arith.constant dense_resource<{{.*}}> : tensor<16xf16, #dla.bias<per_channel, fp16>>
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK-NOT: dla.relayout
// CHECK: dla.sdp offline {{.*}} eltwise {{.*}} relu {pipeline_precision = #dla.pipeline_precision<fp32>} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-NOT: dla.relayout
// CHECK: %[[R:.*]] = dla.relayout %{{.*}} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16>
// CHECK-NEXT: return %[[R]]

// On nv_small with winograd=auto, every 3x3 convolution runs Winograd.
// SMALL: module attributes {dla.target = #dla.target<nvdla, nv_small>}
// SMALL: dla.relayout
// SMALL-COUNT-10: dla.conv winograd {{.*}} tensor<16x16x3x3xf16, #dla.weight<winograd, fp16, config = nv_small>>
// SMALL: dla.relayout
// SMALL-NOT: dla.relayout
func.func @resnet20(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  %w0 = arith.constant dense<0.015625> : tensor<16x16x3x3xf16>
  %b0 = arith.constant dense<-0.031250> : tensor<16xf16>
  %c0 = dla.conv direct %x, %w0, %b0 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r0 = dla.sdp offline %c0 eltwise %x : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w1 = arith.constant dense<0.031250> : tensor<16x16x3x3xf16>
  %b1 = arith.constant dense<-0.062500> : tensor<16xf16>
  %c1 = dla.conv direct %r0, %w1, %b1 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r1 = dla.sdp offline %c1 eltwise %r0 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w2 = arith.constant dense<0.046875> : tensor<16x16x3x3xf16>
  %b2 = arith.constant dense<-0.093750> : tensor<16xf16>
  %c2 = dla.conv direct %r1, %w2, %b2 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r2 = dla.sdp offline %c2 eltwise %r1 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w3 = arith.constant dense<0.062500> : tensor<16x16x3x3xf16>
  %b3 = arith.constant dense<-0.125000> : tensor<16xf16>
  %c3 = dla.conv direct %r2, %w3, %b3 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r3 = dla.sdp offline %c3 eltwise %r2 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w4 = arith.constant dense<0.078125> : tensor<16x16x3x3xf16>
  %b4 = arith.constant dense<-0.156250> : tensor<16xf16>
  %c4 = dla.conv direct %r3, %w4, %b4 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r4 = dla.sdp offline %c4 eltwise %r3 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w5 = arith.constant dense<0.093750> : tensor<16x16x3x3xf16>
  %b5 = arith.constant dense<-0.187500> : tensor<16xf16>
  %c5 = dla.conv direct %r4, %w5, %b5 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r5 = dla.sdp offline %c5 eltwise %r4 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w6 = arith.constant dense<0.109375> : tensor<16x16x3x3xf16>
  %b6 = arith.constant dense<-0.218750> : tensor<16xf16>
  %c6 = dla.conv direct %r5, %w6, %b6 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r6 = dla.sdp offline %c6 eltwise %r5 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w7 = arith.constant dense<0.125000> : tensor<16x16x3x3xf16>
  %b7 = arith.constant dense<-0.250000> : tensor<16xf16>
  %c7 = dla.conv direct %r6, %w7, %b7 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r7 = dla.sdp offline %c7 eltwise %r6 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w8 = arith.constant dense<0.140625> : tensor<16x16x3x3xf16>
  %b8 = arith.constant dense<-0.281250> : tensor<16xf16>
  %c8 = dla.conv direct %r7, %w8, %b8 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r8 = dla.sdp offline %c8 eltwise %r7 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %w9 = arith.constant dense<0.156250> : tensor<16x16x3x3xf16>
  %b9 = arith.constant dense<-0.312500> : tensor<16xf16>
  %c9 = dla.conv direct %r8, %w9, %b9 pad [1, 1, 1, 1] : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r9 = dla.sdp offline %c9 eltwise %r8 : tensor<1x16x8x8xf16> relu : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  return %r9 : tensor<1x16x8x8xf16>
}
