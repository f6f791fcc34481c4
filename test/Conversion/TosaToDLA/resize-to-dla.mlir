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
