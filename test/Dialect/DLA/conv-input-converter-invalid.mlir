// Every diagnostic of dla.conv's input converter: register ranges (from
// dla/Format/NvdlaRegisters.h), integer pipelines only, the mean rules of
// docs/IntegerAttributes.md section 6.2, and ODS's array length.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @offset(%x: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op input_cvt.offset = 32768 is outside -32768..32767 (CVT_OFFSET: 16-bit signed)}}
  %y = dla.conv direct %x, %w input_cvt <offset = 32768, scale = 1, shift = 0> : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @scale(%x: tensor<1x8x4x4xi16>, %w: tensor<8x8x1x1xi16>) -> tensor<1x8x4x4xi16> {
  // expected-error @+1 {{'dla.conv' op input_cvt.scale = -32769 is outside -32768..32767 (CVT_SCALE: 16-bit signed)}}
  %y = dla.conv direct %x, %w input_cvt <offset = 0, scale = -32769, shift = 0> : tensor<1x8x4x4xi16>, tensor<8x8x1x1xi16> -> tensor<1x8x4x4xi16>
  return %y : tensor<1x8x4x4xi16>
}

// -----

func.func @shift(%x: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op input_cvt.shift = 64 is outside 0..63 (CVT_TRUNCATE: 6-bit unsigned)}}
  %y = dla.conv direct %x, %w input_cvt <offset = 0, scale = 1, shift = 64> : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @negative_shift(%x: tensor<1x8x4x4xi8>, %w: tensor<8x8x1x1xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op input_cvt.shift = -1 is outside 0..63 (CVT_TRUNCATE: 6-bit unsigned)}}
  %y = dla.conv direct %x, %w input_cvt <offset = 0, scale = 1, shift = -1> : tensor<1x8x4x4xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @mean_range(%x: tensor<1x4x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op mean[1] = 32768 is outside -32768..32767 (MEAN_GU: 16-bit signed)}}
  %y = dla.conv image %x, %w input_cvt <offset = 0, scale = 1, shift = 0> mean [0, 32768, 0, 0] : tensor<1x4x4x4xui8>, tensor<2x3x1x1xi8> -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

func.func @mean_range_ax(%x: tensor<1x4x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op mean[3] = -32769 is outside -32768..32767 (MEAN_AX: 16-bit signed)}}
  %y = dla.conv image %x, %w input_cvt <offset = 0, scale = 1, shift = 0> mean [0, 0, 0, -32769] : tensor<1x4x4x4xui8>, tensor<2x3x1x1xi8> -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

func.func @mean_direct(%x: tensor<1x4x4x4xi8>, %w: tensor<2x4x1x1xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op mean applies to image mode only (MEAN_FORMAT is a pixel-input register)}}
  %y = dla.conv direct %x, %w input_cvt <offset = 0, scale = 1, shift = 0> mean [1, 2, 3, 4] : tensor<1x4x4x4xi8>, tensor<2x4x1x1xi8> -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

func.func @mean_alone(%x: tensor<1x4x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op mean needs input_cvt: the converter subtracts the mean (CVT_EN = 0 passes pixels unchanged)}}
  %y = dla.conv image %x, %w mean [1, 2, 3, 4] : tensor<1x4x4x4xui8>, tensor<2x3x1x1xi8> -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

func.func @mean_and_offset(%x: tensor<1x4x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op input_cvt.offset = 3 is unused with mean (MEAN_FORMAT replaces CVT_OFFSET): write 0}}
  %y = dla.conv image %x, %w input_cvt <offset = 3, scale = 1, shift = 0> mean [1, 2, 3, 4] : tensor<1x4x4x4xui8>, tensor<2x3x1x1xi8> -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

// Four mean registers, one per pixel component (decision 17).
func.func @mean_channels(%x: tensor<1x5x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op mean covers 4 pixel components (MEAN_RY .. MEAN_AX); the image has 5 channels}}
  %y = dla.conv image %x, %w input_cvt <offset = 0, scale = 1, shift = 0> mean [1, 2, 3, 4] : tensor<1x5x4x4xui8>, tensor<2x3x1x1xi8> -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

