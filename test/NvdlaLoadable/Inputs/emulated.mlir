// A pool, then two ops of NVIDIA's runtime emulator: a softmax of the
// pool's result (returned) and a power of the softmax (returned).
#f = #dla.feature<int8, config = nv_small>
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @main(%x: tensor<1x8x2x2xi8, #f>) -> (tensor<1x8x1x1xi8, #f>, tensor<1x8x1x1xi8, #f>) {
  %p = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x2x2xi8, #f> -> tensor<1x8x1x1xi8, #f>
  %s = dla.emu_softmax %p {input_scale = 0.0625 : f32, output_scale = 0.0078125 : f32} : tensor<1x8x1x1xi8, #f>
  %q = dla.emu_power %s {power = 2.0 : f32, scale = 0.5 : f32, shift = -1.0 : f32, input_scale = 0.125 : f32, output_scale = 0.25 : f32} : tensor<1x8x1x1xi8, #f>
  return %s, %q : tensor<1x8x1x1xi8, #f>, tensor<1x8x1x1xi8, #f>
}
}
