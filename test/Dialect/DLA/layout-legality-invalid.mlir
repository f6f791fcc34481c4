// RUN: dla-opt %s -split-input-file -verify-diagnostics

// Winograd convolution reading direct weights.
func.func @winograd_direct_weights(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %w: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>) -> tensor<1x16x8x8xf16> {
  // expected-error @+1 {{'dla.conv' op weight has encoding #dla.weight<direct, fp16>, but on target nvdla nv_full it accepts #dla.weight<winograd, fp16>}}
  %y = dla.conv winograd %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> -> tensor<1x16x8x8xf16>
  return %y : tensor<1x16x8x8xf16>
}

// -----

// Image convolution reading feature data.
func.func @image_reads_feature(%x: tensor<1x1x8x8xi8, #dla.feature<int8>>, %w: tensor<16x1x3x3xi8>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{'dla.conv' op input has encoding #dla.feature<int8>, but on target nvdla nv_full it accepts #dla.pixel<T_R8>}}
  %y = dla.conv image %x, %w : tensor<1x1x8x8xi8, #dla.feature<int8>>, tensor<16x1x3x3xi8> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

// A T_R8 image (one channel) with weights padded for four.
func.func @image_channels(%x: tensor<1x1x8x8xui8, #dla.pixel<T_R8>>, %w: tensor<16x1x3x3xi8, #dla.weight<image, int8, channels = 4>>) -> tensor<1x16x6x6xi8> {
  // expected-error @+1 {{'dla.conv' op weight has encoding #dla.weight<image, int8, channels = 4>, but on target nvdla nv_full it accepts #dla.weight<image, int8, channels = 1>}}
  %y = dla.conv image %x, %w : tensor<1x1x8x8xui8, #dla.pixel<T_R8>>, tensor<16x1x3x3xi8, #dla.weight<image, int8, channels = 4>> -> tensor<1x16x6x6xi8>
  return %y : tensor<1x16x6x6xi8>
}

// -----

// Operands swapped: weights as input, feature data as weights.
func.func @swapped(%x: tensor<16x16x3x3xi8, #dla.weight<direct, int8>>, %w: tensor<16x16x3x3xi8, #dla.feature<int8>>) -> tensor<16x16x1x1xi8> {
  // expected-error @+1 {{'dla.conv' op input has encoding #dla.weight<direct, int8>, but on target nvdla nv_full it accepts #dla.feature<int8>}}
  %y = dla.conv direct %x, %w : tensor<16x16x3x3xi8, #dla.weight<direct, int8>>, tensor<16x16x3x3xi8, #dla.feature<int8>> -> tensor<16x16x1x1xi8>
  return %y : tensor<16x16x1x1xi8>
}

// -----

func.func @weight_as_feature(%x: tensor<16x16x3x3xi8, #dla.feature<int8>>, %w: tensor<16x16x3x3xi8, #dla.feature<int8>>) -> tensor<16x16x1x1xi8> {
  // expected-error @+1 {{'dla.conv' op weight has encoding #dla.feature<int8>, but on target nvdla nv_full it accepts #dla.weight<direct, int8>}}
  %y = dla.conv direct %x, %w : tensor<16x16x3x3xi8, #dla.feature<int8>>, tensor<16x16x3x3xi8, #dla.feature<int8>> -> tensor<16x16x1x1xi8>
  return %y : tensor<16x16x1x1xi8>
}

// -----

func.func @output_as_bias(%x: tensor<1x16x3x3xi8, #dla.feature<int8>>, %w: tensor<16x16x3x3xi8, #dla.weight<direct, int8>>) -> tensor<1x16x1x1xi8, #dla.bias<per_element, int8>> {
  // expected-error @+1 {{'dla.conv' op output has encoding #dla.bias<per_element, int8>, but on target nvdla nv_full it accepts #dla.feature<int8>}}
  %y = dla.conv direct %x, %w : tensor<1x16x3x3xi8, #dla.feature<int8>>, tensor<16x16x3x3xi8, #dla.weight<direct, int8>> -> tensor<1x16x1x1xi8, #dla.bias<per_element, int8>>
  return %y : tensor<1x16x1x1xi8, #dla.bias<per_element, int8>>
}

// -----

// nv_small weights in a module that targets nv_full (the default).
func.func @config_default_target(%x: tensor<1x16x3x3xi8, #dla.feature<int8>>, %w: tensor<16x16x3x3xi8, #dla.weight<direct, int8, config = nv_small>>) -> tensor<1x16x1x1xi8> {
  // expected-error @+1 {{'dla.conv' op weight has encoding #dla.weight<direct, int8, config = nv_small>, but on target nvdla nv_full it accepts #dla.weight<direct, int8>}}
  %y = dla.conv direct %x, %w : tensor<1x16x3x3xi8, #dla.feature<int8>>, tensor<16x16x3x3xi8, #dla.weight<direct, int8, config = nv_small>> -> tensor<1x16x1x1xi8>
  return %y : tensor<1x16x1x1xi8>
}

// -----

// nv_full weights in a module that targets nv_small.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @config_module_target(%x: tensor<1x16x3x3xi8, #dla.feature<int8, config = nv_small>>, %w: tensor<16x16x3x3xi8, #dla.weight<direct, int8>>) -> tensor<1x16x1x1xi8> {
    // expected-error @+1 {{'dla.conv' op weight has encoding #dla.weight<direct, int8>, but on target nvdla nv_small it accepts #dla.weight<direct, int8, config = nv_small>}}
    %y = dla.conv direct %x, %w : tensor<1x16x3x3xi8, #dla.feature<int8, config = nv_small>>, tensor<16x16x3x3xi8, #dla.weight<direct, int8>> -> tensor<1x16x1x1xi8>
    return %y : tensor<1x16x1x1xi8>
  }
}

