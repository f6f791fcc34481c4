// dla.as_weights' verifier: a map that cannot be a 1x1 convolution's
// weight stream gets a located error (the format library's reason,
// NvdlaWeightStream.cpp), with or without encodings on an NVDLA target.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @channels_not_whole_atoms(%k: tensor<1x12x5x8xi8>) {
  // expected-error @+1 {{'dla.as_weights' op a map read as 1x1 convolution weights has 12 channels, not a positive multiple of 8: the weight stream packs a short last channel block, the feature cube pads its atom}}
  %w = dla.as_weights %k : tensor<1x12x5x8xi8> -> tensor<40x12x1x1xi8>
  return
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @not_a_kernel_group_wide(%k: tensor<1x16x10x4xi8>) {
  // expected-error @+1 {{'dla.as_weights' op a map read as 1x1 convolution weights is 4 positions wide, not 8: a line of atoms must be one kernel group of atomic-K kernels}}
  %w = dla.as_weights %k : tensor<1x16x10x4xi8> -> tensor<40x16x1x1xi8>
  return
}
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_large>} {
func.func @nv_large(%k: tensor<1x64x5x32xi8>) {
  // expected-error @+1 {{'dla.as_weights' op a map read as 1x1 convolution weights needs a memory atom of atomic-C channels and atomic-C = atomic-K; nv_large has atoms of 32 channels, atomic-C 64, atomic-K 32 (nv_small has 8, 8, 8)}}
  %w = dla.as_weights %k : tensor<1x64x5x32xi8> -> tensor<160x64x1x1xi8>
  return
}
}

// -----

func.func @not_1x1_kernels(%k: tensor<1x16x5x8xi8>) {
  // expected-error @+1 {{'dla.as_weights' op result 'tensor<10x16x2x2xi8>' must be 40x16x1x1: the H x W positions of 'tensor<1x16x5x8xi8>' as 1x1 kernels of its channels}}
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<10x16x2x2xi8>
  return
}

// -----

func.func @batches(%k: tensor<2x16x5x8xi8>) {
  // expected-error @+1 {{'dla.as_weights' op reads one batch (a map [1, C, H, W]), got 'tensor<2x16x5x8xi8>'}}
  %w = dla.as_weights %k : tensor<2x16x5x8xi8> -> tensor<40x16x1x1xi8>
  return
}

// -----

func.func @element_type(%k: tensor<1x16x5x8xi8>) {
  // expected-error @+1 {{'dla.as_weights' op result 'tensor<40x16x1x1xi16>' must have the element type of 'tensor<1x16x5x8xi8>'}}
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi16>
  return
}

// -----

func.func @packed_surfaces(%k: tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.as_weights' op source 'tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>>' is not the weight stream of its kernels: its surfaces must be interleaved line by line, surface stride 64 and line stride 128 bytes, not 320 and 64}}
  %w = dla.as_weights %k : tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>> -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  return
}

// -----

func.func @surface_stride_one_atom_off(%k: tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 144, surface_stride = 72, config = nv_small>>) {
  // expected-error @+1 {{'dla.as_weights' op source 'tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 144, surface_stride = 72, config = nv_small>>' is not the weight stream of its kernels: its surfaces must be interleaved line by line, surface stride 64 and line stride 128 bytes, not 72 and 144}}
  %w = dla.as_weights %k : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 144, surface_stride = 72, config = nv_small>> -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
  return
}

// -----

func.func @other_config(%k: tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>) {
  // expected-error @+1 {{'dla.as_weights' op result 'tensor<40x16x1x1xi8, #dla.weight<direct, int8>>' must be uncompressed direct weights of the source's precision and configuration (#dla.weight<direct, int8, config = nv_small>)}}
  %w = dla.as_weights %k : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> -> tensor<40x16x1x1xi8, #dla.weight<direct, int8>>
  return
}

// -----

func.func @one_side_encoded(%k: tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>) {
  // expected-error @+1 {{'dla.as_weights' op views NVDLA feature data (#dla.feature) as NVDLA weights (#dla.weight), or tensors without encoding on both sides, got 'tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>' and 'tensor<40x16x1x1xi8>'}}
  %w = dla.as_weights %k : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>> -> tensor<40x16x1x1xi8>
  return
}
