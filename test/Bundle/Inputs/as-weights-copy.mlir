// k (16 channels) is a channel view of a layer's 32-channel result, read as
// 1x1 convolution weights: layout assignment copies it into the weight
// stream's encoding (test/Dialect/DLA/assign-layouts-as-weights.mlir,
// @slice), a copy between two feature encodings between two layers. The
// layer is a pool: an offline SDP with register operands alone would be
// split per view instead, each writing the stream
// (assign-layouts-weight-stream-layers.mlir).
func.func @attention(%q: tensor<1x16x5x8xi8>, %kin: tensor<1x32x5x8xi8>) -> tensor<1x40x5x8xi8> {
  %kv = dla.pool max %kin kernel [1, 1] : tensor<1x32x5x8xi8> -> tensor<1x32x5x8xi8>
  %k = dla.channel_slice %kv [16] : tensor<1x32x5x8xi8> -> tensor<1x16x5x8xi8>
  %w = dla.as_weights %k : tensor<1x16x5x8xi8> -> tensor<40x16x1x1xi8>
  %y = dla.conv direct %q, %w : tensor<1x16x5x8xi8>, tensor<40x16x1x1xi8> -> tensor<1x40x5x8xi8>
  return %y : tensor<1x40x5x8xi8>
}
