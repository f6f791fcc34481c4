// RUN: not dla-opt %s --dla-convert-tosa="target=nv_tiny" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not dla-opt %s --dla-convert-tosa="precision=fp32" 2>&1 | FileCheck %s --check-prefix=PRECISION
// RUN: not dla-opt %s --dla-convert-tosa="target=htp" 2>&1 | FileCheck %s --check-prefix=HTP
// RUN: not dla-opt %s --dla-convert-tosa="target=nv_small precision=fp16" 2>&1 | FileCheck %s --check-prefix=NOFP16
// The deprecated alias warns and still names the target; with target, both must agree.
// RUN: dla-opt %s --dla-convert-tosa="config=nv_small precision=int8" 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: not dla-opt %s --dla-convert-tosa="config=nv_small target=nv_large precision=int8" 2>&1 | FileCheck %s --check-prefix=BOTH
// Without an option, the module's dla.target; the pass records what it used.
// RUN: dla-opt %s --dla-convert-tosa="precision=int8" -split-input-file 2>&1 | FileCheck %s --check-prefix=MODULE

// TARGET: error: unknown target 'nv_tiny'; expected htp, nvdla, or nvdla:<config> / <config> with <config> one of nv_full, nv_large, nv_small
// PRECISION: for the --precision option: Cannot find option named 'fp32'!
// HTP: error: --dla-convert-tosa offloads onto NVDLA, the target is htp
// NOFP16: error: --dla-convert-tosa: precision=fp16:
// ALIAS: warning: --dla-convert-tosa: 'config' is deprecated, use 'target=nv_small'
// ALIAS: module attributes {dla.target = #dla.target<nvdla, nv_small>}
// BOTH: error: --dla-convert-tosa: target=nv_large and config=nv_small name different targets

// MODULE: module attributes {dla.target = #dla.target<nvdla, nv_small>}
// MODULE: module attributes {dla.target = #dla.target<nvdla, nv_full>}
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @f() {
    return
  }
}

// -----

func.func @g() {
  return
}
