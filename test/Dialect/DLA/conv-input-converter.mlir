// CDMA's input converter on dla.conv (input_cvt: CVT_OFFSET / CVT_SCALE /
// CVT_TRUNCATE; mean: MEAN_RY .. MEAN_AX) and the padding value (PAD_VALUE):
// round trip, absent ones print
// nothing, kept on storage; every verifier message in
// conv-input-converter-invalid.mlir; executed bit-exactly against
// utils/dla-ref/int_conv in test/Execution/int-conv-layers.test.
// RUN: dla-opt %s | dla-opt | FileCheck %s
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF

// ImageNet's mean in image mode, halving, a 2-bit clip.
// CHECK-LABEL: func.func @image
// CHECK: dla.conv image %arg0, %arg1 stride [2, 2] pad [3, 3, 3, 3] input_cvt <offset = 0, scale = 16384, shift = 15> mean [124, 117, 104, 0] clip_truncate 2 : tensor<1x4x16x16xui8>, tensor<8x3x7x7xi8> -> tensor<1x8x8x8xi8>
// MEMREF-LABEL: func.func @image
// MEMREF: dla.on_storage
// MEMREF: dla.conv image {{.*}} input_cvt <offset = 0, scale = 16384, shift = 15> mean [124, 117, 104, 0] clip_truncate 2
func.func @image(%img: tensor<1x4x16x16xui8>, %w: tensor<8x3x7x7xi8>) -> tensor<1x8x8x8xi8> {
  %c = dla.conv image %img, %w stride [2, 2] pad [3, 3, 3, 3]
      input_cvt <offset = 0, scale = 16384, shift = 15> mean [124, 117, 104, 0] clip_truncate 2
      : tensor<1x4x16x16xui8>, tensor<8x3x7x7xi8> -> tensor<1x8x8x8xi8>
  return %c : tensor<1x8x8x8xi8>
}

// Feature data; the range edges of every register.
// CHECK-LABEL: func.func @direct
// CHECK: dla.conv direct %arg0, %arg1 pad [1, 1, 1, 1] input_cvt <offset = -3, scale = 1, shift = 0> : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x8x8xi8>
// CHECK: dla.conv direct %arg2, %arg3 input_cvt <offset = -32768, scale = 32767, shift = 63> : tensor<1x8x4x4xi16>, tensor<8x8x1x1xi16> -> tensor<1x8x4x4xi16>
// CHECK: dla.conv direct %arg2, %arg3 input_cvt <offset = 32767, scale = -32768, shift = 0> : tensor<1x8x4x4xi16>, tensor<8x8x1x1xi16> -> tensor<1x8x4x4xi16>
func.func @direct(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>, %y: tensor<1x8x4x4xi16>, %v: tensor<8x8x1x1xi16>)
    -> (tensor<1x16x8x8xi8>, tensor<1x8x4x4xi16>, tensor<1x8x4x4xi16>) {
  %d = dla.conv direct %x, %w pad [1, 1, 1, 1] input_cvt <offset = -3, scale = 1, shift = 0>
      : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x8x8xi8>
  %e = dla.conv direct %y, %v input_cvt <offset = -32768, scale = 32767, shift = 63>
      : tensor<1x8x4x4xi16>, tensor<8x8x1x1xi16> -> tensor<1x8x4x4xi16>
  %f = dla.conv direct %y, %v input_cvt <shift = 0, scale = -32768, offset = 32767>
      : tensor<1x8x4x4xi16>, tensor<8x8x1x1xi16> -> tensor<1x8x4x4xi16>
  return %d, %e, %f : tensor<1x16x8x8xi8>, tensor<1x8x4x4xi16>, tensor<1x8x4x4xi16>
}

// The padding value at the ends of its ranges (int8: the low byte; int16).
// CHECK-LABEL: func.func @pad_value
// CHECK: dla.conv direct %arg0, %arg1 pad [1, 1, 1, 1] pad_value -128 : tensor<1x8x4x4xi8>
// CHECK: dla.conv direct %arg2, %arg3 pad [0, 1, 0, 1] pad_value 32767 : tensor<1x8x4x4xi16>
// MEMREF-LABEL: func.func @pad_value
// MEMREF: dla.conv direct {{.*}} pad_value -128
func.func @pad_value(%x: tensor<1x8x4x4xi8>, %w: tensor<8x8x3x3xi8>, %y: tensor<1x8x4x4xi16>,
                     %v: tensor<8x8x2x2xi16>) -> (tensor<1x8x4x4xi8>, tensor<1x8x4x4xi16>) {
  %d = dla.conv direct %x, %w pad [1, 1, 1, 1] pad_value -128
      : tensor<1x8x4x4xi8>, tensor<8x8x3x3xi8> -> tensor<1x8x4x4xi8>
  %e = dla.conv direct %y, %v pad [0, 1, 0, 1] pad_value 32767
      : tensor<1x8x4x4xi16>, tensor<8x8x2x2xi16> -> tensor<1x8x4x4xi16>
  return %d, %e : tensor<1x8x4x4xi8>, tensor<1x8x4x4xi16>
}

// Mean registers at their edges on a 16-bit image into int16.
// CHECK-LABEL: func.func @mean_edges
// CHECK: dla.conv image %arg0, %arg1 input_cvt <offset = 0, scale = 1, shift = 0> mean [-32768, 32767, 0, 1] : tensor<1x3x4x4xi16>, tensor<2x3x1x1xi16> -> tensor<1x2x4x4xi16>
func.func @mean_edges(%img: tensor<1x3x4x4xi16>, %w: tensor<2x3x1x1xi16>) -> tensor<1x2x4x4xi16> {
  %c = dla.conv image %img, %w input_cvt <offset = 0, scale = 1, shift = 0> mean [-32768, 32767, 0, 1]
      : tensor<1x3x4x4xi16>, tensor<2x3x1x1xi16> -> tensor<1x2x4x4xi16>
  return %c : tensor<1x2x4x4xi16>
}

// The generic form names the attributes in full.
// CHECK-LABEL: func.func @generic
// CHECK: dla.conv image %arg0, %arg1 input_cvt <offset = 0, scale = 2, shift = 1> mean [1, 2, 3, 4] : tensor<1x4x4x4xui8>, tensor<2x3x1x1xi8> -> tensor<1x2x4x4xi8>
func.func @generic(%img: tensor<1x4x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8> {
  %c = "dla.conv"(%img, %w) <{mode = #dla.conv_mode<image>, input_cvt = #dla.cvt<offset = 0, scale = 2, shift = 1>, mean = array<i64: 1, 2, 3, 4>}> : (tensor<1x4x4x4xui8>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8>
  return %c : tensor<1x2x4x4xi8>
}
