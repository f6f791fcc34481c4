// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-check-precision

// One case per invalid cell of the four tables, then the prose rules.

func.func @conv_direct_int8_to_int16(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x6x6xi16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int8 feature data -> int16 (valid: int8)}}
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// -----

func.func @conv_direct_int8_to_fp16(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x6x6xf16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int8 feature data -> fp16 (valid: int8)}}
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

func.func @conv_direct_int16_to_int8(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int16 feature data -> int8 (valid: int16)}}
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

func.func @conv_direct_int16_to_fp16(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xf16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int16 feature data -> fp16 (valid: int16)}}
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

func.func @conv_direct_fp16_to_int8(%x: tensor<1x16x8x8xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: fp16 feature data -> int8 (valid: fp16)}}
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

func.func @conv_direct_fp16_to_int16(%x: tensor<1x16x8x8xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x6x6xi16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: fp16 feature data -> int16 (valid: fp16)}}
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// -----

func.func @conv_winograd_int8_to_int16(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x6x6xi16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int8 feature data -> int16 (valid: int8)}}
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// -----

func.func @conv_winograd_int8_to_fp16(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) -> tensor<1x16x6x6xf16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int8 feature data -> fp16 (valid: int8)}}
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

func.func @conv_winograd_int16_to_int8(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int16 feature data -> int8 (valid: int16)}}
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

func.func @conv_winograd_int16_to_fp16(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xf16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: int16 feature data -> fp16 (valid: int16)}}
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

func.func @conv_winograd_fp16_to_int8(%x: tensor<1x16x8x8xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: fp16 feature data -> int8 (valid: fp16)}}
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

func.func @conv_winograd_fp16_to_int16(%x: tensor<1x16x8x8xf16>, %w: tensor<16x16x3x3xf16>) -> tensor<1x16x6x6xi16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: fp16 feature data -> int16 (valid: fp16)}}
  %y = dla.conv winograd %x, %w : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// -----

// Erratum 4: an fp16 image only converts to fp16.
func.func @conv_image_f16_to_int8(%x: tensor<1x4x8x8xf16>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: fp16 image input -> int8 (valid: fp16)}}
  %y = dla.conv image %x, %w : tensor<1x4x8x8xf16>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

func.func @conv_image_f16_to_int16(%x: tensor<1x4x8x8xf16>, %w: tensor<16x3x3x3xi16>) -> tensor<1x16x6x6xi16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: fp16 image input -> int16 (valid: fp16)}}
  %y = dla.conv image %x, %w : tensor<1x4x8x8xf16>, tensor<16x3x3x3xi16> -> tensor<1x16x6x6xi16>
  return %y : tensor<1x16x6x6xi16>
}

// -----

func.func @sdp_int8_to_fp16(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xf16> {
  // expected-error @+1 {{invalid precision conversion for SDP layer (offline mode): int8 feature data -> fp16 (valid: int8, int16)}}
  %y = dla.sdp offline %x : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// -----

func.func @sdp_fp16_to_int8(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xi8> {
  // expected-error @+1 {{invalid precision conversion for SDP layer (offline mode): fp16 feature data -> int8 (valid: int16, fp16)}}
  %y = dla.sdp offline %x : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xi8>
  return %y : tensor<1x16x8x8xi8>
}

// -----

func.func @lrn_int8_to_int16(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xi16> {
  // expected-error @+1 {{invalid precision conversion for LRN layer: int8 feature data -> int16 (valid: int8)}}
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi16>
  return %y : tensor<1x16x8x8xi16>
}

// -----

func.func @lrn_int8_to_fp16(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x8x8xf16> {
  // expected-error @+1 {{invalid precision conversion for LRN layer: int8 feature data -> fp16 (valid: int8)}}
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// -----

func.func @lrn_int16_to_int8(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x8x8xi8> {
  // expected-error @+1 {{invalid precision conversion for LRN layer: int16 feature data -> int8 (valid: int16)}}
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xi8>
  return %y : tensor<1x16x8x8xi8>
}

// -----

func.func @lrn_int16_to_fp16(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x8x8xf16> {
  // expected-error @+1 {{invalid precision conversion for LRN layer: int16 feature data -> fp16 (valid: int16)}}
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xi16> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// -----

func.func @lrn_fp16_to_int8(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xi8> {
  // expected-error @+1 {{invalid precision conversion for LRN layer: fp16 feature data -> int8 (valid: fp16)}}
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xi8>
  return %y : tensor<1x16x8x8xi8>
}

// -----

func.func @lrn_fp16_to_int16(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x8x8xi16> {
  // expected-error @+1 {{invalid precision conversion for LRN layer: fp16 feature data -> int16 (valid: fp16)}}
  %y = dla.lrn %x size 5 : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xi16>
  return %y : tensor<1x16x8x8xi16>
}

// -----

func.func @pool_int8_to_int16(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x4x4xi16> {
  // expected-error @+1 {{invalid precision conversion for pooling layer: int8 feature data -> int16 (valid: int8)}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xi16>
  return %y : tensor<1x16x4x4xi16>
}

// -----

// Erratum 3: the document lists int16 twice for int8 pooling input; the
// second row is fp16, invalid.
func.func @pool_int8_to_fp16(%x: tensor<1x16x8x8xi8>) -> tensor<1x16x4x4xf16> {
  // expected-error @+1 {{invalid precision conversion for pooling layer: int8 feature data -> fp16 (valid: int8)}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xf16>
  return %y : tensor<1x16x4x4xf16>
}

// -----

func.func @pool_int16_to_int8(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x4x4xi8> {
  // expected-error @+1 {{invalid precision conversion for pooling layer: int16 feature data -> int8 (valid: int16)}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi16> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// -----

func.func @pool_int16_to_fp16(%x: tensor<1x16x8x8xi16>) -> tensor<1x16x4x4xf16> {
  // expected-error @+1 {{invalid precision conversion for pooling layer: int16 feature data -> fp16 (valid: int16)}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi16> -> tensor<1x16x4x4xf16>
  return %y : tensor<1x16x4x4xf16>
}

// -----

func.func @pool_fp16_to_int8(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xi8> {
  // expected-error @+1 {{invalid precision conversion for pooling layer: fp16 feature data -> int8 (valid: fp16)}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// -----

func.func @pool_fp16_to_int16(%x: tensor<1x16x8x8xf16>) -> tensor<1x16x4x4xi16> {
  // expected-error @+1 {{invalid precision conversion for pooling layer: fp16 feature data -> int16 (valid: fp16)}}
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16> -> tensor<1x16x4x4xi16>
  return %y : tensor<1x16x4x4xi16>
}
