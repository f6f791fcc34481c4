// Every diagnostic of dla.pool's integer average registers: ranges (from
// dla/Format/NvdlaRegisters.h), integer average pooling only, seven pad
// registers, and ODS's array length.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @recip_width(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x3x3xi8> {
  // expected-error @+1 {{'dla.pool' op recip_kernel_width = 131072 is outside 0..131071 (RECIP_KERNEL_WIDTH: 17-bit unsigned)}}
  %y = dla.pool average %x kernel [2, 2] recip_kernel_width 131072 : tensor<1x8x4x4xi8> -> tensor<1x8x3x3xi8>
  return %y : tensor<1x8x3x3xi8>
}

// -----

func.func @recip_height(%x: tensor<1x8x4x4xi16>) -> tensor<1x8x3x3xi16> {
  // expected-error @+1 {{'dla.pool' op recip_kernel_height = -1 is outside 0..131071 (RECIP_KERNEL_HEIGHT: 17-bit unsigned)}}
  %y = dla.pool average %x kernel [2, 2] recip_kernel_height -1 : tensor<1x8x4x4xi16> -> tensor<1x8x3x3xi16>
  return %y : tensor<1x8x3x3xi16>
}

// -----

func.func @pad_high(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.pool' op pad_values[2] = 262144 is outside -262144..262143 (PAD_VALUE_3X: 19-bit field, read signed)}}
  %y = dla.pool average %x kernel [3, 3] pad [1, 1, 1, 1] pad_values [0, 0, 262144, 0, 0, 0, 0] : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @pad_low(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.pool' op pad_values[6] = -262145 is outside -262144..262143 (PAD_VALUE_7X: 19-bit field, read signed)}}
  %y = dla.pool average %x kernel [3, 3] pad [1, 1, 1, 1] pad_values [0, 0, 0, 0, 0, 0, -262145] : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @pad_count(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.pool' op attribute 'pad_values' failed to satisfy constraint: i64 dense array attribute with exactly 7 elements}}
  %y = dla.pool average %x kernel [3, 3] pad [1, 1, 1, 1] pad_values [1, 2, 3, 4, 5, 6] : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

// fp16 pooling keeps its meaning: integer registers are errors there.
func.func @fp16_pad(%x: tensor<1x8x4x4xf16>) -> tensor<1x8x4x4xf16> {
  // expected-error @+1 {{'dla.pool' op pad_values is an integer register: this PDP computes in fp16}}
  %y = dla.pool average %x kernel [3, 3] pad [1, 1, 1, 1] pad_values [0, 0, 0, 0, 0, 0, 0] : tensor<1x8x4x4xf16> -> tensor<1x8x4x4xf16>
  return %y : tensor<1x8x4x4xf16>
}

// -----

func.func @fp16_recip(%x: tensor<1x8x4x4xf16>) -> tensor<1x8x3x3xf16> {
  // expected-error @+1 {{'dla.pool' op recip_kernel_width is an integer register: this PDP computes in fp16}}
  %y = dla.pool average %x kernel [2, 2] recip_kernel_width 32768 : tensor<1x8x4x4xf16> -> tensor<1x8x3x3xf16>
  return %y : tensor<1x8x3x3xf16>
}

// -----

func.func @max(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.pool' op pad_values applies to average pooling only (max and min ignore padded positions)}}
  %y = dla.pool max %x kernel [3, 3] pad [1, 1, 1, 1] pad_values [1, 2, 3, 4, 5, 6, 7] : tensor<1x8x4x4xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @min(%x: tensor<1x8x4x4xi16>) -> tensor<1x8x3x3xi16> {
  // expected-error @+1 {{'dla.pool' op recip_kernel_height applies to average pooling only (max and min ignore padded positions)}}
  %y = dla.pool min %x kernel [2, 2] recip_kernel_height 32768 : tensor<1x8x4x4xi16> -> tensor<1x8x3x3xi16>
  return %y : tensor<1x8x3x3xi16>
}

// -----

// A 9-wide window over a 1-wide input padded by 4 on each side has 8
// padded columns: no PAD_VALUE_8X exists (decision 17). KERNEL_WIDTH holds
// 1..8 and the padding 0..7 (decision 20), so no window can have 8.
func.func @eight_padded(%x: tensor<1x8x4x1xi8>) -> tensor<1x8x4x1xi8> {
  // expected-error @+1 {{'dla.pool' op kernel[1] = 9 is outside 1..8 (KERNEL_WIDTH: 4-bit enum KERNEL_WIDTH_1..8)}}
  %y = dla.pool average %x kernel [1, 9] pad [0, 0, 4, 4] pad_values [1, 2, 3, 4, 5, 6, 7] : tensor<1x8x4x1xi8> -> tensor<1x8x4x1xi8>
  return %y : tensor<1x8x4x1xi8>
}
