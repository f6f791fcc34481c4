// Every diagnostic of the SDP's output converter: register ranges (from
// dla/Format/NvdlaRegisters.h), integer pipelines only, and #dla.cvt's own
// syntax (all three registers stated).
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @offset(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op out_cvt.offset = 2147483648 is outside -2147483648..2147483647 (CVT_OFFSET: 32-bit signed)}}
  %y = dla.sdp offline %x out_cvt <offset = 2147483648, scale = 1, shift = 0> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @scale(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op out_cvt.scale = 32768 is outside -32768..32767 (CVT_SCALE: 16-bit signed)}}
  %y = dla.sdp offline %x out_cvt <offset = 0, scale = 32768, shift = 0> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @shift(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.clamp' op out_cvt.shift = 64 is outside 0..63 (CVT_SHIFT: 6-bit unsigned)}}
  %y = dla.clamp %x min 0.0 max 6.0 out_cvt <offset = 0, scale = 1, shift = 64> : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @negative_shift(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op out_cvt.shift = -1 is outside 0..63 (CVT_SHIFT: 6-bit unsigned)}}
  %y = dla.sdp offline %x out_cvt <offset = 0, scale = 1, shift = -1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @float_pipeline(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op out_cvt is an integer register: this SDP computes in fp32}}
  %y = dla.sdp offline %x out_cvt <offset = 0, scale = 1, shift = 0> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @missing_register(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // ODS's struct() wants every register, in any order.
  // expected-error @+1 {{expected ','}}
  %y = dla.sdp offline %x out_cvt <offset = 0, scale = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}
