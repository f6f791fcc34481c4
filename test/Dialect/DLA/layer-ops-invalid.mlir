// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @conv_operand0_rank3_i8(%x: tensor<16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op operand #0 must be 4D tensor of pixel precision (an integer type or f16) values, but got 'tensor<16x8x8xi8>'}}
  %0 = dla.conv direct %x, %w : tensor<16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_input_element_type_nvdla_precision(%x: tensor<1x16x8x8xui8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op input element type 'ui8' is not an NVDLA precision (i8, i16 or f16)}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xui8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_operand0_rank3_ui8(%x: tensor<4x8x8xui8>, %w: tensor<16x3x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op operand #0 must be 4D tensor of pixel precision (an integer type or f16) values, but got 'tensor<4x8x8xui8>'}}
  %0 = dla.conv image %x, %w : tensor<4x8x8xui8>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_operand0_rank4_f32(%x: tensor<1x4x8x8xf32>, %w: tensor<16x3x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op operand #0 must be 4D tensor of pixel precision (an integer type or f16) values, but got 'tensor<1x4x8x8xf32>'}}
  %0 = dla.conv image %x, %w : tensor<1x4x8x8xf32>, tensor<16x3x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_operand1_rank3_i8(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x9xi8>) {
  // expected-error @+1 {{'dla.conv' op operand #1 must be 4D tensor of NVDLA precision (i8, i16 or f16) values, but got 'tensor<16x16x9xi8>'}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x9xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_operand1_rank4_bf16(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xbf16>) {
  // expected-error @+1 {{'dla.conv' op operand #1 must be 4D tensor of NVDLA precision (i8, i16 or f16) values, but got 'tensor<16x16x3x3xbf16>'}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xbf16> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_result0_rank4_ui8(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op result #0 must be 4D tensor of NVDLA precision (i8, i16 or f16) values, but got 'tensor<1x16x6x6xui8>'}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xui8>
  return
}

// -----

func.func @conv_strides_constraint(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op attribute 'strides' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements whose value is positive}}
  %0 = dla.conv direct %x, %w stride [0, 1] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_padding_constraint(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op attribute 'padding' failed to satisfy constraint: i64 dense array attribute with exactly 4 elements whose value is non-negative}}
  %0 = dla.conv direct %x, %w pad [1, 1] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_dilations_constraint(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op attribute 'dilations' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements whose value is positive}}
  %0 = dla.conv direct %x, %w dilation [1, -1] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_weight_input_channels_but_image(%x: tensor<1x4x8x8xui8>, %w: tensor<16x5x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op weight has 5 input channels but the image has only 4}}
  %0 = dla.conv image %x, %w : tensor<1x4x8x8xui8>, tensor<16x5x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_weight_input_channels_input(%x: tensor<1x16x8x8xi8>, %w: tensor<16x8x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op weight has 8 input channels, the input has 16}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x8x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_output_batch_differs_input_batch(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op output batch 2 differs from input batch 1}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<2x16x6x6xi8>
  return
}

// -----

func.func @conv_output_channels_weight_kernels(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op output has 32 channels, the weight has 16 kernels}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x32x6x6xi8>
  return
}

// -----

func.func @conv_window_height_does_fit_padded(%x: tensor<1x16x2x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op window of height 3 does not fit the padded input height 2}}
  %0 = dla.conv direct %x, %w : tensor<1x16x2x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x1x6xi8>
  return
}

// -----

func.func @conv_output_width(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op output width must be 3, got 6}}
  %0 = dla.conv direct %x, %w stride [1, 2] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_winograd_convolution_needs_equal_strides(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op Winograd convolution needs equal strides, got [1, 2]}}
  %0 = dla.conv winograd %x, %w stride [1, 2] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x3xi8>
  return
}

// -----

