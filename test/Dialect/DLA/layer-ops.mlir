// RUN: dla-opt %s | FileCheck %s --enable-var-scope
// RUN: dla-opt %s | dla-opt | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --mlir-print-op-generic | dla-opt | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @conv
// CHECK: dla.conv direct %{{.*}}, %{{.*}}, %{{.*}} pad [1, 1, 1, 1] : tensor<1x64x56x56xi8>, tensor<64x64x3x3xi8>, tensor<64xi8> -> tensor<1x64x56x56xi8>
// CHECK: dla.conv image %{{.*}}, %{{.*}} stride [2, 2] pad [3, 3, 3, 3] : tensor<1x4x224x224xui8>, tensor<64x3x7x7xi8> -> tensor<1x64x112x112xi8>
// CHECK: dla.conv winograd %{{.*}}, %{{.*}} : tensor<1x32x8x8xf16>, tensor<32x32x3x3xf16> -> tensor<1x32x6x6xf16>
// CHECK: dla.conv direct %{{.*}}, %{{.*}} dilation [2, 2] : tensor<1x8x9x9xi16>, tensor<8x8x3x3xi16> -> tensor<1x8x5x5xi16>
func.func @conv(%x: tensor<1x64x56x56xi8>, %w: tensor<64x64x3x3xi8>, %b: tensor<64xi8>,
                %img: tensor<1x4x224x224xui8>, %w7: tensor<64x3x7x7xi8>,
                %xf: tensor<1x32x8x8xf16>, %wf: tensor<32x32x3x3xf16>,
                %xd: tensor<1x8x9x9xi16>, %wd: tensor<8x8x3x3xi16>) {
  %0 = dla.conv direct %x, %w, %b stride [1, 1] pad [1, 1, 1, 1]
      : tensor<1x64x56x56xi8>, tensor<64x64x3x3xi8>, tensor<64xi8> -> tensor<1x64x56x56xi8>
  %1 = dla.conv image %img, %w7 stride [2, 2] pad [3, 3, 3, 3]
      : tensor<1x4x224x224xui8>, tensor<64x3x7x7xi8> -> tensor<1x64x112x112xi8>
  %2 = dla.conv winograd %xf, %wf : tensor<1x32x8x8xf16>, tensor<32x32x3x3xf16> -> tensor<1x32x6x6xf16>
  %3 = dla.conv direct %xd, %wd dilation [2, 2] : tensor<1x8x9x9xi16>, tensor<8x8x3x3xi16> -> tensor<1x8x5x5xi16>
  return
}

// CHECK-LABEL: func.func @sdp
// CHECK: dla.sdp offline %{{.*}} bias %{{.*}} : tensor<16xi16> batchnorm %{{.*}} : tensor<16x2xi16> eltwise %{{.*}} : tensor<1x16x8x8xi16> prelu %{{.*}} : tensor<16xi16> : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi8>
// CHECK: dla.sdp offline %{{.*}} bias %{{.*}} : tensor<i16> relu : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi16>
func.func @sdp(%x: tensor<1x16x8x8xi16>, %b: tensor<16xi16>, %bn: tensor<16x2xi16>,
               %e: tensor<1x16x8x8xi16>, %p: tensor<16xi16>, %bl: tensor<i16>) {
  %0 = dla.sdp offline %x bias %b : tensor<16xi16> batchnorm %bn : tensor<16x2xi16>
      eltwise %e : tensor<1x16x8x8xi16> prelu %p : tensor<16xi16>
      : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi8>
  %1 = dla.sdp offline %x bias %bl : tensor<i16> relu : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi16>
  return
}

// CHECK-LABEL: func.func @pool_lrn
// CHECK: dla.pool max %{{.*}} kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xi8>
// CHECK: dla.pool average %{{.*}} kernel [3, 3] pad [1, 1, 1, 1] : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
// CHECK: dla.pool min %{{.*}} kernel [3, 3] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x3x3xi8>
// CHECK: dla.lrn %{{.*}} size 5 {alpha = 2.000000e-04 : f32} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
func.func @pool_lrn(%x: tensor<1x16x8x8xi8>, %h: tensor<1x16x8x8xf16>) {
  %0 = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xi8>
  %1 = dla.pool average %x kernel [3, 3] pad [1, 1, 1, 1] : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  %2 = dla.pool min %x kernel [3, 3] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x3x3xi8>
  %3 = dla.lrn %h size 5 {alpha = 2.0e-04 : f32} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  return
}
