// The registered pipelines (lib/Pipelines): typed options, checked by the
// command line before anything runs, and documented by --help.
// RUN: dla-opt --help | FileCheck %s --check-prefix=HELP
// RUN: not dla-opt %s --dla-compile='winograd=sometimes' 2>&1 | FileCheck %s --check-prefix=WINOGRAD
// RUN: not dla-opt %s --dla-compile='precision=fp32' 2>&1 | FileCheck %s --check-prefix=PRECISION
// RUN: not dla-opt %s --dla-lower-to-llvm='storage-layers=maybe' 2>&1 | FileCheck %s --check-prefix=BOOL
// The pipelines run what they say: offload, compile, lower, in one dla-opt.
// RUN: dla-opt %s --dla-compile='convert-tosa=true target=nv_full' 2>/dev/null | FileCheck %s --check-prefix=COMPILE
// RUN: dla-opt %s --dla-compile='convert-tosa=true' --dla-lower-to-llvm 2>/dev/null | FileCheck %s --check-prefix=LLVM

// HELP: --dla-compile
// HELP: --convert-tosa
// HELP: --precision=<value>
// HELP-NEXT: =int8
// HELP-NEXT: =int16
// HELP-NEXT: =fp16
// HELP: --winograd=<value>
// HELP-NEXT: =off
// HELP-NEXT: =auto
// HELP: --dla-lower-to-llvm
// HELP: --c-wrappers
// HELP: --storage-layers

// WINOGRAD: for the --winograd option: Cannot find option named 'sometimes'!
// PRECISION: for the --precision option: Cannot find option named 'fp32'!
// BOOL: for the --storage-layers option: 'maybe' is invalid value for boolean argument!

// COMPILE: module attributes {dla.target = #dla.target<nvdla{{.*}}>}
// COMPILE: dla.pool max %{{.*}} : tensor<1x8x4x4xf16, #dla.feature<fp16>> -> tensor<1x8x2x2xf16, #dla.feature<fp16>>
// LLVM-NOT: tosa.
// LLVM-NOT: dla.
// LLVM: llvm.func @pool
func.func @pool(%x: tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32> {
  %y = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32>
  return %y : tensor<1x2x2x8xf32>
}
