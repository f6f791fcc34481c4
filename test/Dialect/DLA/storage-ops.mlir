// RUN: dla-opt %s -split-input-file -verify-diagnostics | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @round_trip
// CHECK: %[[B:.*]] = dla.to_storage %{{.*}} : tensor<1x20x5x6xf16, #dla.feature<fp16>> -> tensor<1920xi8>
// CHECK: dla.from_storage %[[B]] : tensor<1920xi8> -> tensor<1x20x5x6xf16, #dla.feature<fp16>>
func.func @round_trip(%t: tensor<1x20x5x6xf16, #dla.feature<fp16>>) -> tensor<1x20x5x6xf16, #dla.feature<fp16>> {
  %b = dla.to_storage %t : tensor<1x20x5x6xf16, #dla.feature<fp16>> -> tensor<1920xi8>
  %r = dla.from_storage %b : tensor<1920xi8> -> tensor<1x20x5x6xf16, #dla.feature<fp16>>
  return %r : tensor<1x20x5x6xf16, #dla.feature<fp16>>
}

// -----

func.func @wrong_size(%t: tensor<1x20x5x6xf16, #dla.feature<fp16>>) -> tensor<1000xi8> {
  // expected-error @+1 {{'dla.to_storage' op storage of 'tensor<1x20x5x6xf16, #dla.feature<fp16>>' is 1920 bytes, but 'tensor<1000xi8>' holds 1000}}
  %b = dla.to_storage %t : tensor<1x20x5x6xf16, #dla.feature<fp16>> -> tensor<1000xi8>
  return %b : tensor<1000xi8>
}

// -----

func.func @from_wrong_size(%b: tensor<2049xi8>) -> tensor<1x3x5x30xi8, #dla.chunked<crouton>> {
  // expected-error @+1 {{'dla.from_storage' op storage of 'tensor<1x3x5x30xi8, #dla.chunked<crouton>>' is 2048 bytes, but 'tensor<2049xi8>' holds 2049}}
  %t = dla.from_storage %b : tensor<2049xi8> -> tensor<1x3x5x30xi8, #dla.chunked<crouton>>
  return %t : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
}

// -----

func.func @no_encoding(%t: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'dla.to_storage' op needs a tensor with a dla layout encoding, got 'tensor<4xi8>'}}
  %b = dla.to_storage %t : tensor<4xi8> -> tensor<4xi8>
  return %b : tensor<4xi8>
}

// -----

func.func @dynamic(%t: tensor<1x?x5x6xf16, #dla.feature<fp16>>) -> tensor<1920xi8> {
  // expected-error @+1 {{'dla.to_storage' op needs a static shape, got 'tensor<1x?x5x6xf16, #dla.feature<fp16>>'}}
  %b = dla.to_storage %t : tensor<1x?x5x6xf16, #dla.feature<fp16>> -> tensor<1920xi8>
  return %b : tensor<1920xi8>
}

// -----

func.func @dynamic_bytes(%t: tensor<1x20x5x6xf16, #dla.feature<fp16>>) -> tensor<?xi8> {
  // expected-error @+1 {{'dla.to_storage' op needs a static byte count, got 'tensor<?xi8>'}}
  %b = dla.to_storage %t : tensor<1x20x5x6xf16, #dla.feature<fp16>> -> tensor<?xi8>
  return %b : tensor<?xi8>
}

// -----

// Winograd weights have no bound layout, yet their stream is their storage
// (numpy weight_ref.plan: 33 kernels x 96 channels x 16 taps, 50688 bytes).
// CHECK-LABEL: func.func @winograd_stream
// CHECK: dla.to_storage %{{.*}} : tensor<33x70x3x3xi8, #dla.weight<winograd, int8>> -> tensor<50688xi8>
func.func @winograd_stream(%w: tensor<33x70x3x3xi8, #dla.weight<winograd, int8>>) -> tensor<50688xi8> {
  %b = dla.to_storage %w : tensor<33x70x3x3xi8, #dla.weight<winograd, int8>> -> tensor<50688xi8>
  return %b : tensor<50688xi8>
}

// -----

func.func @compressed(%w: tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>) -> tensor<4608xi8> {
  // expected-error @+1 {{'dla.to_storage' op 'tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>' has no storage type (its buffers depend on the values)}}
  %b = dla.to_storage %w : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<4608xi8>
  return %b : tensor<4608xi8>
}
