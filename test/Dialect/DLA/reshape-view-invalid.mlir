// Every diagnostic of dla.reshape_view's verifier.
// RUN: dla-opt %s -split-input-file -verify-diagnostics

func.func @rank(%x: tensor<16x40xi8>) {
  // expected-error @+1 {{'dla.reshape_view' op takes NCHW tensors (rank 4), got 'tensor<16x40xi8>' and 'tensor<1x16x5x8xi8>'}}
  %v = dla.reshape_view %x : tensor<16x40xi8> -> tensor<1x16x5x8xi8>
  return
}

// -----

func.func @channels(%x: tensor<1x16x1x40xi8>) {
  // expected-error @+1 {{'dla.reshape_view' op reshapes positions alone: 'tensor<1x8x2x40xi8>' must have the N and C of 'tensor<1x16x1x40xi8>' and as many positions (H x W)}}
  %v = dla.reshape_view %x : tensor<1x16x1x40xi8> -> tensor<1x8x2x40xi8>
  return
}

// -----

func.func @element_type(%x: tensor<1x16x1x40xi8>) {
  // expected-error @+1 {{'dla.reshape_view' op result 'tensor<1x16x5x8xi16>' must have the element type of 'tensor<1x16x1x40xi8>'}}
  %v = dla.reshape_view %x : tensor<1x16x1x40xi8> -> tensor<1x16x5x8xi16>
  return
}

// -----

func.func @one_side_encoded(%x: tensor<1x16x1x40xi8, #dla.feature<int8, config = nv_small>>) {
  // expected-error @+1 {{'dla.reshape_view' op views NVDLA feature data (#dla.feature) or tensors without encoding on both sides, got 'tensor<1x16x1x40xi8, #dla.feature<int8, config = nv_small>>' and 'tensor<1x16x5x8xi8>'}}
  %v = dla.reshape_view %x : tensor<1x16x1x40xi8, #dla.feature<int8, config = nv_small>> -> tensor<1x16x5x8xi8>
  return
}

// -----

// The packed [1, 16, 5, 8] has surfaces of 5 lines of 64 bytes, as the
// source's of one line of 320, but the source is unpacked: surfaces of 384.
func.func @bytes_moved(%x: tensor<1x16x1x40xi8, #dla.feature<int8, surface_stride = 384, config = nv_small>>) {
  // expected-error @+1 {{'dla.reshape_view' op result 'tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>>' does not hold every element of 'tensor<1x16x1x40xi8, #dla.feature<int8, surface_stride = 384, config = nv_small>>' at the same byte: a reshape view moves no byte (lines of W' atoms, the source's surfaces and batches, its lines with no gap)}}
  %v = dla.reshape_view %x : tensor<1x16x1x40xi8, #dla.feature<int8, surface_stride = 384, config = nv_small>> -> tensor<1x16x5x8xi8, #dla.feature<int8, config = nv_small>>
  return
}