// -----

// Feature data in nv_full's 32-byte atoms read by nv_small, whose atom is
// 8 bytes.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @feature_atom_module_target(%x: tensor<1x16x4x4xi8, #dla.feature<int8>>) -> tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>> {
    // expected-error @+1 {{'dla.sdp' op input has encoding #dla.feature<int8>, but on target nvdla nv_small it accepts #dla.feature<int8, config = nv_small>}}
    %y = dla.sdp offline %x relu : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>>
    return %y : tensor<1x16x4x4xi8, #dla.feature<int8, config = nv_small>>
  }
}

// -----

// nv_small per-element data on the default nv_full target.
func.func @eltwise_atom_default_target(%x: tensor<1x16x4x4xi8, #dla.feature<int8>>, %e: tensor<1x16x4x4xi8, #dla.eltwise<int8, config = nv_small>>) -> tensor<1x16x4x4xi8, #dla.feature<int8>> {
  // expected-error @+1 {{'dla.sdp' op eltwise has encoding #dla.eltwise<int8, config = nv_small>, but on target nvdla nv_full it accepts #dla.eltwise<int8>}}
  %y = dla.sdp offline %x eltwise %e : tensor<1x16x4x4xi8, #dla.eltwise<int8, config = nv_small>> relu : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x4x4xi8, #dla.feature<int8>>
  return %y : tensor<1x16x4x4xi8, #dla.feature<int8>>
}

// -----

// NVDLA layer ops with encodings on an HTP target.
module attributes {dla.target = #dla.target<htp>} {
  func.func @nvdla_op_on_htp(%x: tensor<1x16x4x4xi8, #dla.feature<int8>>) -> tensor<1x16x2x2xi8> {
    // expected-error @+1 {{'dla.pool' op has no layout on target htp, but its tensors carry encodings}}
    %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x2x2xi8>
    return %y : tensor<1x16x2x2xi8>
  }
}

// -----

// SDP operands in each other's formats.
func.func @sdp_operands(%x: tensor<1x16x4x4xi8, #dla.feature<int8>>, %b: tensor<16xi8, #dla.prelu<int8>>) -> tensor<1x16x4x4xi8> {
  // expected-error @+1 {{'dla.sdp' op bias has encoding #dla.prelu<int8>, but on target nvdla nv_full it accepts #dla.bias<per_channel, int8>}}
  %y = dla.sdp offline %x bias %b : tensor<16xi8, #dla.prelu<int8>> : tensor<1x16x4x4xi8, #dla.feature<int8>> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// -----

func.func @sdp_eltwise_chunked(%x: tensor<1x16x4x4xi8>, %e: tensor<1x16x4x4xi8, #dla.chunked<nchw>>) -> tensor<1x16x4x4xi8> {
  // expected-error @+1 {{'dla.sdp' op eltwise has encoding #dla.chunked<nchw>, but on target nvdla nv_full it accepts #dla.eltwise<int8>}}
  %y = dla.sdp offline %x eltwise %e : tensor<1x16x4x4xi8, #dla.chunked<nchw>> : tensor<1x16x4x4xi8> -> tensor<1x16x4x4xi8>
  return %y : tensor<1x16x4x4xi8>
}

// -----

// NCHW feature data read as NHWC crouton: the axes would be reinterpreted.
func.func @relayout_transpose(%x: tensor<1x3x5x30xi8, #dla.feature<int8>>) -> tensor<1x3x5x30xi8, #dla.chunked<crouton>> {
  // expected-error @+1 {{'dla.relayout' op cannot relayout NCHW data (#dla.feature<int8>) as NHWC data (#dla.chunked<crouton>): the encodings read the dimensions in different orders; a transpose is needed first}}
  %y = dla.relayout %x : tensor<1x3x5x30xi8, #dla.feature<int8>> -> tensor<1x3x5x30xi8, #dla.chunked<crouton>>
  return %y : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
}

// -----

func.func @relayout_weight_hwio(%w: tensor<16x16x3x3xi8, #dla.weight<direct, int8>>) -> tensor<16x16x3x3xi8, #dla.chunked<conv_weight>> {
  // expected-error @+1 {{'dla.relayout' op cannot relayout KCRS data (#dla.weight<direct, int8>) as HWIO data (#dla.chunked<conv_weight>): the encodings read the dimensions in different orders; a transpose is needed first}}
  %y = dla.relayout %w : tensor<16x16x3x3xi8, #dla.weight<direct, int8>> -> tensor<16x16x3x3xi8, #dla.chunked<conv_weight>>
  return %y : tensor<16x16x3x3xi8, #dla.chunked<conv_weight>>
}

// -----

// expected-error @+1 {{only NVDLA targets name a configuration, got htp with nv_small}}
module attributes {dla.target = #dla.target<htp, nv_small>} {
}

// -----

// expected-error @+2 {{unknown accelerator 'tpu'; expected one of nvdla, htp}}
// expected-error @+1 {{failed to parse DLA_TargetAttr parameter 'accelerator'}}
module attributes {dla.target = #dla.target<tpu>} {
}
