// RUN: dla-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown chunked layout preset 'croutons'; expected one of flat, nchw, depth32, crouton, crouton4x1, crouton2x2, crouton2, conv_weight, or a list of (dim, size) pairs}}
func.func @unknown_chunked_layout_preset_flat_nchw(%a: tensor<1x2x3x4xi8, #dla.chunked<croutons>>)

// -----

// expected-error @+1 {{expected a chunked layout preset (flat, nchw, depth32, crouton, crouton4x1, crouton2x2, crouton2, conv_weight) or a list of (dim, size) pairs}}
func.func @chunked_layout_preset_list_pairs(%a: tensor<1x2x3x4xi8, #dla.chunked<42>>)

// -----

// expected-error @+1 {{invalid chunked layout: pair #0 (-1, 0): dimension -1 is out of range [0, 1)}}
func.func @invalid_chunked_layout_pair_dimension_out(%a: tensor<4xi8, #dla.chunked<[(-1, 0), (0, 0)]>>)

// -----

// expected-error @+1 {{invalid chunked layout: pair #1 (0, -4): tile size must be positive (0 means 'all the rest')}}
func.func @invalid_chunked_layout_pair_tile_size(%a: tensor<4xi8, #dla.chunked<[(0, 0), (0, -4)]>>)

// -----

// expected-error @+1 {{invalid chunked layout: pair #2 (0, 0): dimension 0 already has its 'all the rest' pair (#0)}}
func.func @invalid_chunked_layout_pair_dimension_already(%a: tensor<4x4xi8, #dla.chunked<[(0, 0), (1, 0), (0, 0)]>>)

// -----

// expected-error @+1 {{invalid chunked layout: dimension 1 has no (1, 0) pair; every dimension needs exactly one 'all the rest' pair}}
func.func @invalid_chunked_layout_dimension_pair_every(%a: tensor<4x4xi8, #dla.chunked<[(0, 0), (1, 4)]>>)

// -----

// A huge dimension number must not make the verifier allocate by rank.
// expected-error @+1 {{invalid chunked layout: dimension 1 has no (1, 0) pair; every dimension needs exactly one 'all the rest' pair}}
func.func @invalid_chunked_layout_dimension_pair_every_2(%a: tensor<4x4xi8, #dla.chunked<[(0, 0), (1000000000000000, 0)]>>)

// -----

// expected-error @+1 {{invalid chunked layout: pair #2 (0, 4294967296): product of the tile sizes of dimension 0 overflows a 64-bit integer}}
func.func @invalid_chunked_layout_pair_product_tile(%a: tensor<4xi8, #dla.chunked<[(0, 0), (0, 4294967296), (0, 4294967296)]>>)

// -----

// expected-error @+1 {{#dla.chunked<crouton> has rank 4 but the tensor has rank 3}}
func.func @chunked_rank_but_tensor_rank(%a: tensor<3x5x30xi8, #dla.chunked<crouton>>)

// -----

// expected-error @+1 {{element type 'index' has no storage width; expected an integer or floating-point type}}
func.func @element_type_storage_width_integer_floating(%a: tensor<1x3x5x30xindex, #dla.chunked<crouton>>)

// -----

// expected-error @+1 {{#dla.chunked<crouton> cannot lay out 'tensor<36028797018963968x1x1x1xi8>': storage size of shape 36028797018963968x1x1x1 under layout [(0, 0), (1, 0), (2, 0), (3, 0), (1, 8), (2, 8), (3, 32)] overflows a 64-bit integer}}
func.func @chunked_storage_size_shape_36028797018963968x1x1x1_under(%a: tensor<36028797018963968x1x1x1xi8, #dla.chunked<crouton>>)

// -----

// expected-error @+1 {{#dla.chunked<[(0, 0), (0, 4611686018427387904)]> cannot lay out 'tensor<4611686018427387905xi8>': padding dimension 0 of shape 4611686018427387905 overflows a 64-bit integer}}
func.func @chunked_padding_dimension_shape_overflows_bit(%a: tensor<4611686018427387905xi8, #dla.chunked<[(0, 0), (0, 4611686018427387904)]>>)

// -----

// expected-error @+1 {{#dla.chunked<[(0, 0)]> cannot lay out 'tensor<4611686018427387904xi32>': size in bytes of shape 4611686018427387904 overflows a 64-bit integer}}
func.func @chunked_size_bytes_shape_overflows_bit(%a: tensor<4611686018427387904xi32, #dla.chunked<[(0, 0)]>>)

// -----

func.func @relayout_source_result_same_shape(%a: tensor<2x9x20x50xi32>) {
  // expected-error @+1 {{'dla.relayout' op source and result must have the same shape, got 'tensor<2x9x20x50xi32>' and 'tensor<2x9x20x49xi32, #dla.chunked<crouton>>'}}
  %0 = dla.relayout %a : tensor<2x9x20x50xi32> -> tensor<2x9x20x49xi32, #dla.chunked<crouton>>
  return
}

// -----

func.func @relayout_source_result_same_element_type(%a: tensor<2x9x20x50xi32>) {
  // expected-error @+1 {{'dla.relayout' op source and result must have the same element type, got 'i32' and 'f32'}}
  %0 = dla.relayout %a : tensor<2x9x20x50xi32> -> tensor<2x9x20x50xf32, #dla.chunked<crouton>>
  return
}

// -----

func.func @relayout_source_encoding_row_major_dla(%a: tensor<4xi32, "row_major">) {
  // expected-error @+1 {{'dla.relayout' op source encoding "row_major" is not a DLA layout encoding}}
  %0 = dla.relayout %a : tensor<4xi32, "row_major"> -> tensor<4xi32, #dla.chunked<[(0, 0), (0, 8)]>>
  return
}

// -----

func.func @relayout_result_encoding_row_major_dla(%a: tensor<4xi32>) {
  // expected-error @+1 {{'dla.relayout' op result encoding "row_major" is not a DLA layout encoding}}
  %0 = dla.relayout %a : tensor<4xi32> -> tensor<4xi32, "row_major">
  return
}

// -----

func.func @relayout_operand0_memref(%a: memref<4xi32>) {
  // expected-error @+1 {{'dla.relayout' op operand #0 must be ranked tensor of any type values, but got 'memref<4xi32>'}}
  %0 = "dla.relayout"(%a) : (memref<4xi32>) -> tensor<4xi32>
  return
}

// -----

// A pair's dimension of INT64_MAX: the implied rank (dimension + 1) would wrap.
// expected-error @+1 {{invalid chunked layout: pair #2 (9223372036854775807, 2): dimension 9223372036854775807 leaves no room for the rank (dimension + 1 overflows a 64-bit integer)}}
func.func @invalid_chunked_layout_pair_dimension_leaves(%a: tensor<1x1xi8, #dla.chunked<[(0,0),(1,0),(9223372036854775807,2)]>>) {
  return
}

// -----

func.func @relayout_f32_to_direct_fp16() -> tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> {
  %c = arith.constant dense<0.3> : tensor<16x16x3x3xf32>
  // expected-error @+1 {{'dla.relayout' op source and result must have the same element type, got 'f32' and 'f16'}}
  %w = dla.relayout %c : tensor<16x16x3x3xf32> -> tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
  return %w : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
}

// -----

// f32 weights into integer Winograd taps need the scale that quantizes them.
func.func @relayout_f32_to_winograd_int8_no_scale() -> tensor<16x16x3x3xi8, #dla.weight<winograd, int8>> {
  %c = arith.constant dense<0.3> : tensor<16x16x3x3xf32>
  // expected-error @+1 {{'dla.relayout' op f32 weights relayouted into #dla.weight<winograd, int8> need a scale (stored taps round(G g G^T / scale), e.g. #dla.weight<winograd, int8, scale = 0.0078125>)}}
  %w = dla.relayout %c : tensor<16x16x3x3xf32> -> tensor<16x16x3x3xi8, #dla.weight<winograd, int8>>
  return %w : tensor<16x16x3x3xi8, #dla.weight<winograd, int8>>
}