func.func @mean_count(%x: tensor<1x4x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op attribute 'mean' failed to satisfy constraint: i64 dense array attribute with exactly 4 elements}}
  %y = dla.conv image %x, %w input_cvt <offset = 0, scale = 1, shift = 0> mean [1, 2, 3] : tensor<1x4x4x4xui8>, tensor<2x3x1x1xi8> -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

// fp16 convolutions keep their meaning: integer registers are errors there
// (decision 12), except on integer pixels into an fp16 pipeline (decision
// 21: the converter's integer value becomes fp16); fp16 pixels pass the
// converter unchanged.
func.func @fp16(%x: tensor<1x8x4x4xf16>, %w: tensor<8x8x1x1xf16>) -> tensor<1x8x4x4xf16> {
  // expected-error @+1 {{'dla.conv' op input_cvt is an integer register: this convolution computes in fp32}}
  %y = dla.conv direct %x, %w input_cvt <offset = 0, scale = 1, shift = 0> : tensor<1x8x4x4xf16>, tensor<8x8x1x1xf16> -> tensor<1x8x4x4xf16>
  return %y : tensor<1x8x4x4xf16>
}

// -----

func.func @fp16_image(%x: tensor<1x4x4x4xf16>, %w: tensor<2x3x1x1xf16>) -> tensor<1x2x4x4xf16> {
  // expected-error @+1 {{'dla.conv' op mean is an integer register: this convolution computes in fp32}}
  %y = dla.conv image %x, %w mean [124, 117, 104, 0] : tensor<1x4x4x4xf16>, tensor<2x3x1x1xf16> -> tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}

// -----

// Decision 21 keeps mean's own rule on integer pixels into fp16: it needs
// input_cvt.
func.func @fp16_image_mean_alone(%x: tensor<1x4x4x4xui8>, %w: tensor<2x3x1x1xf16>) -> tensor<1x2x4x4xf16> {
  // expected-error @+1 {{'dla.conv' op mean needs input_cvt: the converter subtracts the mean (CVT_EN = 0 passes pixels unchanged)}}
  %y = dla.conv image %x, %w mean [124, 117, 104, 0] : tensor<1x4x4x4xui8>, tensor<2x3x1x1xf16> -> tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}

// -----

// PAD_VALUE: an int8 pipeline reads the low 8 bits of the 16-bit field.
func.func @pad_value_int8(%x: tensor<1x8x4x4xi8>, %w: tensor<8x8x3x3xi8>) -> tensor<1x8x4x4xi8> {
  // expected-error @+1 {{'dla.conv' op pad_value = 128 is outside -128..127 (PAD_VALUE: an int8 pipeline reads its low 8 bits)}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] pad_value 128 : tensor<1x8x4x4xi8>, tensor<8x8x3x3xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @pad_value_int16(%x: tensor<1x8x4x4xi16>, %w: tensor<8x8x3x3xi16>) -> tensor<1x8x4x4xi16> {
  // expected-error @+1 {{'dla.conv' op pad_value = -32769 is outside -32768..32767 (PAD_VALUE: 16-bit signed)}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] pad_value -32769 : tensor<1x8x4x4xi16>, tensor<8x8x3x3xi16> -> tensor<1x8x4x4xi16>
  return %y : tensor<1x8x4x4xi16>
}

// -----

func.func @pad_value_fp16(%x: tensor<1x8x4x4xf16>, %w: tensor<8x8x3x3xf16>) -> tensor<1x8x4x4xf16> {
  // expected-error @+1 {{'dla.conv' op pad_value is an integer register: this convolution computes in fp32}}
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] pad_value 0 : tensor<1x8x4x4xf16>, tensor<8x8x3x3xf16> -> tensor<1x8x4x4xf16>
  return %y : tensor<1x8x4x4xf16>
}
