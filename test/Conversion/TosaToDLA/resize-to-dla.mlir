// A nearest tosa.resize by integer factors that repeats pixels (input
// floor(o / s)) is dla.upsample (docs/Resize.md), on nv_small int8 and on
// nv_full fp16; the coordinates as the ONNX importer writes them.
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=SMALL
// RUN: dla-opt %s --dla-convert-tosa -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FULL

// Asymmetric + floor by [2, 3] (offset -n / 2 turns TOSA's rounding into
// a floor), int8.
// SMALL-LABEL: func.func @int8_by_2_3
// SMALL: %[[X:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 3, 1, 2>}
// SMALL: dla.upsample %[[X]] factors [2, 3] : tensor<1x12x4x5xi8> -> tensor<1x12x8x15xi8>
// SMALL-NOT: tosa.resize
// Integer data on an fp16 target stays on the host (resize-host-remarks.mlir).
// FULL-LABEL: func.func @int8_by_2_3
// FULL: tosa.resize
func.func @int8_by_2_3(%x: tensor<1x4x5x12xi8>) -> tensor<1x8x15x12xi8> {
  %s = tosa.const_shape {values = dense<[4, 2, 6, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-2, -3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x4x5x12xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x15x12xi8>
  return %y : tensor<1x8x15x12xi8>
}

// -----

// Half-pixel centres by 4 (offset (d - n) / 2): with an integer factor the
// rounding never ties, o reads floor(o / 4) too. f32 on nv_full runs in
// fp16.
// FULL-LABEL: func.func @f32_half_pixel_by_4
// FULL: dla.upsample %{{.*}} factors [4, 4] : tensor<1x2x3x3xf16> -> tensor<1x2x12x12xf16>
// FULL-NOT: tosa.resize
// SMALL-LABEL: func.func @f32_half_pixel_by_4
// SMALL: tosa.resize
func.func @f32_half_pixel_by_4(%x: tensor<1x3x3x2xf32>) -> tensor<1x12x12x2xf32> {
  %s = tosa.const_shape {values = dense<[8, 2, 8, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-3, -3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[3, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x3x3x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x12x12x2xf32>
  return %y : tensor<1x12x12x2xf32>
}

// -----

// Bilinear by 2, half-pixel centres (torch's align_corners=False: scale
// 4/2, offset -1): dla.upsample with a one-pixel replicated border, then
// the depthwise 3x3 [1, 2, 1] x [1, 2, 1] / 16 without padding, one
// dense convolution per slice of channels (emitDepthwiseSlices). fp16.
// FULL-LABEL: func.func @bilinear_by_2
// FULL: dla.upsample %{{.*}} factors [2, 2] border [1, 1] : tensor<1x2x4x4xf16> -> tensor<1x2x10x10xf16>
// FULL: dla.conv
// FULL-NOT: tosa.resize
// FULL-NOT: tosa.depthwise_conv2d
func.func @bilinear_by_2(%x: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %s = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xf32>
  return %y : tensor<1x8x8x2xf32>
}

// -----

// By 3 down, 4 across (scale [6/2, 8/2], offsets -2 and -3): borders 1 and
// 2, a 3x5 kernel (a box of 3, [1, 2, 2, 2, 1]).
// FULL-LABEL: func.func @bilinear_by_3_4
// FULL: dla.upsample %{{.*}} factors [3, 4] border [1, 2] : tensor<1x3x2x3xf16> -> tensor<1x3x8x16xf16>
// FULL: dla.conv
// FULL-SAME: -> tensor<1x3x6x12xf16>
// FULL-NOT: tosa.resize
func.func @bilinear_by_3_4(%x: tensor<1x2x3x3xf32>) -> tensor<1x6x12x3xf32> {
  %s = tosa.const_shape {values = dense<[6, 2, 8, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-2, -3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x2x3x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x12x3xf32>
  return %y : tensor<1x6x12x3xf32>
}

// -----

// TOSA's integer bilinear (the importer's form of DQ -> Resize (linear) ->
// Q): i8 -> i32, the interpolation times 16, rescaled to i8. On nv_small
// int8: the upsampling, then the depthwise convolution whose integer sum
// is the i32 result, with the rescale as its SDP.
// SMALL-LABEL: func.func @int8_bilinear_by_2
// SMALL: dla.upsample %{{.*}} factors [2, 2] border [1, 1] : tensor<1x8x3x3xi8> -> tensor<1x8x8x8xi8>
// SMALL: dla.conv
// SMALL-NOT: tosa.resize
// SMALL-NOT: tosa.rescale
// Integer data on an fp16 target stays on the host.
// FULL-LABEL: func.func @int8_bilinear_by_2
// FULL: tosa.resize
func.func @int8_bilinear_by_2(%x: tensor<1x3x3x8xi8>) -> tensor<1x6x6x8xi8> {
  %s = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x3x3x8xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x6x8xi32>
  %m = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %sh = "tosa.const"() {values = dense<36> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %r, %m, %sh, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x6x6x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x6x6x8xi8>
  return %y : tensor<1x6x6x8xi8>
}

// -----

// By 32 (the side output's resize to the input): [1, 2, ..., 2, 1] has 33
// taps, more than the kernel fields hold, so it runs as a box of 32 ones
// (/ 1024) then [1, 1] x [1, 1] / 4 (two roundings in fp16). The nearest
// upsampling by 32 is five by 2 (nearest ones compose exactly), the border
// on the last: 5 x 4 SDP passes rather than 32 x 32.
// FULL-LABEL: func.func @bilinear_by_32
// FULL-COUNT-4: dla.upsample %{{.*}} factors [2, 2] :
// FULL: dla.upsample %{{.*}} factors [2, 2] border [16, 16] : tensor<1x1x32x32xf16> -> tensor<1x1x96x96xf16>
// FULL: dla.conv direct %{{.*}}, %{{.*}} : tensor<1x1x96x96xf16>, tensor<1x1x32x32xf16> -> tensor<1x1x65x65xf16>
// FULL: dla.conv direct %{{.*}}, %{{.*}} : tensor<1x1x65x65xf16>, tensor<1x1x2x2xf16> -> tensor<1x1x64x64xf16>
// FULL-NOT: tosa.resize
// Float data on an int8 target stays on the host.
// SMALL-LABEL: func.func @bilinear_by_32
// SMALL: tosa.resize
func.func @bilinear_by_32(%x: tensor<1x2x2x1xf32>) -> tensor<1x64x64x1xf32> {
  %s = tosa.const_shape {values = dense<[64, 2, 64, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-31, -31]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[31, 31]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x2x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x64x64x1xf32>
  return %y : tensor<1x64x64x1xf32>
}

// -----

// TOSA's integer bilinear by 32 (the side output's resize to the input,
// quantized): its 33x33 kernel exceeds the convolution's kernel fields, so
// a box of 32 x 32 ones, its i32 sum (up to 1024 x 128) rounded to its
// int8 mean by an SDP, then [1, 1] x [1, 1] with the resize's rescale
// multiplied by 1024 (docs/Resize.md "Bilinear": within one step of the
// exact result, the remark says so).
// SMALL-LABEL: func.func @int8_bilinear_by_32
// SMALL-COUNT-4: dla.upsample %{{.*}} factors [2, 2] :
// SMALL: dla.upsample %{{.*}} factors [2, 2] border [16, 16] : tensor<1x8x32x32xi8> -> tensor<1x8x96x96xi8>
// SMALL: dla.conv {{.*}} : tensor<1x8x96x96xi8>, tensor<8x{{[0-9]+}}x32x32xi8> -> tensor<1x8x65x65xi8>
// SMALL: dla.sdp on_the_fly
// SMALL: dla.conv {{.*}} : tensor<1x8x65x65xi8>, tensor<8x{{[0-9]+}}x2x2xi8> -> tensor<1x8x64x64xi8>
// SMALL: dla.sdp on_the_fly
// SMALL-NOT: tosa.resize
// SMALL-NOT: tosa.rescale
// On nv_full fp16 integer arithmetic stays on the host.
// FULL-LABEL: func.func @int8_bilinear_by_32
// FULL: tosa.resize
func.func @int8_bilinear_by_32(%x: tensor<1x2x2x8xi8>) -> tensor<1x64x64x8xi8> {
  %s = tosa.const_shape {values = dense<[64, 2, 64, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-31, -31]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[31, 31]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x2x2x8xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x64x64x8xi32>
  %m = "tosa.const"() {values = dense<1431655765> : tensor<1xi32>} : () -> tensor<1xi32>
  %sh = "tosa.const"() {values = dense<42> : tensor<1xi8>} : () -> tensor<1xi8>
  %iz = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %oz = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %r, %m, %sh, %iz, %oz {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x64x64x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x64x64x8xi8>
  return %y : tensor<1x64x64x8xi8>
}
