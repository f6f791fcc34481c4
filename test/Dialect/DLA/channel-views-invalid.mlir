// Every diagnostic of dla.channel_slice / dla.channel_concat's verifiers.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @offset_off_atom(%x: tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.channel_slice' op result starts at channel 4, not on a channel atom of 8 channels: a view is whole surfaces of its parent}}
  %v = dla.channel_slice %x [4] : tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
  return
}

// -----

func.func @partial_atom_inside(%x: tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.channel_slice' op result holds 4 channels, not whole atoms of 8, and does not end with its parent (its last atom's padding would be the parent's next channels)}}
  %v = dla.channel_slice %x [8] : tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x4x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
  return
}

// -----

func.func @own_strides(%x: tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.channel_slice' op result has line, surface and batch strides 32, 256, 256 bytes, its parent 32, 128, 384: a view shares its parent's strides}}
  %v = dla.channel_slice %x [8] : tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x4x4xi8, #dla.feature<int8, surface_stride = 256, config = nv_small>>
  return
}

// -----

func.func @one_side_encoded(%x: tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.channel_slice' op views NVDLA feature data (#dla.feature) or tensors without encoding on both sides, got 'tensor<1x8x4x4xi8>' and 'tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>>'}}
  %v = dla.channel_slice %x [8] : tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x8x4x4xi8>
  return
}

// -----

func.func @other_config(%x: tensor<1x64x4x4xi8, #dla.feature<int8>>) {
  // expected-error @+1 {{'dla.channel_slice' op result 'tensor<1x32x4x4xi8, #dla.feature<int8, config = nv_small>>' must have the precision and configuration of 'tensor<1x64x4x4xi8, #dla.feature<int8>>'}}
  %v = dla.channel_slice %x [32] : tensor<1x64x4x4xi8, #dla.feature<int8>> -> tensor<1x32x4x4xi8, #dla.feature<int8, config = nv_small>>
  return
}

// -----

func.func @beyond(%x: tensor<1x24x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_slice' op channels 16 .. 31 lie beyond the source's 24}}
  %v = dla.channel_slice %x [16] : tensor<1x24x4x4xi8> -> tensor<1x16x4x4xi8>
  return
}

// -----

func.func @rows(%x: tensor<1x24x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_slice' op result 'tensor<1x8x2x4xi8>' must have the N, H and W of 'tensor<1x24x4x4xi8>'}}
  %v = dla.channel_slice %x [0] : tensor<1x24x4x4xi8> -> tensor<1x8x2x4xi8>
  return
}

// -----

func.func @element(%x: tensor<1x24x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_slice' op result 'tensor<1x8x4x4xi16>' must have the element type of 'tensor<1x24x4x4xi8>'}}
  %v = dla.channel_slice %x [0] : tensor<1x24x4x4xi8> -> tensor<1x8x4x4xi16>
  return
}

// -----

func.func @rank(%x: tensor<24x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_slice' op takes NCHW tensors (rank 4), got 'tensor<8x4x4xi8>' and 'tensor<24x4x4xi8>'}}
  %v = dla.channel_slice %x [0] : tensor<24x4x4xi8> -> tensor<8x4x4xi8>
  return
}

// -----

func.func @concat_sum(%a: tensor<1x8x4x4xi8>, %b: tensor<1x8x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_concat' op inputs hold 16 channels or more, the result 24: they must add up}}
  %y = dla.channel_concat %a, %b : tensor<1x8x4x4xi8>, tensor<1x8x4x4xi8> -> tensor<1x24x4x4xi8>
  return
}

// -----

func.func @concat_empty() {
  // expected-error @+1 {{'dla.channel_concat' op joins at least one input}}
  %y = "dla.channel_concat"() : () -> tensor<1x8x4x4xi8>
  return
}

// -----

#V = #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>
func.func @concat_partial_atom(%a: tensor<1x4x4x4xi8, #V>, %b: tensor<1x4x4x4xi8, #V>) {
  // expected-error @+1 {{'dla.channel_concat' op input 0 holds 4 channels, not whole atoms of 8, and does not end with its parent (its last atom's padding would be the parent's next channels)}}
  %y = dla.channel_concat %a, %b : tensor<1x4x4x4xi8, #V>, tensor<1x4x4x4xi8, #V> -> tensor<1x8x4x4xi8, #dla.feature<int8, config = nv_small>>
  return
}

// -----

#V = #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>
func.func @concat_batch_stride(%a: tensor<2x8x4x4xi8, #V>, %b: tensor<2x8x4x4xi8, #dla.feature<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.channel_concat' op input 1 has line, surface and batch strides 32, 128, 128 bytes, its parent 32, 128, 256: a view shares its parent's strides}}
  %y = dla.channel_concat %a, %b : tensor<2x8x4x4xi8, #V>, tensor<2x8x4x4xi8, #dla.feature<int8, config = nv_small>> -> tensor<2x16x4x4xi8, #dla.feature<int8, config = nv_small>>
  return
}

// -----

func.func @padded_count(%a: tensor<1x1x4x4xi8>, %b: tensor<1x1x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_concat' op places 1 inputs (`at`), it joins 2}}
  %y = dla.channel_concat %a, %b at [0] : tensor<1x1x4x4xi8>, tensor<1x1x4x4xi8> -> tensor<1x9x4x4xi8>
  return
}

// -----

func.func @padded_overlap(%a: tensor<1x4x4x4xi8>, %b: tensor<1x1x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_concat' op input 1 starts at channel 2, before the end of the input before it (channel 4)}}
  %y = dla.channel_concat %a, %b at [0, 2] : tensor<1x4x4x4xi8>, tensor<1x1x4x4xi8> -> tensor<1x5x4x4xi8>
  return
}

// -----

func.func @padded_sum(%a: tensor<1x1x4x4xi8>, %b: tensor<1x1x4x4xi8>) {
  // expected-error @+1 {{'dla.channel_concat' op inputs hold 9 channels or more, the result 16: they must add up}}
  %y = dla.channel_concat %a, %b at [0, 8] : tensor<1x1x4x4xi8>, tensor<1x1x4x4xi8> -> tensor<1x16x4x4xi8>
  return
}

// -----

// nv_small int8: atoms of 8 channels. Input 0 (channels 0 .. 2) ends
// inside the atom of channels 0 .. 7; input 1 starts at 4, inside it.
#V = #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>
func.func @padded_gap_short(%a: tensor<1x3x4x4xi8, #V>, %b: tensor<1x1x4x4xi8, #V>) {
  // expected-error @+1 {{'dla.channel_concat' op input 0 ends inside the atom of channels 0 .. 7, and the next input starts at channel 4: its padding would be that input's channels (a padded concatenation starts each input on a whole atom)}}
  %y = dla.channel_concat %a, %b at [0, 4] : tensor<1x3x4x4xi8, #V>, tensor<1x1x4x4xi8, #V> -> tensor<1x5x4x4xi8, #V>
  return
}

// -----

// A gap must not start a view off its atom either.
#V = #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>
func.func @padded_off_atom(%a: tensor<1x3x4x4xi8, #V>, %b: tensor<1x1x4x4xi8, #V>) {
  // expected-error @+1 {{'dla.channel_concat' op input 1 starts at channel 9, not on a channel atom of 8 channels: a view is whole surfaces of its parent}}
  %y = dla.channel_concat %a, %b at [0, 9] : tensor<1x3x4x4xi8, #V>, tensor<1x1x4x4xi8, #V> -> tensor<1x10x4x4xi8, #V>
  return
}
