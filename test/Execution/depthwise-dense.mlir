// A depthwise convolution run dense (what --dla-convert-tosa makes of one:
// K == C, block-diagonal weights) computes the per-channel sum when its
// weight is a compile-time constant (linalg.depthwise_conv_2d_nchw_chw over
// the diagonal, --dla-lower-to-reference), and the dense sum over every
// channel when the same weight is a function argument. The two must print
// the same bits: a zero weight adds nothing to an f32 sum that starts at +0.
// The inputs are large enough (|x| up to 512) that a dropped or doubled
// product changes the fp16 output. The IR is the ideal arithmetic's
// (fp16-arithmetic=ideal); the executions run NVDLA's (the default), where
// CMAC masks zero weights off: both forms must print the same bits there too.
//
// RUN: dla-opt %s --dla-lower-to-reference=fp16-arithmetic=ideal | FileCheck %s --check-prefix=IR
// RUN: dla-opt %s --dla-lower-to-llvm \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | grep -v '^Unranked' > %t.out
// RUN: FileCheck %s --input-file=%t.out --check-prefix=OUT
// RUN: head -n 12 %t.out > %t.depthwise
// RUN: tail -n 12 %t.out > %t.dense
// RUN: diff %t.depthwise %t.dense

// IR-LABEL: func.func @constant_weight
// IR: arith.constant dense<{{.*}}> : tensor<3x3x3x3xf32>
// IR: linalg.generic {{.*}} ins(%{{.*}} : tensor<3x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3xf32>)
// IR: linalg.depthwise_conv_2d_nchw_chw
// IR-NOT: linalg.conv_2d_nchw_fchw
// IR-LABEL: func.func @argument_weight
// IR: linalg.conv_2d_nchw_fchw

// Two outputs of 3 channels of 4x4 values (diff of two empty runs would pass).
// OUT: {{^\[\[\[\[-?[0-9]}}
// OUT-COUNT-10: {{^ +\[+-?[0-9]}}
// OUT-NEXT: {{^ +\[-?[0-9].*\]\]\]\]$}}
// OUT-NEXT: {{^\[\[\[\[-?[0-9]}}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

// Channel k's 3x3 window at [k, k]; zeros of both signs elsewhere.
func.func @constant_weight(%x: tensor<1x3x6x6xf16>) -> tensor<1x3x4x4xf16> {
  %w32 = arith.constant dense<[
    [[[0.5, -1.25, 2.0], [3.0, 0.75, -0.5], [1.0, 1.5, -2.5]],
     [[0.0, -0.0, 0.0], [0.0, 0.0, 0.0], [-0.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0], [0.0, -0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, -0.0]],
     [[-3.0, 0.25, 1.75], [2.5, -0.125, 0.5], [-1.0, 2.0, 0.375]],
     [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[-0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0], [0.0, 0.0, -0.0], [0.0, 0.0, 0.0]],
     [[1.1, -0.3, 0.7], [-2.2, 1.9, 0.1], [0.6, -1.4, 2.8]]]]> : tensor<3x3x3x3xf32>
  %w = arith.truncf %w32 : tensor<3x3x3x3xf32> to tensor<3x3x3x3xf16>
  %y = dla.conv direct %x, %w : tensor<1x3x6x6xf16>, tensor<3x3x3x3xf16> -> tensor<1x3x4x4xf16>
  return %y : tensor<1x3x4x4xf16>
}

func.func @argument_weight(%x: tensor<1x3x6x6xf16>, %w: tensor<3x3x3x3xf16>) -> tensor<1x3x4x4xf16> {
  %y = dla.conv direct %x, %w : tensor<1x3x6x6xf16>, tensor<3x3x3x3xf16> -> tensor<1x3x4x4xf16>
  return %y : tensor<1x3x4x4xf16>
}

func.func @main() {
  %x = tensor.generate {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    %c37 = arith.constant 37 : index
    %c11 = arith.constant 11 : index
    %c101 = arith.constant 101 : index
    %a = arith.muli %c, %c37 : index
    %b = arith.muli %h, %c11 : index
    %d = arith.addi %a, %b : index
    %e = arith.addi %d, %w : index
    %g = arith.muli %e, %e : index
    %r = arith.remui %g, %c101 : index
    %i = arith.index_cast %r : index to i32
    %f = arith.sitofp %i : i32 to f16
    %s = arith.constant 9.9 : f16
    %o = arith.constant 500.0 : f16
    %m = arith.mulf %f, %s : f16
    %v = arith.subf %m, %o : f16
    tensor.yield %v : f16
  } : tensor<1x3x6x6xf16>
  %w32 = arith.constant dense<[
    [[[0.5, -1.25, 2.0], [3.0, 0.75, -0.5], [1.0, 1.5, -2.5]],
     [[0.0, -0.0, 0.0], [0.0, 0.0, 0.0], [-0.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0], [0.0, -0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, -0.0]],
     [[-3.0, 0.25, 1.75], [2.5, -0.125, 0.5], [-1.0, 2.0, 0.375]],
     [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    [[[-0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
     [[0.0, 0.0, 0.0], [0.0, 0.0, -0.0], [0.0, 0.0, 0.0]],
     [[1.1, -0.3, 0.7], [-2.2, 1.9, 0.1], [0.6, -1.4, 2.8]]]]> : tensor<3x3x3x3xf32>
  %w = arith.truncf %w32 : tensor<3x3x3x3xf32> to tensor<3x3x3x3xf16>
  %y0 = func.call @constant_weight(%x) : (tensor<1x3x6x6xf16>) -> tensor<1x3x4x4xf16>
  %y1 = func.call @argument_weight(%x, %w) : (tensor<1x3x6x6xf16>, tensor<3x3x3x3xf16>) -> tensor<1x3x4x4xf16>
  %f0 = arith.extf %y0 : tensor<1x3x4x4xf16> to tensor<1x3x4x4xf32>
  %f1 = arith.extf %y1 : tensor<1x3x4x4xf16> to tensor<1x3x4x4xf32>
  %b0 = bufferization.to_buffer %f0 : tensor<1x3x4x4xf32> to memref<1x3x4x4xf32>
  %b1 = bufferization.to_buffer %f1 : tensor<1x3x4x4xf32> to memref<1x3x4x4xf32>
  %u0 = memref.cast %b0 : memref<1x3x4x4xf32> to memref<*xf32>
  %u1 = memref.cast %b1 : memref<1x3x4x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  return
}
