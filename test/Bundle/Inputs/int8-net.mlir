// An int8 network whose every layer runs on nv_small: a 1x1 convolution
// (no bias), its per-tensor rescale (the on-the-fly SDP) and a 2x2 max pool,
// NHWC at the boundary as TOSA has it (the transposes and relayouts there
// are the caller's: the loadable binds NVDLA feature data).
func.func @main(%a0: tensor<1x6x4x8xi8>) -> tensor<1x3x2x4xi8> {
  %w = "tosa.const"() {values = dense<"0xF3E46304EBEE2A16AC3C417449C8D12626325ECA7080937971CCA3D08B642915"> : tensor<4x1x1x8xi8>} : () -> tensor<4x1x1x8xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %wz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = tosa.conv2d %a0, %w, %b, %iz, %wz {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x4x8xi8>, tensor<4x1x1x8xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x4x4xi32>
  %m = "tosa.const"() {values = dense<1518500250> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %c, %m, %s, %z32, %z8 {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x6x4x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x6x4x4xi8>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x4x4xi8>) -> tensor<1x3x2x4xi8>
  return %p : tensor<1x3x2x4xi8>
}
