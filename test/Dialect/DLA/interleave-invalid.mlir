// Every diagnostic of dla.interleave: its constraints and verifier.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @phase_count(%a: tensor<1x8x2x2xi8>, %b: tensor<1x8x2x2xi8>, %c: tensor<1x8x2x2xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.interleave' op takes one input per output phase: factors [2, 2] need 4 inputs, got 3}}
  %y = dla.interleave %a, %b, %c factors [2, 2] : tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @phase_shape(%a: tensor<1x8x2x2xi8>, %b: tensor<1x8x2x3xi8>) -> tensor<1x8x2x4xi8> {
  // expected-error @+1 {{'dla.interleave' op phase 1 must have phase 0's shape and element type, got 'tensor<1x8x2x3xi8>' and 'tensor<1x8x2x2xi8>'}}
  %y = dla.interleave %a, %b factors [1, 2] : tensor<1x8x2x2xi8>, tensor<1x8x2x3xi8> -> tensor<1x8x2x4xi8>
  return %y : tensor<1x8x2x4xi8>
}

// -----

func.func @phase_element(%a: tensor<1x8x2x2xi8>, %b: tensor<1x8x2x2xi16>) -> tensor<1x8x4x2xi8> {
  // expected-error @+1 {{'dla.interleave' op phase 1 must have phase 0's shape and element type, got 'tensor<1x8x2x2xi16>' and 'tensor<1x8x2x2xi8>'}}
  %y = dla.interleave %a, %b factors [2, 1] : tensor<1x8x2x2xi8>, tensor<1x8x2x2xi16> -> tensor<1x8x4x2xi8>
  return %y : tensor<1x8x4x2xi8>
}

// -----

func.func @element_type(%a: tensor<1x8x2x2xf16>, %b: tensor<1x8x2x2xf16>) -> tensor<1x8x4x2xi16> {
  // expected-error @+1 {{'dla.interleave' op copies values: the output element type must equal the inputs', got 'f16' and 'i16'}}
  %y = dla.interleave %a, %b factors [2, 1] : tensor<1x8x2x2xf16>, tensor<1x8x2x2xf16> -> tensor<1x8x4x2xi16>
  return %y : tensor<1x8x4x2xi16>
}

// -----

func.func @channels(%a: tensor<1x8x2x2xi8>, %b: tensor<1x8x2x2xi8>) -> tensor<1x16x4x2xi8> {
  // expected-error @+1 {{'dla.interleave' op output dimension 1 must be the inputs' (8), got 16}}
  %y = dla.interleave %a, %b factors [2, 1] : tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8> -> tensor<1x16x4x2xi8>
  return %y : tensor<1x16x4x2xi8>
}

// -----

// Too many rows: more than H x fy.
func.func @height(%a: tensor<1x8x3x2xi8>, %b: tensor<1x8x3x2xi8>) -> tensor<1x8x7x2xi8> {
  // expected-error @+1 {{'dla.interleave' op output dimension 2 must be the inputs' times the factor, less at most factor - 1 (3 x 2 = 6: 5 to 6), got 7}}
  %y = dla.interleave %a, %b factors [2, 1] : tensor<1x8x3x2xi8>, tensor<1x8x3x2xi8> -> tensor<1x8x7x2xi8>
  return %y : tensor<1x8x7x2xi8>
}

// -----

// Too few columns: a phase would write no column of its last input column
// but one before (every phase writes at least W - 1 columns).
func.func @width(%a: tensor<1x8x1x4xi8>, %b: tensor<1x8x1x4xi8>, %c: tensor<1x8x1x4xi8>) -> tensor<1x8x1x9xi8> {
  // expected-error @+1 {{'dla.interleave' op output dimension 3 must be the inputs' times the factor, less at most factor - 1 (4 x 3 = 12: 10 to 12), got 9}}
  %y = dla.interleave %a, %b, %c factors [1, 3] : tensor<1x8x1x4xi8>, tensor<1x8x1x4xi8>, tensor<1x8x1x4xi8> -> tensor<1x8x1x9xi8>
  return %y : tensor<1x8x1x9xi8>
}

// -----

// A factor of 1: the output's extent is the inputs'.
func.func @unit_factor(%a: tensor<1x8x2x2xi8>, %b: tensor<1x8x2x2xi8>) -> tensor<1x8x4x3xi8> {
  // expected-error @+1 {{'dla.interleave' op output dimension 3 must be the inputs' times the factor (2 x 1 = 2), got 3}}
  %y = dla.interleave %a, %b factors [2, 1] : tensor<1x8x2x2xi8>, tensor<1x8x2x2xi8> -> tensor<1x8x4x3xi8>
  return %y : tensor<1x8x4x3xi8>
}

// -----

func.func @zero_factor(%a: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.interleave' op attribute 'factors' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements whose value is positive}}
  %y = dla.interleave %a factors [0, 1] : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @rank(%a: tensor<8x2x2xi8>) -> tensor<8x2x2xi8> {
  // expected-error @+1 {{'dla.interleave' op operand #0 must be variadic of 4D tensor of NVDLA precision (i8, i16 or f16) values}}
  %y = dla.interleave %a factors [1, 1] : tensor<8x2x2xi8> -> tensor<8x2x2xi8>
  return %y : tensor<8x2x2xi8>
}

// -----

func.func @no_inputs() -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.interleave' op takes one input per output phase: factors [1, 1] need 1 input, got 0}}
  %y = "dla.interleave"() <{factors = array<i64: 1, 1>}> : () -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}