func.func @conv_winograd_convolution_does_support_dilation(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op Winograd convolution does not support dilation}}
  %0 = dla.conv winograd %x, %w dilation [2, 2] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @conv_winograd_convolution_needs_3x3_kernel(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x5x5xi8>) {
  // expected-error @+1 {{'dla.conv' op Winograd convolution needs a 3x3 kernel after channel extension, got 5x5 with stride 1 (5x5)}}
  %0 = dla.conv winograd %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x5x5xi8> -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @conv_bias_layer_channel_element(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>, %b: tensor<8xi8>) {
  // expected-error @+1 {{'dla.conv' op bias must be per layer (tensor<>), per channel (tensor<16>) or per element (the output shape), got 'tensor<8xi8>'}}
  %0 = dla.conv direct %x, %w, %b : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8>, tensor<8xi8> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @conv_operand2_rank1_i32(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>, %b: tensor<16xi32>) {
  // expected-error @+1 {{'dla.conv' op operand #2 must be 0D/1D/4D tensor of NVDLA precision (i8, i16 or f16) values, but got 'tensor<16xi32>'}}
  %0 = dla.conv direct %x, %w, %b : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8>, tensor<16xi32> -> tensor<1x16x6x6xi8>
  return
}

// -----

func.func @sdp_output_shape_equal_input_shape(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.sdp' op output shape must equal the input shape, got 'tensor<1x16x8x8xi8>' and 'tensor<1x16x4x4xi8>'}}
  %0 = dla.sdp offline %x : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @sdp_fly_sdp_take_input_directly(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.sdp' op on_the_fly SDP must take its input directly from a dla.conv}}
  %0 = dla.sdp on_the_fly %x : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @sdp_relu_prelu_mutually_exclusive(%x: tensor<1x16x8x8xi8>, %p: tensor<16xi8>) {
  // expected-error @+1 {{'dla.sdp' op relu and prelu are mutually exclusive}}
  %0 = dla.sdp offline %x prelu %p : tensor<16xi8> relu : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @sdp_batchnorm(%x: tensor<1x16x8x8xi8>, %bn: tensor<2x16xi8>) {
  // expected-error @+1 {{'dla.sdp' op batchnorm must be tensor<16x2> (add and multiply per channel), got 'tensor<2x16xi8>'}}
  %0 = dla.sdp offline %x batchnorm %bn : tensor<2x16xi8> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @sdp_operand1_rank2_f32(%x: tensor<1x16x8x8xi8>, %bn: tensor<16x2xf32>) {
  // expected-error @+1 {{'dla.sdp' op operand #1 must be 2D tensor of NVDLA precision (i8, i16 or f16) values, but got 'tensor<16x2xf32>'}}
  %0 = dla.sdp offline %x batchnorm %bn : tensor<16x2xf32> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @sdp_eltwise_operand_output_shape(%x: tensor<1x16x8x8xi8>, %e: tensor<1x16x8x4xi8>) {
  // expected-error @+1 {{'dla.sdp' op eltwise operand must have the output shape, got 'tensor<1x16x8x4xi8>'}}
  %0 = dla.sdp offline %x eltwise %e : tensor<1x16x8x4xi8> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @sdp_operand1_rank2_i8(%x: tensor<1x16x8x8xi8>, %p: tensor<1x16xi8>) {
  // expected-error @+1 {{'dla.sdp' op operand #1 must be 1D/4D tensor of NVDLA precision (i8, i16 or f16) values, but got 'tensor<1x16xi8>'}}
  %0 = dla.sdp offline %x prelu %p : tensor<1x16xi8> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @sdp_prelu(%x: tensor<1x16x8x8xi8>, %p: tensor<8xi8>) {
  // expected-error @+1 {{'dla.sdp' op prelu must be tensor<16> (per channel), got 'tensor<8xi8>'}}
  %0 = dla.sdp offline %x prelu %p : tensor<8xi8> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @pool_kernel_constraint(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.pool' op attribute 'kernel' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements whose value is positive}}
  %0 = dla.pool max %x kernel [2] : tensor<1x16x8x8xi8> -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @pool_output_channels_differs_input_s(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.pool' op output channels 8 differs from the input's 16}}
  %0 = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x8x4x4xi8>
  return
}

// -----

func.func @pool_output_height(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.pool' op output height must be 4, got 7}}
  %0 = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x7x4xi8>
  return
}

// -----

func.func @lrn_output_shape_equal_input_shape(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.lrn' op output shape must equal the input shape, got 'tensor<1x16x8x8xi8>' and 'tensor<1x8x8x8xi8>'}}
  %0 = dla.lrn %x size 5 : tensor<1x16x8x8xi8> -> tensor<1x8x8x8xi8>
  return
}

// -----

// alpha, beta and k sample (k + alpha / size * s)^-beta: a negative k or
// alpha would make table entries NaN.
func.func @lrn_negative_k(%x: tensor<1x16x8x8xf16>) {
  // expected-error @+1 {{'dla.lrn' op has alpha = 1.000000e-04, beta = 7.500000e-01, k = -1.000000e+00: (k + alpha / size * sum of squares)^-beta is a finite real number for every input only with finite values, k > 0 and alpha >= 0}}
  %0 = dla.lrn %x size 5 {k = -1.0 : f32} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  return
}

// -----

func.func @lrn_negative_alpha(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.lrn' op has alpha = -1.000000e+00, beta = 7.500000e-01, k = 1.000000e+00: (k + alpha / size * sum of squares)^-beta}}
  %0 = dla.lrn %x size 5 {alpha = -1.0 : f32} : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @lrn_size_constraint(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.lrn' op attribute 'size' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0 = dla.lrn %x size 0 : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

// Window arithmetic near the int64 limits is reported, never wrapped: a
// dilation of 2^62 on a 5-tap kernel once wrapped to a 1x1 window.
func.func @conv_dilated_kernel_height_overflows_bits(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x5x5xi8>) {
  // expected-error @+1 {{'dla.conv' op dilated kernel height (5 - 1) * 4611686018427387904 + 1 overflows 64 bits}}
  %0 = dla.conv direct %x, %w dilation [4611686018427387904, 4611686018427387904] : tensor<1x16x8x8xi8>, tensor<16x16x5x5xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @conv_dilated_kernel_width_overflows_bits(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x3x3xi8>) {
  // expected-error @+1 {{'dla.conv' op dilated kernel width (3 - 1) * 4611686018427387904 + 1 overflows 64 bits}}
  %0 = dla.conv direct %x, %w dilation [1, 4611686018427387904] : tensor<1x16x8x8xi8>, tensor<16x16x3x3xi8> -> tensor<1x16x6x1xi8>
  return
}

// -----

func.func @pool_padded_input_height_overflows_bits(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.pool' op padded input height 8 + 9223372036854775807 + 9223372036854775807 overflows 64 bits}}
  %0 = dla.pool max %x kernel [2, 2] pad [9223372036854775807, 9223372036854775807, 0, 0] : tensor<1x16x8x8xi8> -> tensor<1x16x1x7xi8>
  return
}

// -----

func.func @pool_padded_input_width_overflows_bits(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.pool' op padded input width 8 + 0 + 9223372036854775807 overflows 64 bits}}
  %0 = dla.pool max %x kernel [2, 2] pad [0, 0, 0, 9223372036854775807] : tensor<1x16x8x8xi8> -> tensor<1x16x7x1xi8>
  return
}

// -----

// The largest padding that fits: the output extent is computed exactly.
func.func @pool_output_height_2(%x: tensor<1x16x8x8xi8>) {
  // expected-error @+1 {{'dla.pool' op output height must be 4611686018427387904, got 1}}
  %0 = dla.pool max %x kernel [1, 1] stride [2, 1] pad [9223372036854775799, 0, 0, 0] : tensor<1x16x8x8xi8> -> tensor<1x16x1x8xi8>
  return
}

// -----

func.func @conv_kernel_height_least(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x0x3xi8>) {
  // expected-error @+1 {{'dla.conv' op kernel height must be at least 1, got 0}}
  %0 = dla.conv direct %x, %w : tensor<1x16x8x8xi8>, tensor<16x16x0x3xi8> -> tensor<1x16x8x6xi8>
  return
}

// -----

// A Winograd stride of INT64_MAX extends a 5x5 kernel to 1x1 (not "-1x-1").
func.func @conv_winograd_convolution_needs_3x3_kernel_2(%x: tensor<1x16x8x8xi8>, %w: tensor<16x16x5x5xi8>) {
  // expected-error @+1 {{'dla.conv' op Winograd convolution needs a 3x3 kernel after channel extension, got 5x5 with stride 9223372036854775807 (1x1)}}
  %0 = dla.conv winograd %x, %w stride [9223372036854775807, 9223372036854775807] : tensor<1x16x8x8xi8>, tensor<16x16x5x5xi8> -> tensor<1x16x1x1xi8>
  return
}

// -----

// An LRN window of INT64_MAX channels: its zero padding once wrapped the
// padded channel extent in --dla-lower-to-reference (found by dla-fuzz-pipeline).
func.func @f(%x: tensor<1x16x1x1xi8>) {
  // expected-error @+1 {{'dla.lrn' op channels padded for the window of size 9223372036854775807, 16 + 4611686018427387903 + 4611686018427387903, overflow 64 bits}}
  %0 = dla.lrn %x size 9223372036854775807 : tensor<1x16x1x1xi8> -> tensor<1x16x1x1xi8>
  return
}
