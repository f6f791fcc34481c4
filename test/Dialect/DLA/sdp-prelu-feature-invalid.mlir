// RUN: dla-opt %s -split-input-file -verify-diagnostics
// dla.sdp's prelu read from a layer's 1xCx1x1 result (issue 45: the
// squeeze-excitation's gate read in place): the shape and, on NVDLA, the
// encoding the SDP's per-channel DMA reads.

func.func @prelu_spatial(%x: tensor<1x16x8x8xi8>, %g: tensor<1x16x2x1xi8>) {
  // expected-error @+1 {{'dla.sdp' op prelu read from a layer's result must be tensor<1x16x1x1> (one value per channel), got 'tensor<1x16x2x1xi8>'}}
  %0 = dla.sdp offline %x prelu %g : tensor<1x16x2x1xi8> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

func.func @prelu_channels(%x: tensor<1x16x8x8xi8>, %g: tensor<1x8x1x1xi8>) {
  // expected-error @+1 {{'dla.sdp' op prelu read from a layer's result must be tensor<1x16x1x1> (one value per channel), got 'tensor<1x8x1x1xi8>'}}
  %0 = dla.sdp offline %x prelu %g : tensor<1x8x1x1xi8> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

// One gate per image would need the batch: the SDP reads one run for all.
func.func @prelu_batch(%x: tensor<2x16x8x8xi8>, %g: tensor<2x16x1x1xi8>) {
  // expected-error @+1 {{'dla.sdp' op prelu read from a layer's result must be tensor<1x16x1x1> (one value per channel), got 'tensor<2x16x1x1xi8>'}}
  %0 = dla.sdp offline %x prelu %g : tensor<2x16x1x1xi8> : tensor<2x16x8x8xi8> -> tensor<2x16x8x8xi8>
  return
}

// -----

func.func @prelu_rank3(%x: tensor<1x16x8x8xi8>, %g: tensor<16x1x1xi8>) {
  // expected-error @+1 {{'dla.sdp' op operand #1 must be 1D/4D tensor of NVDLA precision (i8, i16 or f16) values, but got 'tensor<16x1x1xi8>'}}
  %0 = dla.sdp offline %x prelu %g : tensor<16x1x1xi8> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @prelu_eltwise_encoding(%x: tensor<1x16x8x8xi8, #dla.feature<int8, config = nv_small>>, %g: tensor<1x16x1x1xi8, #dla.eltwise<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.sdp' op prelu read from a layer's result must be feature data (#dla.feature), got 'tensor<1x16x1x1xi8, #dla.eltwise<int8, config = nv_small>>'}}
  %0 = dla.sdp offline %x prelu %g : tensor<1x16x1x1xi8, #dla.eltwise<int8, config = nv_small>> bs <mul_operand = prelu> : tensor<1x16x8x8xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x8x8xi8, #dla.feature<int8, config = nv_small>>
  return
}
}

// -----

// A surface stride of two atoms leaves a gap after every 8 channels: the
// SDP would read the gap as channels 8..15.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @prelu_unpacked(%x: tensor<1x16x8x8xi8, #dla.feature<int8, config = nv_small>>, %g: tensor<1x16x1x1xi8, #dla.feature<int8, surface_stride = 16, config = nv_small>>) {
  // expected-error @+1 {{'dla.sdp' op prelu 'tensor<1x16x1x1xi8, #dla.feature<int8, surface_stride = 16, config = nv_small>>': feature data read per channel must be surface-packed (line and surface stride one atom, 8 bytes): the SDP reads its channels as one run, and this cube's surface stride is 16 bytes}}
  %0 = dla.sdp offline %x prelu %g : tensor<1x16x1x1xi8, #dla.feature<int8, surface_stride = 16, config = nv_small>> bs <mul_operand = prelu> : tensor<1x16x8x8xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x8x8xi8, #dla.feature<int8, config = nv_small>>
  return
}
}

// -----

// A rank-4 prelu in the PReLU encoding: #dla.prelu is the 1-D run.
// expected-error @+1 {{#dla.prelu<int8, config = nv_small> cannot lay out 'tensor<1x16x1x1xi8>': per_channel prelu data needs a logical [C] shape, got 1x16x1x1}}
func.func @prelu_prelu_encoding(%x: tensor<1x16x8x8xi8>, %g: tensor<1x16x1x1xi8, #dla.prelu<int8, config = nv_small>>) {
  %0 = dla.sdp offline %x prelu %g : tensor<1x16x1x1xi8, #dla.prelu<int8, config = nv_small>> : tensor<1x16x8x8xi8> -> tensor<1x16x8x8xi8>
  return
}
