// Direct fp16 weights from f32 weights: NVIDIA's compiler rounds each f32
// weight once with half.h (ties away from zero) while laying it out
// (nvdla/sw translateWtsForDC<NvF32, half>; image and deconvolution
// weights convert the same way, RT(value) of the f32 weight). Here the f32
// constant reaches the encoding through the arith.truncf --dla-pack-weights
// fuses, whose mode is the one rounding: `to_nearest_away` stores NVIDIA's
// bytes; a truncf without a mode (arith's ties to even) differs at exactly
// the fp16 ties (784 of 12,600 values here, counted by the Python
// reference from NVIDIA's loops alone). The expected bytes come from
// utils/dla-ref/nvidia_direct.py, written from NVIDIA's source (kernel
// groups of 16, full then partial channel groups of 64, r, s, kernel,
// channel; 128-byte end), not from the project's code or weight_ref.py.
//
// RUN: %python %dla_ref/nvidia_direct.py gen to_nearest_away > %t.mlir
// RUN: dla-opt %t.mlir --dla-pack-weights 2>/dev/null | %python %dla_ref/nvidia_direct.py check | FileCheck %s
//
// CHECK: @dc_20x70x3x3: 25216 bytes as NVIDIA's compiler; ties to even would change 784 values
// CHECK: @dc_33x5x1x2: 768 bytes as NVIDIA's compiler
//
// RUN: %python %dla_ref/nvidia_direct.py gen > %t.even.mlir
// RUN: dla-opt %t.even.mlir --dla-pack-weights 2>/dev/null | not %python %dla_ref/nvidia_direct.py check | FileCheck %s --check-prefix=EVEN
//
// EVEN: error: @dc_20x70x3x3: 25216 bytes, NVIDIA's 25216; 784 values differ; NVIDIA's order rounded ties to even
// EVEN: @dc_33x5x1x2: 768 bytes as NVIDIA's compiler
