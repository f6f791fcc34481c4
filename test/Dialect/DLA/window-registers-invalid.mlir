// The window fields of dla.pool (NVDLA_PDP.rdl D_POOLING_KERNEL_CFG,
// D_POOLING_PADDING_CFG) and dla.conv (NVDLA_CSC.rdl / NVDLA_CDMA.rdl
// D_WEIGHT_SIZE_EXT_0, D_CONV_STRIDE_EXT, D_DILATION_EXT, D_ZERO_PADDING):
// every limit's message (dla/Format/NvdlaRegisters.h), and the widest
// values each field holds.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @pool_widest(%x: tensor<1x8x16x16xf16>) -> tensor<1x8x2x2xf16> {
  %0 = dla.pool max %x kernel [8, 8] stride [16, 16] pad [7, 7, 7, 7] : tensor<1x8x16x16xf16> -> tensor<1x8x2x2xf16>
  return %0 : tensor<1x8x2x2xf16>
}

// -----

func.func @pool_kernel_width(%x: tensor<1x8x16x16xf16>) -> tensor<1x8x9x5xf16> {
  // expected-error @+1 {{'dla.pool' op kernel[1] = 12 is outside 1..8 (KERNEL_WIDTH: 4-bit enum KERNEL_WIDTH_1..8)}}
  %0 = dla.pool max %x kernel [8, 12] : tensor<1x8x16x16xf16> -> tensor<1x8x9x5xf16>
  return %0 : tensor<1x8x9x5xf16>
}

// -----

func.func @pool_kernel_height(%x: tensor<1x8x16x16xi8>) -> tensor<1x8x8x16xi8> {
  // expected-error @+1 {{'dla.pool' op kernel[0] = 9 is outside 1..8 (KERNEL_HEIGHT: 4-bit enum KERNEL_HEIGHT_1..8)}}
  %0 = dla.pool average %x kernel [9, 1] : tensor<1x8x16x16xi8> -> tensor<1x8x8x16xi8>
  return %0 : tensor<1x8x8x16xi8>
}

// -----

func.func @pool_stride_height(%x: tensor<1x8x18x16xf16>) -> tensor<1x8x2x16xf16> {
  // expected-error @+1 {{'dla.pool' op stride[0] = 17 is outside 1..16 (KERNEL_STRIDE_HEIGHT: 4 bits, stride - 1)}}
  %0 = dla.pool max %x kernel [1, 1] stride [17, 1] : tensor<1x8x18x16xf16> -> tensor<1x8x2x16xf16>
  return %0 : tensor<1x8x2x16xf16>
}

// -----

func.func @pool_pad_right(%x: tensor<1x8x16x16xf16>) -> tensor<1x8x9x17xf16> {
  // expected-error @+1 {{'dla.pool' op pad[3] = 8 is outside 0..7 (PAD_RIGHT: 3-bit unsigned)}}
  %0 = dla.pool max %x kernel [8, 8] pad [0, 0, 0, 8] : tensor<1x8x16x16xf16> -> tensor<1x8x9x17xf16>
  return %0 : tensor<1x8x9x17xf16>
}

// -----

func.func @conv_widest(%x: tensor<1x8x40x40xf16>, %w: tensor<8x8x2x32xf16>) -> tensor<1x8x13x9xf16> {
  %0 = dla.conv direct %x, %w stride [8, 1] pad [31, 63, 0, 0] dilation [32, 1] : tensor<1x8x40x40xf16>, tensor<8x8x2x32xf16> -> tensor<1x8x13x9xf16>
  return %0 : tensor<1x8x13x9xf16>
}

// -----

func.func @conv_kernel_width(%x: tensor<1x8x1x40xf16>, %w: tensor<8x8x1x33xf16>) -> tensor<1x8x1x8xf16> {
  // expected-error @+1 {{'dla.conv' op kernel[1] = 33 is outside 1..32 (WEIGHT_WIDTH_EXT: 5 bits, width - 1)}}
  %0 = dla.conv direct %x, %w : tensor<1x8x1x40xf16>, tensor<8x8x1x33xf16> -> tensor<1x8x1x8xf16>
  return %0 : tensor<1x8x1x8xf16>
}

// -----

func.func @conv_stride_height(%x: tensor<1x8x10x1xi8>, %w: tensor<8x8x1x1xi8>) -> tensor<1x8x2x1xi8> {
  // expected-error @+1 {{'dla.conv' op stride[0] = 9 is outside 1..8 (CONV_Y_STRIDE: 3 bits, stride - 1)}}
  %0 = dla.conv direct %x, %w stride [9, 1] : tensor<1x8x10x1xi8>, tensor<8x8x1x1xi8> -> tensor<1x8x2x1xi8>
  return %0 : tensor<1x8x2x1xi8>
}

// -----

func.func @conv_pad_top(%x: tensor<1x8x1x1xf16>, %w: tensor<8x8x1x1xf16>) -> tensor<1x8x33x1xf16> {
  // expected-error @+1 {{'dla.conv' op pad[0] = 32 is outside 0..31 (PAD_TOP: 5-bit unsigned)}}
  %0 = dla.conv direct %x, %w pad [32, 0, 0, 0] : tensor<1x8x1x1xf16>, tensor<8x8x1x1xf16> -> tensor<1x8x33x1xf16>
  return %0 : tensor<1x8x33x1xf16>
}

// -----

func.func @conv_pad_right(%x: tensor<1x8x1x1xf16>, %w: tensor<8x8x1x1xf16>) -> tensor<1x8x1x65xf16> {
  // expected-error @+1 {{'dla.conv' op pad[3] = 64 is outside 0..63 (PAD_RIGHT: 6-bit unsigned)}}
  %0 = dla.conv direct %x, %w pad [0, 0, 0, 64] : tensor<1x8x1x1xf16>, tensor<8x8x1x1xf16> -> tensor<1x8x1x65xf16>
  return %0 : tensor<1x8x1x65xf16>
}

// -----

func.func @conv_dilation_width(%x: tensor<1x8x1x34xf16>, %w: tensor<8x8x1x2xf16>) -> tensor<1x8x1x1xf16> {
  // expected-error @+1 {{'dla.conv' op dilation[1] = 33 is outside 1..32 (X_DILATION_EXT: 5 bits, dilation - 1)}}
  %0 = dla.conv direct %x, %w dilation [1, 33] : tensor<1x8x1x34xf16>, tensor<8x8x1x2xf16> -> tensor<1x8x1x1xf16>
  return %0 : tensor<1x8x1x1xf16>
}
