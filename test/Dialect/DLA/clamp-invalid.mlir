// Every diagnostic of dla.clamp: its verifier and the precision table.
// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-check-precision

func.func @inverted(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.clamp' op min 6.000000e+00 must not exceed max 0.000000e+00}}
  %y = dla.clamp %x min 6.0 max 0.0 : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fractional_integer_bounds(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.clamp' op an integer clamp takes integral bounds, got min 0.000000e+00 and max 6.500000e+00}}
  %y = dla.clamp %x min 0.0 max 6.5 : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @shape(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x1xf16> {
  // expected-error @+1 {{'dla.clamp' op output shape must equal the input shape, got 'tensor<1x8x2x2xf16>' and 'tensor<1x8x2x1xf16>'}}
  %y = dla.clamp %x min 0.0 max 6.0 : tensor<1x8x2x2xf16> -> tensor<1x8x2x1xf16>
  return %y : tensor<1x8x2x1xf16>
}

// -----

// The offline SDP's precision table decides: fp16 feature data converts to
// int16 or fp16 only.
func.func @precision(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{invalid precision conversion for SDP layer (offline mode): fp16 feature data -> int8 (valid: int16, fp16)}}
  %y = dla.clamp %x min 0.0 max 6.0 : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

// Integer bounds are the X stages' ALU registers: an int16 shifted left.
func.func @max_not_a_register(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  // expected-error @+1 {{'dla.clamp' op max = 40001 is not an int16 register operand shifted left by 0..31 (BN_ALU_OPERAND << BN_ALU_SHIFT_VALUE)}}
  %y = dla.clamp %x min 0.0 max 40001.0 : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}

// -----

func.func @min_not_a_register(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  // expected-error @+1 {{'dla.clamp' op min = -140737488355328 is not an int16 register operand shifted left by 0..31 (BS_ALU_OPERAND << BS_ALU_SHIFT_VALUE)}}
  %y = dla.clamp %x min -140737488355328.0 max 40000.0 : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}
