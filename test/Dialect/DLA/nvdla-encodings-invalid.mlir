// RUN: dla-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of the NVDLA encodings: element types, ranks, and each
// rule of the format library (strides, alignment, channel counts, x offset
// range, data sizes, shapes, overflow), plus the parser's errors.

// expected-error @+1 {{#dla.feature<int8> holds int8 data in 'i8' elements, got 'f16'}}
func.func @feature_holds_int8_data_elements(%a: tensor<1x8x2x2xf16, #dla.feature<int8>>)

// -----

// expected-error @+1 {{#dla.feature<int8> encodes rank-4 NCHW tensors, got rank 3}}
func.func @feature_encodes_rank_nchw_tensors_rank(%a: tensor<8x2x2xi8, #dla.feature<int8>>)

// -----

// expected-error @+1 {{#dla.feature<int8, line_stride = 48> cannot lay out 'tensor<1x8x2x1xi8>': feature data: line stride 48 bytes is not a multiple of 32 bytes, }}
func.func @feature_feature_data_line_stride_bytes(%a: tensor<1x8x2x1xi8, #dla.feature<int8, line_stride = 48>>)

// -----

// expected-error @+1 {{#dla.feature<int8, line_stride = 64> cannot lay out 'tensor<1x8x2x4xi8>': feature data: line stride 64 bytes is smaller than one line of 4 atoms of 32 bytes (128 bytes)}}
func.func @feature_feature_data_line_stride_bytes_2(%a: tensor<1x8x2x4xi8, #dla.feature<int8, line_stride = 64>>)

// -----

// expected-error @+1 {{#dla.feature<int8, surface_stride = 128> cannot lay out 'tensor<1x8x2x4xi8>': feature data: surface stride 128 bytes is smaller than 2 lines of 128 bytes (256 bytes)}}
func.func @feature_feature_data_surface_stride_bytes(%a: tensor<1x8x2x4xi8, #dla.feature<int8, surface_stride = 128>>)

// -----

// expected-error @+1 {{#dla.feature<int8, surface_stride = 300> cannot lay out 'tensor<1x8x2x4xi8>': feature data: surface stride 300 bytes is not a multiple of 32}}
func.func @feature_feature_data_surface_stride_bytes_2(%a: tensor<1x8x2x4xi8, #dla.feature<int8, surface_stride = 300>>)

// -----

// expected-error @+1 {{#dla.feature<int8, batch_stride = 224> cannot lay out 'tensor<2x8x2x4xi8>': feature data: batch stride 224 bytes is smaller than 1 surfaces of 256 bytes (256 bytes)}}
func.func @feature_feature_data_batch_stride_bytes(%a: tensor<2x8x2x4xi8, #dla.feature<int8, batch_stride = 224>>)

// -----

// expected-error @+1 {{#dla.feature<int8, line_stride = -32> cannot lay out 'tensor<1x8x2x4xi8>': feature data: line stride must not be negative, got -32}}
func.func @feature_feature_data_line_stride_negative(%a: tensor<1x8x2x4xi8, #dla.feature<int8, line_stride = -32>>)

// -----

// expected-error @+1 {{#dla.feature<int8> cannot lay out 'tensor<1x8x2x288230376151711744xi8>': feature data: a line of 288230376151711744 atoms overflows a 64-bit integer}}
func.func @feature_feature_data_line_atoms_overflows(%a: tensor<1x8x2x288230376151711744xi8, #dla.feature<int8>>)

// -----

// expected-error @+2 {{unknown precision 'int4'; expected one of int8, int16, fp16}}
// expected-error @+1 {{failed to parse DLA_FeatureAttr parameter 'precision' which is to be a `::dlaformat::nvdla::Precision`}}
func.func @unknown_precision_int8_int16_fp16(%a: tensor<1x8x2x4xi8, #dla.feature<int4>>)

// -----

// One mistake, one message: the same as every encoding's (ODS struct()),
// and a note with the keys the encoding takes.
// expected-error @+2 {{duplicate or unknown struct parameter name: stride}}
// expected-note @+1 {{#dla.feature takes line_stride, surface_stride, batch_stride and config}}
func.func @unknown_dla_feature_parameter_line_stride(%a: tensor<1x8x2x4xi8, #dla.feature<int8, stride = 32>>)

// -----

// expected-error @+2 {{duplicate or unknown struct parameter name: line_stride}}
// expected-note @+1 {{#dla.feature takes line_stride, surface_stride, batch_stride and config}}
func.func @given_twice(%a: tensor<1x8x2x4xi8, #dla.feature<int8, line_stride = 128, line_stride = 128>>)

// -----

// expected-error @+2 {{duplicate or unknown struct parameter name: stride}}
// expected-note @+1 {{#dla.pixel takes line_stride, x_offset, uv_line_stride, uv_offset and config}}
func.func @pixel_same_message(%a: tensor<1x1x2x4xui8, #dla.pixel<T_R8, stride = 32>>)

// -----

// expected-error @+2 {{unknown pixel format 'T_A8B8G8R9'; expected one of T_R8, T_R10, T_R12, T_R16, T_R16_I, T_R16_F, T_A16B16G16R16, T_X16B16G16R16, T_A16B16G16R}}
// expected-error @+1 {{failed to parse DLA_PixelAttr parameter 'format' which is to be a `::dlaformat::nvdla::PixelFormat`}}
func.func @unknown_pixel_format_t_r8_t(%a: tensor<1x4x8x8xui8, #dla.pixel<T_A8B8G8R9>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8> holds 8-bit integer pixels, got element type 'f16'}}
func.func @pixel_holds_bit_integer_pixels_element(%a: tensor<1x4x8x8xf16, #dla.pixel<T_A8B8G8R8>>)

// -----

// expected-error @+1 {{#dla.pixel<T_R16_F> holds fp16 pixels in f16 elements, got 'ui16'}}
func.func @pixel_holds_fp16_pixels_f16_elements(%a: tensor<1x1x8x8xui16, #dla.pixel<T_R16_F>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8> encodes rank-4 NCHW images, got rank 3}}
func.func @pixel_encodes_rank_nchw_images_rank(%a: tensor<4x8x8xui8, #dla.pixel<T_A8B8G8R8>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8> cannot lay out 'tensor<2x4x8x8xui8>': T_A8B8G8R8: pixel data holds one image, N must be 1, got 2}}
func.func @pixel_t_a8b8g8r8_pixel_data_holds(%a: tensor<2x4x8x8xui8, #dla.pixel<T_A8B8G8R8>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8> cannot lay out 'tensor<1x3x8x8xui8>': T_A8B8G8R8 has 4 channels, the logical shape has C = 3}}
func.func @pixel_t_a8b8g8r8_channels_logical_shape(%a: tensor<1x3x8x8xui8, #dla.pixel<T_A8B8G8R8>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8, x_offset = 9> cannot lay out 'tensor<1x4x8x8xui8>': T_A8B8G8R8: x offset 9 is outside the valid range 0..7}}
func.func @pixel_t_a8b8g8r8_x_offset_outside(%a: tensor<1x4x8x8xui8, #dla.pixel<T_A8B8G8R8, x_offset = 9>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8, uv_line_stride = 64> cannot lay out 'tensor<1x4x8x8xui8>': T_A8B8G8R8 has one plane; a UV line stride or UV plane offset applies to semi-planar formats only}}
func.func @pixel_t_a8b8g8r8_plane_uv_line(%a: tensor<1x4x8x8xui8, #dla.pixel<T_A8B8G8R8, uv_line_stride = 64>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8, line_stride = 40> cannot lay out 'tensor<1x4x8x8xui8>': T_A8B8G8R8: line stride 40 bytes is not a multiple of 32 byte}}
func.func @pixel_t_a8b8g8r8_line_stride_bytes(%a: tensor<1x4x8x8xui8, #dla.pixel<T_A8B8G8R8, line_stride = 40>>)

// -----

// expected-error @+1 {{#dla.pixel<T_A8B8G8R8, line_stride = 0> cannot lay out 'tensor<1x4x8x8xui8>': T_A8B8G8R8: line stride 0 bytes is smaller than 0 + 8 pixels of 4 bytes (32 bytes)}}
func.func @pixel_t_a8b8g8r8_line_stride_bytes_2(%a: tensor<1x4x8x8xui8, #dla.pixel<T_A8B8G8R8, line_stride = 0>>)

// -----

// expected-error @+1 {{#dla.bias<per_channel, int8> holds int8 data in i8 or i16 elements, got 'f16'}}
func.func @bias_holds_int8_data_i8_i16(%a: tensor<64xf16, #dla.bias<per_channel, int8>>)

// -----

// expected-error @+1 {{#dla.bias<per_channel, fp16, data_size = one_byte> cannot lay out 'tensor<64xf16>': per_channel bias data: fp16 data needs the two_byte data size (each fp16 component takes 2 bytes)}}
func.func @bias_channel_bias_data_fp16_data(%a: tensor<64xf16, #dla.bias<per_channel, fp16, data_size = one_byte>>)

// -----

// expected-error @+1 {{#dla.bias<per_channel, int8, line_stride = 32> cannot lay out 'tensor<64xi8>': per_channel bias data: line, surface and batch strides apply to per-element data only}}
func.func @bias_channel_bias_data_line_surface(%a: tensor<64xi8, #dla.bias<per_channel, int8, line_stride = 32>>)

// -----

// expected-error @+1 {{#dla.bias<per_channel, int8> cannot lay out 'tensor<64x2xi8>': per_channel bias data needs a logical [C] shape, got 64x2}}
func.func @bias_channel_bias_data_needs_logical(%a: tensor<64x2xi8, #dla.bias<per_channel, int8>>)

// -----

// expected-error @+1 {{#dla.bias<per_channel, int16, data_size = one_byte> cannot lay out 'tensor<64xi16>': per_channel bias data: logical elements of 2 bytes do not fit the one_byte data size; use a 1-byte element type}}
func.func @bias_channel_bias_data_logical_elements(%a: tensor<64xi16, #dla.bias<per_channel, int16, data_size = one_byte>>)

// -----

// expected-error @+1 {{#dla.batchnorm<per_element, int8> cannot lay out 'tensor<64x2xi8>': batch_norm data is per layer or per channel, not per element}}
func.func @batchnorm_batch_norm_data_layer_channel(%a: tensor<64x2xi8, #dla.batchnorm<per_element, int8>>)

// -----

// expected-error @+1 {{element-wise data has 1 component (ALU or MUL) or 2 (ALU and MUL), got 3}}
func.func @element_wise_data_component(%a: tensor<16x8x8xi8, #dla.eltwise<int8, components = 3>>)

// -----

// expected-error @+1 {{#dla.eltwise<int8, components = 2> cannot lay out 'tensor<16x8x8xi8>': per_element element_wise data needs a logical [C, H, W, 2] or [N, C, H, W, 2] shape, got 16x8x8}}
func.func @eltwise_element_element_wise_data_needs(%a: tensor<16x8x8xi8, #dla.eltwise<int8, components = 2>>)

// -----

// expected-error @+2 {{unknown mode 'per_pixel'; expected one of per_layer, per_channel, per_element}}
// expected-error @+1 {{failed to parse DLA_BiasAttr parameter 'mode' which is to be a `::dlaformat::nvdla::AuxMode`}}
func.func @unknown_mode_layer_channel_element(%a: tensor<64xi8, #dla.bias<per_pixel, int8>>)

// -----

// expected-error @+2 {{unknown data size 'three_byte'; expected one of one_byte, two_byte}}
// expected-error @+1 {{failed to parse DLA_BiasAttr parameter 'data_size' which is to be a `std::optional<::dlaformat::nvdla::DataSize>`}}
func.func @unknown_data_size_byte_two_byte(%a: tensor<64xi8, #dla.bias<per_channel, int8, data_size = three_byte>>)

// -----

// expected-error @+1 {{#dla.prelu<int8> cannot lay out 'tensor<64x1xi8>': per_channel prelu data needs a logical [C] shape, got 64x1}}
func.func @prelu_channel_prelu_data_needs_logical(%a: tensor<64x1xi8, #dla.prelu<int8>>)

// -----

// expected-error @+1 {{#dla.bias<per_element, int8, line_stride = 16> cannot lay out 'tensor<1x16x2x2xi8>': per_element bias data: line stride 16 bytes is not a mu}}
func.func @bias_element_bias_data_line_stride(%a: tensor<1x16x2x2xi8, #dla.bias<per_element, int8, line_stride = 16>>)

// -----

// nv_small's memory atom is 8 bytes: its strides are 8-byte multiples.
// expected-error @+1 {{#dla.feature<int8, line_stride = 44, config = nv_small> cannot lay out 'tensor<1x8x1x5xi8>': feature data: line stride 44 bytes is not a multiple of 8 bytes, the alignment the NVDLA document requires of feature data cube line strides (its memory atom of 8 bytes)}}
func.func @feature_nv_small_line_stride(%a: tensor<1x8x1x5xi8, #dla.feature<int8, line_stride = 44, config = nv_small>>)

// -----

// expected-error @+1 {{#dla.feature<int8, line_stride = 32, config = nv_small> cannot lay out 'tensor<1x8x1x5xi8>': feature data: line stride 32 bytes is smaller than one line of 5 atoms of 8 bytes (40 bytes)}}
func.func @feature_nv_small_line_too_small(%a: tensor<1x8x1x5xi8, #dla.feature<int8, line_stride = 32, config = nv_small>>)

// -----

// expected-error @+2 {{unknown NVDLA configuration 'nv_tiny'}}
// expected-error @+1 {{failed to parse DLA_FeatureAttr parameter 'config'}}
func.func @feature_unknown_config(%a: tensor<1x8x1x5xi8, #dla.feature<int8, config = nv_tiny>>)

// -----

// expected-error @+2 {{duplicate or unknown struct parameter name: stride}}
// expected-note @+1 {{#dla.bias takes data_size, line_stride, surface_stride, batch_stride and config}}
func.func @bias_keys(%a: tensor<16xi8, #dla.bias<per_channel, int8, stride = 32>>)

// -----

// expected-error @+2 {{duplicate or unknown struct parameter name: size}}
// expected-note @+1 {{#dla.prelu takes data_size and config}}
func.func @prelu_keys(%a: tensor<16xi8, #dla.prelu<int8, size = one_byte>>)

// -----

// expected-error @+2 {{duplicate or unknown struct parameter name: stride}}
// expected-note @+1 {{#dla.eltwise takes components, data_size, line_stride, surface_stride, batch_stride and config}}
func.func @eltwise_keys(%a: tensor<16x2x2xi8, #dla.eltwise<int8, stride = 32>>)

// -----

// A register attribute written as an attribute of its own: its keys too.
// expected-error @+2 {{duplicate or unknown struct parameter name: truncate}}
// expected-note @+1 {{#dla.cvt takes offset, scale and shift}}
func.func @cvt_keys() attributes {c = #dla.cvt<offset = 0, scale = 1, truncate = 0>}

// -----

// expected-error @+1 {{unknown attribute `nosuch` in dialect `dla`}}
func.func private @unknown_mnemonic(%a: tensor<4xi8, #dla.nosuch<int8>>)
