// RUN: dla-opt %s --dla-convert-tosa -split-input-file -verify-diagnostics
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// A tosa.resize that is no nearest repeat of the target's data
// (resize-to-dla.mlir) stays on the host with a remark saying what it is
// and which NVDLA program it would be (whyNotResize; docs/Resize.md,
// docs/WholeNetworks.md "Resize on NVDLA"): the resizes as the ONNX
// importer writes torch's exports (python/dla/onnx/ops_shape.py).

// Nearest by 2 in f32 on an int8 target: a copy, but of float data (a
// quantized network's float resize between dequantize and quantize).
func.func @nearest_f32_on_int8(%x: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %s = tosa.const_shape {values = dense<[8, 4, 8, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-4, -4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xf32>
  return %y : tensor<1x8x8x2xf32>
}
// SMALL: resize-host-remarks.mlir:[[# @LINE - 3]]:8: remark: stays on the host: it computes in f32 and the target in int8: a float op runs there only quantized

// -----

// Bilinear by 2, asymmetric (o / 2: scale 2/1, offset 0).
func.func @bilinear_asymmetric(%x: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %s = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @+1 {{stays on the host: a bilinear resize by [2, 2] with asymmetric coordinates: its kernel is a triangle whose last rows and columns read past the edge, not written (half-pixel centres run as an upsampling with a replicated border and a depthwise convolution)}}
  %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xf32>
  return %y : tensor<1x8x8x2xf32>
}

// -----

// A float bilinear by 2 on an int8 target (a quantized network's resize
// the importer could not raise to int8: docs/Resize.md).
func.func @bilinear_f32_on_int8(%x: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %s = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xf32>
  return %y : tensor<1x8x8x2xf32>
}
// SMALL: resize-host-remarks.mlir:[[# @LINE - 3]]:8: remark: stays on the host: it computes in f32 and the target in int8: a float op runs there only quantized

// -----

// align_corners: o (4 - 1) / (8 - 1), scale 7/3.
func.func @bilinear_align_corners(%x: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %s = tosa.const_shape {values = dense<[7, 3, 7, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @+1 {{stays on the host: a bilinear resize by [2, 2] with corner-aligned or shifted coordinates (scale [7/3, 7/3]): its weights differ per output position, no deconvolution kernel computes it}}
  %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xf32>
  return %y : tensor<1x8x8x2xf32>
}

// -----

// A downsampling: no integer factor.
func.func @nearest_down(%x: tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32> {
  %s = tosa.const_shape {values = dense<[4, 8, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-2, -2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[-6, -6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @+1 {{stays on the host: a nearest-neighbour resize from 8x8 to 4x4: not an integer upsampling, which no NVDLA layer computes (NVDLA upsamples by integer factors)}}
  %y = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x8x8x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// -----

// Nearest with offset 0 rounds to the nearer source pixel (ONNX
// asymmetric + round_prefer_ceil): not a repeat of floor(o / 2).
func.func @nearest_rounded(%x: tensor<1x4x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %s = tosa.const_shape {values = dense<[8, 4, 8, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @+1 {{stays on the host: a nearest-neighbour resize by [2, 2] with corner-aligned or shifted coordinates (scale [8/4, 8/4]): its weights differ per output position, no deconvolution kernel computes it}}
  %y = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x2xf32>
  return %y : tensor<1x8x8x2xf32>
}

// -----

// Nearest by 3 across, 1.5 down: a fractional factor.
func.func @nearest_fractional(%x: tensor<1x4x4x2xf32>) -> tensor<1x6x12x2xf32> {
  %s = tosa.const_shape {values = dense<[6, 4, 12, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[2, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @+1 {{stays on the host: a nearest-neighbour resize from 4x4 to 6x12: not an integer upsampling, which no NVDLA layer computes (NVDLA upsamples by integer factors)}}
  %y = tosa.resize %x, %s, %o, %b {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x12x2xf32>
  return %y : tensor<1x6x12x2xf32>
}

// -----

// TOSA's integer bilinear whose i32 result no rescale reads (returned as
// it is): the depthwise convolution's SDP would have no requantization to
// run, so it stays on the host (int8 target; on fp16 the data is not the
// target's).
func.func @int8_bilinear_unrescaled(%x: tensor<1x2x2x8xi8>) -> tensor<1x4x4x8xi32> {
  %s = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @+1 {{stays on the host}}
  %y = tosa.resize %x, %s, %o, %b {mode = BILINEAR} : (tensor<1x2x2x8xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x4x8xi32>
  return %y : tensor<1x4x4x8xi32>
}
// SMALL: resize-host-remarks.mlir:[[# @LINE - 3]]:8: remark: stays on the host: a bilinear resize by [2, 2] would run as a nearest upsampling with a replicated border and a depthwise 3x3 convolution, but its integer result is not an i32 read by rescales alone
