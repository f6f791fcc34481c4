// RUN: dla-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: dla-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | dla-opt -split-input-file | FileCheck %s

// NVIDIA's runtime emulator ops: textual round trip, and every verifier
// message.

// CHECK-LABEL: func.func @softmax
// CHECK: dla.emu_softmax %{{.*}} {input_scale = 6.250000e-02 : f32, output_scale = 7.812500e-03 : f32} : tensor<1x40x1x1xi8, #dla.feature<int8, config = nv_small>>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @softmax(%x: tensor<1x40x1x1xi8, #dla.feature<int8, config = nv_small>>) -> tensor<1x40x1x1xi8, #dla.feature<int8, config = nv_small>> {
  %p = dla.emu_softmax %x {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : tensor<1x40x1x1xi8, #dla.feature<int8, config = nv_small>>
  return %p : tensor<1x40x1x1xi8, #dla.feature<int8, config = nv_small>>
}
}

// -----

// CHECK-LABEL: func.func @power
// CHECK: dla.emu_power %{{.*}} {input_scale = 1.000000e+00 : f32, output_scale = 2.500000e-01 : f32, power = 2.000000e+00 : f32, scale = 1.000000e+00 : f32, shift = -5.000000e-01 : f32} : tensor<1x8x4x4xi8>
func.func @power(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi8> {
  %y = dla.emu_power %x {power = 2.0 : f32, scale = 1.0 : f32, shift = -0.5 : f32, input_scale = 1.0 : f32, output_scale = 0.25 : f32} : tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// -----

func.func @softmax_spatial(%x: tensor<1x8x2x1xi8>) -> tensor<1x8x2x1xi8> {
  // expected-error @+1 {{'dla.emu_softmax' op takes the softmax over the channels of a 1xCx1x1 cube (the emulator's axis), got 'tensor<1x8x2x1xi8>'}}
  %p = dla.emu_softmax %x {input_scale = 1.0 : f32, output_scale = 1.0 : f32} : tensor<1x8x2x1xi8>
  return %p : tensor<1x8x2x1xi8>
}

// -----

func.func @batches(%x: tensor<2x8x1x1xi8>) -> tensor<2x8x1x1xi8> {
  // expected-error @+1 {{'dla.emu_softmax' op runs on one batch (NVIDIA's emulator reads batch 0 of its cube), got 'tensor<2x8x1x1xi8>'}}
  %p = dla.emu_softmax %x {input_scale = 1.0 : f32, output_scale = 1.0 : f32} : tensor<2x8x1x1xi8>
  return %p : tensor<2x8x1x1xi8>
}

// -----

func.func @zero_scale(%x: tensor<1x8x1x1xi8>) -> tensor<1x8x1x1xi8> {
  // expected-error @+1 {{'dla.emu_softmax' op attribute 'output_scale' failed to satisfy constraint: 32-bit float attribute whose value is finite and greater than 0}}
  %p = dla.emu_softmax %x {input_scale = 1.0 : f32, output_scale = 0.0 : f32} : tensor<1x8x1x1xi8>
  return %p : tensor<1x8x1x1xi8>
}

// -----

func.func @not_int8(%x: tensor<1x8x1x1xi16>) -> tensor<1x8x1x1xi16> {
  // expected-error @+1 {{'dla.emu_power' op operand #0 must be 4D tensor of 8-bit signless integer values, but got 'tensor<1x8x1x1xi16>'}}
  %p = dla.emu_power %x {power = 2.0 : f32, scale = 1.0 : f32, shift = 0.0 : f32, input_scale = 1.0 : f32, output_scale = 1.0 : f32} : tensor<1x8x1x1xi16>
  return %p : tensor<1x8x1x1xi16>
}

// -----

func.func @chunked(%x: tensor<1x8x1x1xi8, #dla.chunked<crouton>>) -> tensor<1x8x1x1xi8, #dla.chunked<crouton>> {
  // expected-error @+1 {{'dla.emu_power' op reads int8 data without encoding or as NVDLA feature data (#dla.feature), got 'tensor<1x8x1x1xi8, #dla.chunked<crouton>>'}}
  %p = dla.emu_power %x {power = 2.0 : f32, scale = 1.0 : f32, shift = 0.0 : f32, input_scale = 1.0 : f32, output_scale = 1.0 : f32} : tensor<1x8x1x1xi8, #dla.chunked<crouton>>
  return %p : tensor<1x8x1x1xi8, #dla.chunked<crouton>>
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @strided(%x: tensor<1x40x1x1xi8, #dla.feature<int8, surface_stride = 16, config = nv_small>>) -> tensor<1x40x1x1xi8, #dla.feature<int8, surface_stride = 16, config = nv_small>> {
  // expected-error @+1 {{'dla.emu_softmax' op reads its 40 values as consecutive bytes, as NVIDIA's emulator does: the surface stride must be one atom (8 bytes), got 16}}
  %p = dla.emu_softmax %x {input_scale = 1.0 : f32, output_scale = 1.0 : f32} : tensor<1x40x1x1xi8, #dla.feature<int8, surface_stride = 16, config = nv_small>>
  return %p : tensor<1x40x1x1xi8, #dla.feature<int8, surface_stride = 16, config = nv_small>>
}
}
