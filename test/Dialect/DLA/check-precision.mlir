// RUN: dla-opt %s --dla-check-precision | FileCheck %s --enable-var-scope

// One function per valid cell of the four precision-conversion tables of the
// NVDLA in-memory format document (errata 3 and 4 of the spec README applied),
// checked for the annotations the pass adds.

// CHECK-LABEL: func.func @conv_direct_int8_to_int8
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @conv_direct_int8_to_int8(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x6x6xi8> {
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// CHECK-LABEL: func.func @conv_direct_int16_to_int16
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>, weight_precision = #dla.precision<int16>}
func.func @conv_direct_int16_to_int16(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xi16> {
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// CHECK-LABEL: func.func @conv_direct_fp16_to_fp16
// CHECK: dla.conv direct {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
func.func @conv_direct_fp16_to_fp16(%x: tensor<1x16x8x8xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x6x6xf16> {
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// CHECK-LABEL: func.func @conv_winograd_int8_to_int8
// CHECK: dla.conv winograd {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @conv_winograd_int8_to_int8(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x6x6xi8> {
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// CHECK-LABEL: func.func @conv_winograd_int16_to_int16
// CHECK: dla.conv winograd {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>, weight_precision = #dla.precision<int16>}
func.func @conv_winograd_int16_to_int16(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xi16> {
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// CHECK-LABEL: func.func @conv_winograd_fp16_to_fp16
// CHECK: dla.conv winograd {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
func.func @conv_winograd_fp16_to_fp16(%x: tensor<1x16x8x8xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x6x6xf16> {
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// CHECK-LABEL: func.func @conv_image_ui8_to_int8
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @conv_image_ui8_to_int8(%x: tensor<1x4x8x8xui8>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xi8> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xui8>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// CHECK-LABEL: func.func @conv_image_ui8_to_int16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>, weight_precision = #dla.precision<int16>}
func.func @conv_image_ui8_to_int16(%x: tensor<1x4x8x8xui8>, %w: tensor<16x3x3x3xi16>) -> tensor<1x16x6x6xi16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xui8>, tensor<16x3x3x3xi16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// CHECK-LABEL: func.func @conv_image_ui8_to_fp16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
func.func @conv_image_ui8_to_fp16(%x: tensor<1x4x8x8xui8>, %w: tensor<16x3x3x3xf16>) -> tensor<1x16x6x6xf16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xui8>, tensor<16x3x3x3xf16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// CHECK-LABEL: func.func @conv_image_i8_to_int8
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @conv_image_i8_to_int8(%x: tensor<1x4x8x8xi8>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xi8> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xi8>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// CHECK-LABEL: func.func @conv_image_i8_to_int16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>, weight_precision = #dla.precision<int16>}
func.func @conv_image_i8_to_int16(%x: tensor<1x4x8x8xi8>, %w: tensor<16x3x3x3xi16>) -> tensor<1x16x6x6xi16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xi8>, tensor<16x3x3x3xi16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// CHECK-LABEL: func.func @conv_image_i8_to_fp16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
func.func @conv_image_i8_to_fp16(%x: tensor<1x4x8x8xi8>, %w: tensor<16x3x3x3xf16>) -> tensor<1x16x6x6xf16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xi8>, tensor<16x3x3x3xf16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// CHECK-LABEL: func.func @conv_image_ui16_to_int8
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @conv_image_ui16_to_int8(%x: tensor<1x4x8x8xui16>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xi8> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xui16>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// CHECK-LABEL: func.func @conv_image_ui16_to_int16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>, weight_precision = #dla.precision<int16>}
func.func @conv_image_ui16_to_int16(%x: tensor<1x4x8x8xui16>, %w: tensor<16x3x3x3xi16>) -> tensor<1x16x6x6xi16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xui16>, tensor<16x3x3x3xi16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// CHECK-LABEL: func.func @conv_image_ui16_to_fp16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
func.func @conv_image_ui16_to_fp16(%x: tensor<1x4x8x8xui16>, %w: tensor<16x3x3x3xf16>) -> tensor<1x16x6x6xf16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xui16>, tensor<16x3x3x3xf16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// CHECK-LABEL: func.func @conv_image_i16_to_int8
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>, weight_precision = #dla.precision<int8>}
func.func @conv_image_i16_to_int8(%x: tensor<1x4x8x8xi16>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xi8> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xi16>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// CHECK-LABEL: func.func @conv_image_i16_to_int16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>, weight_precision = #dla.precision<int16>}
func.func @conv_image_i16_to_int16(%x: tensor<1x4x8x8xi16>, %w: tensor<16x3x3x3xi16>) -> tensor<1x16x6x6xi16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xi16>, tensor<16x3x3x3xi16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// CHECK-LABEL: func.func @conv_image_i16_to_fp16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
func.func @conv_image_i16_to_fp16(%x: tensor<1x4x8x8xi16>, %w: tensor<16x3x3x3xf16>) -> tensor<1x16x6x6xf16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xi16>, tensor<16x3x3x3xf16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// CHECK-LABEL: func.func @conv_image_f16_to_fp16
// CHECK: dla.conv image {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>, weight_precision = #dla.precision<fp16>}
func.func @conv_image_f16_to_fp16(%x: tensor<1x4x8x8xf16>, %w: tensor<16x3x3x3xf16>) -> tensor<1x16x6x6xf16> {
  %y = dla.conv image %x, %w : tensor<1x4x8x8xf16>, tensor<16x3x3x3xf16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// CHECK-LABEL: func.func @sdp_int8_to_int8
// CHECK: dla.sdp offline {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @sdp_int8_to_int8(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xi8> {
  %y = dla.sdp offline %x : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return %y : tensor<1x16x8x8xi8>
}

// CHECK-LABEL: func.func @sdp_int8_to_int16
// CHECK: dla.sdp offline {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @sdp_int8_to_int16(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xi16> {
  %y = dla.sdp offline %x : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi16>
  return %y : tensor<1x16x8x8xi16>
}

// CHECK-LABEL: func.func @sdp_int16_to_int8
// CHECK: dla.sdp offline {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @sdp_int16_to_int8(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x8x8xi8> {
  %y = dla.sdp offline %x : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi8>
  return %y : tensor<1x16x8x8xi8>
}

// CHECK-LABEL: func.func @sdp_int16_to_int16
// CHECK: dla.sdp offline {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @sdp_int16_to_int16(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x8x8xi16> {
  %y = dla.sdp offline %x : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi16>
  return %y : tensor<1x16x8x8xi16>
}

// CHECK-LABEL: func.func @sdp_int16_to_fp16
// CHECK: dla.sdp offline {{.*}} {pipeline_precision = #dla.pipeline_precision<int32>}
func.func @sdp_int16_to_fp16(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x8x8xf16> {
  %y = dla.sdp offline %x : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// CHECK-LABEL: func.func @sdp_fp16_to_int16
// CHECK: dla.sdp offline {{.*}} {pipeline_precision = #dla.pipeline_precision<fp32>}
func.func @sdp_fp16_to_int16(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xi16> {
  %y = dla.sdp offline %x : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xi16>
  return %y : tensor<1x16x8x8xi16>
}

// CHECK-LABEL: func.func @sdp_fp16_to_fp16
// CHECK: dla.sdp offline {{.*}} {pipeline_precision = #dla.pipeline_precision<fp32>}
func.func @sdp_fp16_to_fp16(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  %y = dla.sdp offline %x : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// CHECK-LABEL: func.func @lrn_int8_to_int8
// CHECK: dla.lrn {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>}
func.func @lrn_int8_to_int8(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xi8> {
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return %y : tensor<1x16x8x8xi8>
}

// CHECK-LABEL: func.func @lrn_int16_to_int16
// CHECK: dla.lrn {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>}
func.func @lrn_int16_to_int16(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x8x8xi16> {
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi16>
  return %y : tensor<1x16x8x8xi16>
}

// CHECK-LABEL: func.func @lrn_fp16_to_fp16
// CHECK: dla.lrn {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>}
func.func @lrn_fp16_to_fp16(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xf16> {
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// CHECK-LABEL: func.func @pool_int8_to_int8
// CHECK: dla.pool max {{.*}} {pipeline_precision = #dla.pipeline_precision<int8>}
func.func @pool_int8_to_int8(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x4x4xi8> {
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// CHECK-LABEL: func.func @pool_int16_to_int16
// CHECK: dla.pool max {{.*}} {pipeline_precision = #dla.pipeline_precision<int16>}
func.func @pool_int16_to_int16(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x4x4xi16> {
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi16> -> tensor<1x16x4x4xi16>
  return %y : tensor<1x16x4x4xi16>
}

// CHECK-LABEL: func.func @pool_fp16_to_fp16
// CHECK: dla.pool max {{.*}} {pipeline_precision = #dla.pipeline_precision<fp16>}
func.func @pool_fp16_to_fp16(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xf16> {
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16> -> tensor<1x16x4x4xf16>
  return %y : tensor<1x16x4x4xf16>
}
