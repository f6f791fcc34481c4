// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-pack-weights --dla-encodings-to-memref

func.func @dynamic(%x: tensor<1x?x5x6xf16>) -> tensor<1x?x5x6xf16, #dla.feature<fp16>> {
  // expected-error @+1 {{--dla-lower-to-memref needs static shapes to size storage, but 'tensor<1x?x5x6xf16, #dla.feature<fp16>>' is dynamic}}
  %y = dla.relayout %x : tensor<1x?x5x6xf16> -> tensor<1x?x5x6xf16, #dla.feature<fp16>>
  return %y : tensor<1x?x5x6xf16, #dla.feature<fp16>>
}

// -----

func.func @compressed(%w: tensor<32x16x3x3xi8>) {
  // expected-error @+1 {{only constants pack into #dla.weight<direct, int8, compressed>: its storage (WGS, WMB, data) depends on the values; --dla-pack-weights folds relayouts of constants into it}}
  %p = dla.relayout %w : tensor<32x16x3x3xi8> -> tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  return
}

// -----

func.func @winograd(%w: tensor<32x16x3x3xf16>) {
  // expected-error @+1 {{only constants pack into #dla.weight<winograd, fp16>: it needs the Winograd transform, which has no element-wise map}}
  %p = dla.relayout %w : tensor<32x16x3x3xf16> -> tensor<32x16x3x3xf16, #dla.weight<winograd, fp16>>
  return
}

// -----

func.func @foreign_op() -> tensor<1x8x2x2xf16, #dla.feature<fp16>> {
  // expected-error @+1 {{'tensor.empty' has a dla-encoded operand or result, which --dla-lower-to-memref cannot lower without losing the encoding}}
  %y = tensor.empty() : tensor<1x8x2x2xf16, #dla.feature<fp16>>
  return %y : tensor<1x8x2x2xf16, #dla.feature<fp16>>
}

// -----

func.func @unpacked_constant() -> tensor<1x3x5x30xi8, #dla.chunked<crouton>> {
  // expected-error @+1 {{an encoded constant must hold its storage bytes as a dense_resource blob; run --dla-pack-weights first}}
  %c = arith.constant dense<1> : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
  return %c : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
}

// -----

func.func @empty() -> tensor<1x3x5x30xi8, #dla.chunked<crouton>> {
  // expected-error @+1 {{'tensor.empty' has a dla-encoded operand or result, which --dla-lower-to-memref cannot lower without losing the encoding}}
  %e = tensor.empty() : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
  return %e : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
}

// -----

func.func @compressed_used() -> tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>> {
  %c = arith.constant dense<1> : tensor<32x16x3x3xi8>
  // expected-error @+1 {{compressed weights have no storage type (their surface sizes depend on the values); --dla-lower-to-memref runs them as a layer's operand only, but 'func.return' uses them}}
  %p = dla.relayout %c : tensor<32x16x3x3xi8> -> tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  return %p : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
}

// -----

func.func @unsigned_bit_fields(%x: tensor<1x4x2x3xui16>) -> tensor<1x4x2x3xui16, #dla.pixel<T_A2B10G10R10>> {
  // expected-error @+1 {{relayout of 'tensor<1x4x2x3xui16, #dla.pixel<T_A2B10G10R10>>': its storage packs bit fields or widens elements, which --dla-lower-to-memref does for signless integers only; use i16}}
  %y = dla.relayout %x : tensor<1x4x2x3xui16> -> tensor<1x4x2x3xui16, #dla.pixel<T_A2B10G10R10>>
  return %y : tensor<1x4x2x3xui16, #dla.pixel<T_A2B10G10R10>>
}

// -----

// A fused convolution's output never reaches memory: no other reader.
func.func @fused_conv_read_elsewhere(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %w: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>) -> (tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<1x16x8x8xf16, #dla.feature<fp16>>) {
  %c = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  // expected-error @+1 {{runs on the fly with a convolution whose result is also read elsewhere, but a fused convolution's output never reaches memory}}
  %y = dla.sdp on_the_fly %c relu : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  return %y, %c : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<1x16x8x8xf16, #dla.feature<fp16>>
}


// -----

func.func @dense_surfaces(%x: tensor<1x16x8x8xi8, #dla.feature<int8>>) -> tensor<1x32x8x8xi8, #dla.feature<int8>> {
  // expected-error @+1 {{compressed weights must hold their WGS, WMB and data surfaces as dense_resource blobs; run --dla-pack-weights first}}
  %w = dla.weight_constant wgs = dense<0> : tensor<128xi8>, wmb = dense<0> : tensor<640xi8>, data = dense<0> : tensor<128xi8> : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
  %y = dla.conv direct %x, %w pad [1, 1, 1, 1] : tensor<1x16x8x8xi8, #dla.feature<int8>>, tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>> -> tensor<1x32x8x8xi8, #dla.feature<int8>>
  return %y : tensor<1x32x8x8xi8, #dla.feature<int8>>
}
