// Every diagnostic of dla.upsample: its constraints and verifier.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @element_type(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x4x4xi16> {
  // expected-error @+1 {{'dla.upsample' op copies values: the output element type must equal the input's, got 'i8' and 'i16'}}
  %y = dla.upsample %x factors [2, 2] : tensor<1x8x2x2xi8> -> tensor<1x8x4x4xi16>
  return %y : tensor<1x8x4x4xi16>
}

// -----

func.func @height(%x: tensor<1x8x2x3xi8>) -> tensor<1x8x5x6xi8> {
  // expected-error @+1 {{'dla.upsample' op output dimension 2 must be the input's times the factor (2 x 2 = 4), got 5}}
  %y = dla.upsample %x factors [2, 2] : tensor<1x8x2x3xi8> -> tensor<1x8x5x6xi8>
  return %y : tensor<1x8x5x6xi8>
}

// -----

func.func @width(%x: tensor<1x8x2x3xi8>) -> tensor<1x8x4x6xi8> {
  // expected-error @+1 {{'dla.upsample' op output dimension 3 must be the input's times the factor (3 x 3 = 9), got 6}}
  %y = dla.upsample %x factors [2, 3] : tensor<1x8x2x3xi8> -> tensor<1x8x4x6xi8>
  return %y : tensor<1x8x4x6xi8>
}

// -----

func.func @channels(%x: tensor<1x8x2x2xi8>) -> tensor<1x16x4x4xi8> {
  // expected-error @+1 {{'dla.upsample' op output dimension 1 must be the input's (8 x 1 = 8), got 16}}
  %y = dla.upsample %x factors [2, 2] : tensor<1x8x2x2xi8> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// -----

func.func @zero_factor(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.upsample' op attribute 'factors' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements whose value is positive}}
  %y = dla.upsample %x factors [0, 1] : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @three_factors(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.upsample' op attribute 'factors' failed to satisfy constraint}}
  %y = dla.upsample %x factors [1, 1, 1] : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @rank(%x: tensor<8x2x2xi8>) -> tensor<8x4x4xi8> {
  // expected-error @+1 {{'dla.upsample' op operand #0 must be 4D tensor of NVDLA precision (i8, i16 or f16) values}}
  %y = dla.upsample %x factors [2, 2] : tensor<8x2x2xi8> -> tensor<8x4x4xi8>
  return %y : tensor<8x4x4xi8>
}

// -----

func.func @border_height(%x: tensor<1x8x2x3xi8>) -> tensor<1x8x4x8xi8> {
  // expected-error @+1 {{'dla.upsample' op output dimension 2 must be the input's times the factor plus twice the border (2 x 2 + 2 x 1 = 6), got 4}}
  %y = dla.upsample %x factors [2, 2] border [1, 1] : tensor<1x8x2x3xi8> -> tensor<1x8x4x8xi8>
  return %y : tensor<1x8x4x8xi8>
}

// -----

func.func @border_width(%x: tensor<1x8x2x3xi8>) -> tensor<1x8x4x6xi8> {
  // expected-error @+1 {{'dla.upsample' op output dimension 3 must be the input's times the factor plus twice the border (3 x 2 + 2 x 2 = 10), got 6}}
  %y = dla.upsample %x factors [2, 2] border [0, 2] : tensor<1x8x2x3xi8> -> tensor<1x8x4x6xi8>
  return %y : tensor<1x8x4x6xi8>
}

// -----

func.func @negative_border(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.upsample' op attribute 'border' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements whose value is non-negative}}
  %y = dla.upsample %x factors [2, 2] border [-1, 0] : tensor<1x8x2x2xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}
