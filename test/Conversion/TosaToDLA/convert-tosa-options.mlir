// RUN: not dla-opt %s --dla-convert-tosa="config=nv_tiny" 2>&1 | FileCheck %s --check-prefix=CONFIG
// RUN: not dla-opt %s --dla-convert-tosa="precision=fp32" 2>&1 | FileCheck %s --check-prefix=PRECISION

// CONFIG: error: --dla-convert-tosa: unknown NVDLA hardware configuration 'nv_tiny' (known: nv_full, nv_large, nv_small)
// PRECISION: for the --precision option: Cannot find option named 'fp32'!
func.func @f() {
  return
}
