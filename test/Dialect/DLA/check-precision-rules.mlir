// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-check-precision

// The prose rules of "Precision Conversion". On-the-fly SDP takes the
// convolution's output precision as its input and keeps the bit depth, or
// widens int8 to int16 (NVIDIA's v1 C model and firmware have that path,
// NvdlaConversion.h); int16 to int8 has no path on the fly.
func.func @otf_bit_depth(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xi8> {
  %c = dla.conv direct %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi16>
  // expected-error @+1 {{invalid precision conversion for on-the-fly SDP layer after direct convolution: int16 feature data -> int8 (valid: int16, fp16; on-the-fly SDP keeps the bit depth or widens int8 to int16)}}
  %y = dla.sdp on_the_fly %c : tensor<1x16x6x6xi16> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

// int8 -> int16 after Winograd: v1 asserts WINOGRAD off on the path.
func.func @otf_widen_after_winograd(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x6x6xi8>) -> tensor<1x16x2x2xi16> {
  %c = dla.conv winograd %x, %w stride [2, 2] : tensor<1x16x8x8xi8>, tensor<16x16x6x6xi8> -> tensor<1x16x2x2xi8>
  // expected-error @+1 {{invalid precision conversion for on-the-fly SDP layer after Winograd convolution: int8 feature data -> int16 (valid: int8; SDP converts precision after direct convolution only)}}
  %y = dla.sdp on_the_fly %c : tensor<1x16x2x2xi8> -> tensor<1x16x2x2xi16>
  return %y : tensor<1x16x2x2xi16>
}

// -----

// After an image input convolution the SDP converts as after a direct one:
// the bit depth kept, or int8 widened to int16.
func.func @otf_image_int8_to_fp16(%x: tensor<1x4x8x8xui8>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xf16> {
  %c = dla.conv image %x, %w : tensor<1x4x8x8xui8>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  // expected-error @+1 {{invalid precision conversion for on-the-fly SDP layer after image input convolution: int8 feature data -> fp16 (valid: int8, int16; on-the-fly SDP keeps the bit depth or widens int8 to int16)}}
  %y = dla.sdp on_the_fly %c : tensor<1x16x6x6xi8> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

// SDP converts int16 <-> fp16 and int8 <-> int16 "for DC mode only".
func.func @otf_after_winograd(%x: tensor<1x16x8x8xi16>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xf16> {
  %c = dla.conv winograd %x, %w : tensor<1x16x8x8xi16>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi16>
  // expected-error @+1 {{invalid precision conversion for on-the-fly SDP layer after Winograd convolution: int16 feature data -> fp16 (valid: int16; SDP converts precision after direct convolution only)}}
  %y = dla.sdp on_the_fly %c : tensor<1x16x6x6xi16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

// An int16 image pipeline's SDP writes int16 or fp16 (as after a direct
// convolution), not int8.
func.func @otf_after_image(%x: tensor<1x4x8x8xui8>, %w: tensor<16x3x3x3xi16>) -> tensor<1x16x6x6xi8> {
  %c = dla.conv image %x, %w : tensor<1x4x8x8xui8>, tensor<16x3x3x3xi16> -> tensor<1x16x6x6xi16>
  // expected-error @+1 {{invalid precision conversion for on-the-fly SDP layer after image input convolution: int16 feature data -> int8 (valid: int16, fp16; on-the-fly SDP keeps the bit depth or widens int8 to int16)}}
  %y = dla.sdp on_the_fly %c : tensor<1x16x6x6xi16> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

func.func @otf_after_image_fp16(%x: tensor<1x4x8x8xui8>, %w: tensor<16x3x3x3xi16>) -> tensor<1x16x6x6xf16> {
  %c = dla.conv image %x, %w : tensor<1x4x8x8xui8>, tensor<16x3x3x3xi16> -> tensor<1x16x6x6xi16>
  %y = dla.sdp on_the_fly %c : tensor<1x16x6x6xi16> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

// The table's "corresponding weight precision" is enforced.
func.func @weight_precision(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi16>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{'dla.conv' op weight precision int16 does not match the convolution table: int8 feature data -> int8 needs int8 weights}}
  %y = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi16> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

func.func @image_weight_precision(%x: tensor<1x4x8x8xui16>, %w: tensor<16x3x3x3xi8>) -> tensor<1x16x6x6xf16> {
  // expected-error @+1 {{'dla.conv' op weight precision int8 does not match the convolution table: integer image input -> fp16 needs fp16 weights}}
  %y = dla.conv image %x, %w : tensor<1x4x8x8xui16>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xf16>
  return %y : tensor<1x16x6x6xf16>
}

// -----

// Every invalid op is reported, not only the first.
func.func @all_reported(%x: tensor<1x16x8x8xi8>) -> (tensor<1x16x8x8xf16>, tensor<1x16x4x4xi16>) {
  // expected-error @+1 {{invalid precision conversion for LRN layer: int8 feature data -> fp16 (valid: int8)}}
  %a = dla.lrn %x size 5 : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xf16>
  // expected-error @+1 {{invalid precision conversion for pooling layer: int8 feature data -> int16 (valid: int8)}}
  %b = dla.pool average %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xi16>
  return %a, %b : tensor<1x16x8x8xf16>, tensor<1x16x4x4xi16>
}

// -----

// Erratum 5: T_R16_F is an fp16 format, so it does not convert to int16.
func.func @r16f_to_int16(%f: tensor<1x1x8x8xf16, #dla.pixel<T_R16_F>>, %w: tensor<4x1x3x3xi16>) -> tensor<1x4x6x6xi16> {
  // expected-error @+1 {{invalid precision conversion for convolution layer: fp16 image input -> int16 (valid: fp16)}}
  %a = dla.conv image %f, %w : tensor<1x1x8x8xf16, #dla.pixel<T_R16_F>>, tensor<4x1x3x3xi16> -> tensor<1x4x6x6xi16>
  return %a : tensor<1x4x6x6xi16>
}
