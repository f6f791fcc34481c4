// RUN: dla-opt %s -split-input-file -verify-diagnostics
//
// MLIR's tensor parser verifies an encoding before it checks that an element
// type was parsed; every dla encoding reports the missing type (this once
// segfaulted in #dla.chunked, the NVDLA aux encodings and #dla.pixel).

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.chunked<[]> has no element type}}
func.func @f(%a: tensor<, #dla.chunked<[]>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.chunked<crouton> has no element type}}
func.func @f(%a: tensor<, #dla.chunked<crouton>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.feature<int8> has no element type}}
func.func @f(%a: tensor<, #dla.feature<int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.pixel<T_A8B8G8R8> has no element type}}
func.func @f(%a: tensor<, #dla.pixel<T_A8B8G8R8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.bias<per_channel, int16> has no element type}}
func.func @f(%a: tensor<, #dla.bias<per_channel, int16>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.prelu<int8> has no element type}}
func.func @f(%a: tensor<, #dla.prelu<int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.batchnorm<per_channel, fp16> has no element type}}
func.func @f(%a: tensor<, #dla.batchnorm<per_channel, fp16>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.eltwise<int8> has no element type}}
func.func @f(%a: tensor<, #dla.eltwise<int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.weight<direct, int8> has no element type}}
func.func @f(%a: tensor<, #dla.weight<direct, int8>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.weight<image, int8, compressed, channels = 4> has no element type}}
func.func @f(%a: tensor<, #dla.weight<image, int8, compressed, channels = 4>>) { return }

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{tensor with encoding #dla.feature<fp16> has no element type}}
func.func @f(%a: tensor<1x2x3x4x, #dla.feature<fp16>>) { return }
