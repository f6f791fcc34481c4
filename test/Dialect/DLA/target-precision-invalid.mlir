// Layers the target's configuration cannot run: nv_small and nv_large are
// int8 only (nvdla/hw spec/defs/*.spec FEATURE_DATA_TYPE_INT8) without
// Winograd (WINOGRAD_DISABLE); the capability table in
// dla/Format/NvdlaHardware.h.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @sdp(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
    // expected-error @+1 {{'dla.sdp' op int16 data: nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)}}
    %y = dla.sdp offline %x bs <mul_shift = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
    return %y : tensor<1x8x2x2xi8>
  }
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_large>} {
  func.func @pool(%x: tensor<1x8x4x4xi16>) -> tensor<1x8x2x2xi16> {
    // expected-error @+1 {{'dla.pool' op int16 data: nv_large computes int8 only (FEATURE_DATA_TYPE_INT8)}}
    %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xi16> -> tensor<1x8x2x2xi16>
    return %y : tensor<1x8x2x2xi16>
  }
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @weight(%x: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi16>) -> tensor<1x8x4x4xi8> {
    // expected-error @+1 {{'dla.conv' op int16 data: nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)}}
    %y = dla.conv direct %x, %w : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi16> -> tensor<1x8x4x4xi8>
    return %y : tensor<1x8x4x4xi8>
  }
}

// -----

// fp16 is as absent, and so is Winograd.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @fp16(%x: tensor<1x8x4x4xf16>) -> tensor<1x8x2x2xf16> {
    // expected-error @+1 {{'dla.pool' op fp16 data: nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)}}
    %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xf16> -> tensor<1x8x2x2xf16>
    return %y : tensor<1x8x2x2xf16>
  }
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_large>} {
  func.func @winograd(%x: tensor<1x8x4x4xi8>, %w: tensor<8x8x3x3xi8>) -> tensor<1x8x4x4xi8> {
    // expected-error @+1 {{'dla.conv' op winograd mode: nv_large has no Winograd convolution (WINOGRAD_DISABLE)}}
    %y = dla.conv winograd %x, %w pad [1, 1, 1, 1] : tensor<1x8x4x4xi8>, tensor<8x8x3x3xi8> -> tensor<1x8x4x4xi8>
    return %y : tensor<1x8x4x4xi8>
  }
}

// -----

// The SDP's operands stay 16-bit on nv_small (an int8 network's bias is
// int16): accepted.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @bias(%x: tensor<1x8x2x2xi8>, %b: tensor<8xi16>) -> tensor<1x8x2x2xi8> {
    %y = dla.sdp offline %x bias %b : tensor<8xi16> bs <alu = sum, alu_operand = bias> : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
    return %y : tensor<1x8x2x2xi8>
  }
}

// -----

// nv_full computes int16: accepted.
func.func @full(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  %y = dla.sdp offline %x bs <mul_shift = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}
