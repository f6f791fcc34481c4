// A pass failing on the module prints its error and not the module after
// it ("see current operation", the whole network: 917 lines for the
// classifier); --mlir-print-op-on-diagnostic=true still asks for it
// (tools/dla-opt/dla-opt.cpp).
// RUN: not dla-opt %s --dla-convert-tosa=target=bogus 2>&1 | FileCheck %s --check-prefix=TARGET --implicit-check-not=builtin.module --implicit-check-not=note:
// RUN: not dla-opt %s --dla-convert-tosa="target=nv_small precision=fp16" 2>&1 | FileCheck %s --check-prefix=FP16 --implicit-check-not=builtin.module --implicit-check-not=note:
// RUN: not dla-opt %s --dla-convert-tosa="target=nv_small precision=fp16" --mlir-print-op-on-diagnostic=true 2>&1 | FileCheck %s --check-prefix=ASKED

// TARGET: error: unknown target 'bogus'; expected htp, nvdla, or nvdla:<config> / <config> with <config> one of nv_full, nv_large, nv_small
// FP16: error: --dla-convert-tosa: precision=fp16: nv_small computes int8 only (FEATURE_DATA_TYPE_INT8)
// ASKED: note: see current operation:
// ASKED-NEXT: "builtin.module"

func.func @main(%arg0: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %0 = tosa.clamp %arg0 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}
