// RUN: dla-opt %s --dla-check-precision | FileCheck %s --enable-var-scope

// A valid on-the-fly SDP after a direct convolution: int16 -> fp16 keeps the
// bit depth; the pipeline runs in int32 (SDP table).
// CHECK-LABEL: func.func @direct_then_sdp
// CHECK: %[[C:.*]] = dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>, weight_precision = #dla.precision<int16>}
// CHECK: dla.sdp on_the_fly %[[C]] bias {{.*}} relu {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @direct_then_sdp(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>, %b: tensor<16xi16>) -> tensor<1x16x6x6xf16> {
  %c = dla.conv direct %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi16>
  %y = dla.sdp on_the_fly %c bias %b : tensor<16xi16> relu : tensor<1x16x6x6xi16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// fp16 on-the-fly to int16 keeps 16 bits: valid, fp32 pipeline.
// CHECK-LABEL: func.func @fp16_then_int16
// CHECK: dla.sdp on_the_fly {{.*}} {pipeline_precision = #dla.pipeline_precision<fp32>}
func.func @fp16_then_int16(%x: tensor<1x16x8x8xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x6x6xi16> {
  %c = dla.conv direct %x, %w : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x6x6xf16>
  %y = dla.sdp on_the_fly %c : tensor<1x16x6x6xf16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// After Winograd the SDP may keep its precision.
// CHECK-LABEL: func.func @winograd_then_sdp_same
// CHECK: dla.sdp on_the_fly {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @winograd_then_sdp_same(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x6x6xi8>) -> tensor<1x16x2x2xi8> {
  %c = dla.conv winograd %x, %w stride [2, 2] : tensor<1x16x8x8xi8>, tensor<16x16x6x6xi8> -> tensor<1x16x2x2xi8>
  %y = dla.sdp on_the_fly %c : tensor<1x16x2x2xi8> -> tensor<1x16x2x2xi8>
  return %y : tensor<1x16x2x2xi8>
}

// Images with a pixel encoding convert as their format's input precision
// says: T_R16_F is fp16 (erratum 5), so it converts to fp16 only; T_R16_I is
// int16 and converts to all three.
// CHECK-LABEL: func.func @pixel_formats
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @pixel_formats(%f: tensor<1x1x8x8xf16, #dla.pixel<T_R16_F>>, %i: tensor<1x1x8x8xi16, #dla.pixel<T_R16_I>>,
                         %wf: tensor<4x1x3x3xf16>, %wi: tensor<4x1x3x3xi8>) -> (tensor<1x4x6x6xf16>, tensor<1x4x6x6xi8>) {
  %a = dla.conv image %f, %wf : tensor<1x1x8x8xf16, #dla.pixel<T_R16_F>>, tensor<4x1x3x3xf16> -> tensor<1x4x6x6xf16>
  %b = dla.conv image %i, %wi : tensor<1x1x8x8xi16, #dla.pixel<T_R16_I>>, tensor<4x1x3x3xi8> -> tensor<1x4x6x6xi8>
  return %a, %b : tensor<1x4x6x6xf16>, tensor<1x4x6x6xi8>
}

// int8 -> int16 on the fly after a direct or image input convolution: v1's
// int8-to-int16 SDP path (NvdlaConversion.h, issue 47); an int32 pipeline.
// CHECK-LABEL: func.func @int8_widened_on_the_fly
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
// CHECK: dla.sdp on_the_fly {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
// CHECK: dla.sdp on_the_fly {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @int8_widened_on_the_fly(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>,
                                   %i: tensor<1x4x8x8xui8>, %wi: tensor<16x3x3x3xi8>)
    -> (tensor<1x16x6x6xi16>, tensor<1x16x6x6xi16>) {
  %c = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  %y = dla.sdp on_the_fly %c : tensor<1x16x6x6xi8> -> tensor<1x16x6x6xi16>
  %d = dla.conv image %i, %wi : tensor<1x4x8x8xui8>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  %z = dla.sdp on_the_fly %d : tensor<1x16x6x6xi8> -> tensor<1x16x6x6xi16>
  return %y, %z : tensor<1x16x6x6xi16>, tensor<1x16x6x6xi16>
}
