// RUN: dla-opt %s -split-input-file -verify-diagnostics
//
// MLIR's tensor parser verifies an encoding before it checks that an element
// type was parsed; every dla encoding reports the missing type (this once
// segfaulted in #dla.chunked, the NVDLA aux encodings and #dla.pixel).

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.chunked<[]> has no element type}}
func.func @no_element_type_chunked_empty(%a: tensor<, #dla.chunked<[]>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.chunked<crouton> has no element type}}
func.func @no_element_type_chunked_crouton(%a: tensor<, #dla.chunked<crouton>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.feature<int8> has no element type}}
func.func @no_element_type_feature_int8(%a: tensor<, #dla.feature<int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.pixel<T_A8B8G8R8> has no element type}}
func.func @no_element_type_pixel_t_a8b8g8r8(%a: tensor<, #dla.pixel<T_A8B8G8R8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.bias<per_channel, int16> has no element type}}
func.func @no_element_type_bias_per_channel_int16(%a: tensor<, #dla.bias<per_channel, int16>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.prelu<int8> has no element type}}
func.func @no_element_type_prelu_int8(%a: tensor<, #dla.prelu<int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.batchnorm<per_channel, fp16> has no element type}}
func.func @no_element_type_batchnorm_per_channel_fp16(%a: tensor<, #dla.batchnorm<per_channel, fp16>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.eltwise<int8> has no element type}}
func.func @no_element_type_eltwise_int8(%a: tensor<, #dla.eltwise<int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.weight<direct, int8> has no element type}}
func.func @no_element_type_weight_direct_int8(%a: tensor<, #dla.weight<direct, int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.weight<image, int8, compressed, channels = 4> has no element type}}
func.func @no_element_type_weight_image_int8_compressed_channels_4(%a: tensor<, #dla.weight<image, int8, compressed, channels = 4>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.feature<fp16> has no element type}}
func.func @no_element_type_feature_fp16(%a: tensor<1x2x3x4x, #dla.feature<fp16>>) { return }
