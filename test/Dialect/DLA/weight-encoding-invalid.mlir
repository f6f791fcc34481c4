// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-pack-weights

// Every diagnostic of #dla.weight: its parser, the parameter checks, the
// element type and rank, and each rule of the format library's weight
// layouts (Winograd 3x3, image channels, post-extension limits, shapes,
// overflow).

// expected-error @+1 {{unknown weight format 'conv'; expected one of direct, image, winograd, deconv}}
func.func @unknown_weight_format_direct_image_winograd(%a: tensor<64x32x3x3xi8, #dla.weight<conv, int8>>)

// -----

// expected-error @+1 {{unknown precision 'int4'; expected one of int8, int16, fp16}}
func.func @unknown_precision_int8_int16_fp16(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int4>>)

// -----

// What the configuration's hardware has (spec/defs/*.spec): nv_small and
// nv_large compute int8 only, without Winograd or weight compression.
// expected-error @+1 {{fp16 weights: nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)}}
func.func @fp16_on_nv_small(%a: tensor<64x32x3x3xf16, #dla.weight<direct, fp16, config = nv_small>>)

// -----

// expected-error @+1 {{Winograd weights: nv_large has no Winograd convolution (WINOGRAD_DISABLE)}}
func.func @winograd_on_nv_large(%a: tensor<64x32x3x3xi8, #dla.weight<winograd, int8, config = nv_large>>)

// -----

// expected-error @+1 {{compressed weights: nv_small has no weight compression (WEIGHT_COMPRESSION_DISABLE)}}
func.func @compressed_on_nv_small(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, compressed, config = nv_small>>)

// -----

// expected-error @+1 {{pixelChannels (4) applies to image-input weights only, not to direct weights}}
func.func @pixelchannels_applies_image_input_weights_direct(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, channels = 4>>)

// -----

// expected-error @+1 {{image-input weights need the pixel format's channel count (pixelChannels, e.g. 4 for T_A8B8G8R8), got 0}}
func.func @image_input_weights_need_pixel_format(%a: tensor<64x3x7x7xi8, #dla.weight<image, int8>>)

// -----

// expected-error @+1 {{channels must be positive, got 0}}
func.func @channels_positive(%a: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 0>>)

// -----

// expected-error @+1 {{channel post-extension 2 is not supported for direct weights:}}
func.func @channel_post_extension_supported_direct_weights(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, post_extension = 2>>)

// -----

// expected-error @+1 {{direct weights take no stride (image, Winograd and deconvolution weights do), got stride x 2 and stride y 2}}
func.func @direct_weights_take_stride_stride_x(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, stride = 2>>)

// -----

// expected-error @+1 {{strides must be positive, got stride x 2 and stride y 0}}
func.func @strides_positive_stride_x_stride_y(%a: tensor<64x32x3x3xf16, #dla.weight<deconv, fp16, stride = [0, 2]>>)

// -----

// expected-error @+1 {{Winograd weights need equal strides in x and y, got stride x 2 and stride y 1}}
func.func @winograd_weights_need_equal_strides_x(%a: tensor<64x32x3x3xf16, #dla.weight<winograd, fp16, stride = [1, 2]>>)

// -----

// Ties away from zero is every encoding's default; another rounding is fp16's only.
// expected-error @+1 {{rounding ties-to-even applies to fp16 weights only, not to int8 weights}}
func.func @rounding_ties_to_even_applies_fp16(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, rounding = to_nearest_even>>)

// -----

// expected-error @+2 {{duplicate or unknown struct parameter name: compressed}}
// expected-note @+1 {{#dla.weight takes compressed, channels, post_extension, stride, config, rounding and scale}}
func.func @given_twice(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, compressed, compressed>>)

// -----

// The message ODS's struct() gives the other encodings, and a note with the keys.
// expected-error @+2 {{duplicate or unknown struct parameter name: sparse}}
// expected-note @+1 {{#dla.weight takes compressed, channels, post_extension, stride, config, rounding and scale}}
func.func @unknown_dla_weight_parameter_compressed_channels(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, sparse>>)

// -----

// expected-error @+1 {{unknown NVDLA hardware configuration 'nv_tiny' (known: nv_full, nv_large, nv_small)}}
func.func @unknown_nvdla_hardware_configuration(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, config = nv_tiny>>)

// -----

// expected-error @+1 {{unknown post_extension '3'; expected one of none, auto, 2, 4}}
func.func @unknown_post_extension_none_auto(%a: tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4, post_extension = 3>>)

// -----

// expected-error @+1 {{unknown rounding 'downward'; expected one of to_nearest_even, to_nearest_away}}
func.func @unknown_rounding_nearest_even_nearest_away(%a: tensor<64x32x3x3xf16, #dla.weight<winograd, fp16, rounding = downward>>)

// -----

// expected-error @+1 {{#dla.weight<direct, int8> holds int8 weights in 'i8' elements, got 'f16'}}
func.func @weight_holds_int8_weights_elements(%a: tensor<64x32x3x3xf16, #dla.weight<direct, int8>>)

// -----

// expected-error @+1 {{#dla.weight<direct, int8> encodes rank-4 KCRS weights, got rank 3}}
func.func @weight_encodes_rank_kcrs_weights_rank(%a: tensor<64x32x3xi8, #dla.weight<direct, int8>>)

// -----

// expected-error @+1 {{#dla.weight<winograd, fp16> cannot lay out 'tensor<64x32x5x5xf16>': Winograd weights must be 3x3 after channel extension: a 5x5 (R x S) kernel with stride 1 becomes 5x5 (ceil(R/stride) x ceil(S/stride))}}
func.func @weight_winograd_weights_3x3_after_channel(%a: tensor<64x32x5x5xf16, #dla.weight<winograd, fp16>>)

// -----

// expected-error @+1 {{#dla.weight<image, int8, channels = 4> cannot lay out 'tensor<64x5x7x7xi8>': image-input weights have C = 5 channels but the pixel format has only 4; C is zero-padded up to the pixel format's channel count, never cut}}
func.func @weight_image_input_weights_c_channels(%a: tensor<64x5x7x7xi8, #dla.weight<image, int8, channels = 4>>)

// -----

// expected-error @+1 {{#dla.weight<image, int8, channels = 16, post_extension = 4> cannot lay out 'tensor<64x16x7x7xi8>': channel post-extension 4 combines 4 kernel rows into one channel cube, so it needs S * pixelChannels <= atomic-C / 4 = 16 on nv_full; got S * pixelChannels = 7 * 16 = 112}}
func.func @weight_channel_post_extension_combines_kernel(%a: tensor<64x16x7x7xi8, #dla.weight<image, int8, channels = 16, post_extension = 4>>)

// -----

// expected-error @+1 {{#dla.weight<direct, int8> cannot lay out 'tensor<64x32x0x3xi8>': weight shape K x C x R x S must be positive in every dimension, got 64x32x0x3}}
func.func @weight_weight_shape_k_x_c(%a: tensor<64x32x0x3xi8, #dla.weight<direct, int8>>)

// -----

// expected-error @+1 {{#dla.weight<direct, int8> cannot lay out 'tensor<4611686018427387904x32x3x3xi8>': storage size of direct int8 weights 4611686018427387904x32x3x3 (KCRS) overflows a 64-bit integer}}
func.func @weight_storage_size_direct_int8_weights(%a: tensor<4611686018427387904x32x3x3xi8, #dla.weight<direct, int8>>)

// -----

func.func @weight_constant_result_compressed_dla_weight() {
  // expected-error @+1 {{'dla.weight_constant' op result must have a compressed #dla.weight encoding, got 'tensor<32x16x3x3xi8, #dla.weight<direct, int8>>'}}
  %0 = dla.weight_constant wgs = dense<1> : tensor<128xi8>, wmb = dense<2> : tensor<128xi8>, data = dense<3> : tensor<256xi8> : tensor<32x16x3x3xi8, #dla.weight<direct, int8>>
  return
}

// -----

func.func @weight_constant_wmb_d_tensor_i8() {
  // expected-error @+1 {{'dla.weight_constant' op wmb must be a 1-D tensor of i8, got 'tensor<128xi16>'}}
  %0 = dla.weight_constant wgs = dense<1> : tensor<128xi8>, wmb = dense<2> : tensor<128xi16>, data = dense<3> : tensor<256xi8> : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  return
}

// -----

func.func @weight_constant_data_surface_bytes_multiple() {
  // expected-error @+1 {{'dla.weight_constant' op data surface of 200 bytes is not a multiple of 128 bytes}}
  %0 = dla.weight_constant wgs = dense<1> : tensor<128xi8>, wmb = dense<2> : tensor<128xi8>, data = dense<3> : tensor<200xi8> : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  return
}

// -----

// Winograd weights are packed but cannot be read back: the transform mixes
// nine weights into each stored value.
func.func @weight_winograd_weights_boundlayout_each_stored(%w: tensor<4x4x3x3xf16, #dla.weight<winograd, fp16>>) -> tensor<4x4x3x3xf16> {
  // expected-error @+1 {{#dla.weight<winograd, fp16> cannot lay out 'tensor<4x4x3x3xf16>': Winograd weights are not a BoundLayout: each stored value mixes nine weights, so no element has a byte offset}}
  %0 = arith.constant dense_resource<wino> : tensor<4x4x3x3xf16, #dla.weight<winograd, fp16>>
  %1 = dla.relayout %0 : tensor<4x4x3x3xf16, #dla.weight<winograd, fp16>> -> tensor<4x4x3x3xf16>
  return %1 : tensor<4x4x3x3xf16>
}

{-#
  dialect_resources: {
    builtin: {
      wino: "0x0001000000"
    }
  }
#-}

// -----

// Compressed storage depends on the data, so it cannot be unpacked as a
// fixed layout.
func.func @weight_data_dependent_storage_elements_fixed() -> tensor<2x3x1x2xi8> {
  // expected-error @+1 {{#dla.weight<direct, int8, compressed> has data-dependent storage (sparse compression): its elements have no fixed byte offsets}}
  %0 = arith.constant dense_resource<packed> : tensor<2x3x1x2xi8, #dla.weight<direct, int8, compressed>>
  %1 = dla.relayout %0 : tensor<2x3x1x2xi8, #dla.weight<direct, int8, compressed>> -> tensor<2x3x1x2xi8>
  return %1 : tensor<2x3x1x2xi8>
}

{-#
  dialect_resources: {
    builtin: {
      packed: "0x0001000000"
    }
  }
#-}

// -----

// A scale states how int8 / int16 Winograd taps are quantized: it must be a
// positive, finite number, on integer Winograd weights only.
// expected-error @+1 {{scale must be positive and finite, got 0.000000e+00}}
func.func @winograd_scale_zero(%a: tensor<64x32x3x3xi8, #dla.weight<winograd, int8, scale = 0.0>>)

// -----

// expected-error @+1 {{scale must be positive and finite, got -5.000000e-01}}
func.func @winograd_scale_negative(%a: tensor<64x32x3x3xi8, #dla.weight<winograd, int8, scale = -0.5>>)

// -----

// expected-error @+1 {{scale applies to Winograd weights only (the stored taps are round(G g G^T / scale)), not to direct weights}}
func.func @scale_on_direct(%a: tensor<64x32x3x3xi8, #dla.weight<direct, int8, scale = 0.5>>)

// -----

// expected-error @+1 {{scale applies to int8 / int16 Winograd weights only: fp16 taps are G g G^T rounded to fp16, unscaled}}
func.func @scale_on_fp16(%a: tensor<64x32x3x3xf16, #dla.weight<winograd, fp16, scale = 0.5>>)
