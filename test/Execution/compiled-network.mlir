// A network compiled for NVDLA nv_full (--dla-compile: every tensor of the
// layers gets an accelerator encoding, relayouts at the function boundary and
// before the weights) and executed on the CPU with every tensor in its
// accelerator format (--dla-lower-to-reference, --dla-lower-to-llvm: each
// relayout runs as code over the storage bytes) gives exactly the values of
// the same network executed on plain tensors, whose layer arithmetic
// test/Execution/reference-layers.mlir checks against numpy. A wrong stride,
// offset or padding in any lowered relayout changes the printed values.
//
// RUN: dla-opt %s --dla-compile 2>/dev/null | FileCheck %s --check-prefix=IR
// RUN: dla-opt %s --dla-lower-to-reference --dla-lower-to-llvm \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | tail -n +2 > %t.plain
// RUN: dla-opt %s --dla-compile --dla-lower-to-reference --dla-lower-to-llvm 2>/dev/null \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | tail -n +2 > %t.encoded
// RUN: diff %t.plain %t.encoded
// The same compiled network with its layer ops run on their storage
// (dla.on_storage: --dla-lower-to-memref inside --dla-lower-to-llvm, run by
// --dla-lower-buffers-to-reference), no --dla-lower-to-reference:
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-pack-weights \
// RUN:   --convert-elementwise-to-linalg --dla-encodings-to-memref | FileCheck %s --check-prefix=MEMREF
// RUN: dla-opt %s --dla-compile 2>/dev/null | dla-opt --dla-lower-to-llvm \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | tail -n +2 > %t.memref
// RUN: diff %t.plain %t.memref
// RUN: FileCheck %s --input-file=%t.encoded --check-prefix=OUT

// The output is there (16 channels of 4x4 values): diff of two empty runs
// would pass.
// OUT: {{^\[\[\[\[[0-9]}}
// OUT-COUNT-62: {{^ +\[+[0-9]}}
// OUT-NEXT: {{^ +\[[0-9].*\]\]\]\]$}}

// MEMREF-LABEL: func.func @block
// MEMREF: dla.on_storage ins(%{{.*}}, %{{.*}}, %{{.*}} : memref<2048xi8>, memref<4608xi8>, memref<32xi8>) outs(%{{.*}} : memref<2048xi8>)
// MEMREF-NEXT: ^bb0(%{{.*}}: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %{{.*}}: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>, %{{.*}}: tensor<16xf16, #dla.bias<per_channel, fp16>>):
// MEMREF-NEXT: dla.conv direct
// MEMREF: dla.on_storage ins(%{{.*}}, %{{.*}} : memref<2048xi8>, memref<2048xi8>) outs(%{{.*}} : memref<2048xi8>)
// MEMREF-NEXT: ^bb0
// MEMREF-NEXT: dla.sdp offline
// MEMREF: dla.on_storage ins(%{{.*}} : memref<2048xi8>) outs(%{{.*}} : memref<512xi8>)
// MEMREF-NEXT: ^bb0
// MEMREF-NEXT: dla.pool max
// MEMREF-NOT: dla.on_storage
// MEMREF-LABEL: func.func @main

// IR-LABEL: func.func @block
// IR: dla.relayout %{{.*}} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// IR: dla.relayout %{{.*}} : tensor<16xf16> -> tensor<16xf16, #dla.bias<per_channel, fp16>>
// IR: dla.relayout %{{.*}} : tensor<16x16x3x3xf16> -> tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
// IR: dla.conv direct {{.*}} -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// IR: dla.sdp offline {{.*}} -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// IR: dla.pool max {{.*}} -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
// IR: dla.relayout %{{.*}} : tensor<1x16x4x4xf16, #dla.feature<fp16>> -> tensor<1x16x4x4xf16>

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @block(%x: tensor<1x16x8x8xf16>, %b: tensor<16xf16>) -> tensor<1x16x4x4xf16> {
  // Weights that differ in every (k, c, r, s): a permuted weight layout shows.
  %ww = tensor.generate {
  ^bb0(%k: index, %c: index, %r: index, %s: index):
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %a = arith.muli %k, %c7 : index
    %bb = arith.muli %c, %c3 : index
    %d = arith.muli %r, %c5 : index
    %e = arith.addi %a, %bb : index
    %f = arith.addi %e, %d : index
    %g = arith.addi %f, %s : index
    %h = arith.remui %g, %c11 : index
    %i = arith.subi %h, %c5 : index
    %j = arith.index_cast %i : index to i32
    %v = arith.sitofp %j : i32 to f16
    %q = arith.constant 0.0625 : f16
    %y = arith.mulf %v, %q : f16
    tensor.yield %y : f16
  } : tensor<16x16x3x3xf16>
  %conv = dla.conv direct %x, %ww, %b pad [1, 1, 1, 1]
      : tensor<1x16x8x8xf16>, tensor<16x16x3x3xf16>, tensor<16xf16> -> tensor<1x16x8x8xf16>
  %r = dla.sdp offline %conv eltwise %x : tensor<1x16x8x8xf16> relu
      : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
  %p = dla.pool max %r kernel [2, 2] stride [2, 2] : tensor<1x16x8x8xf16> -> tensor<1x16x4x4xf16>
  return %p : tensor<1x16x4x4xf16>
}
func.func @main() {
  %x = tensor.generate {
  ^bb0(%n: index, %c: index, %h: index, %w: index):
    %a = arith.muli %c, %h : index
    %b = arith.addi %a, %w : index
    %i = arith.index_cast %b : index to i32
    %f = arith.sitofp %i : i32 to f16
    %s = arith.constant 0.0625 : f16
    %v = arith.mulf %f, %s : f16
    tensor.yield %v : f16
  } : tensor<1x16x8x8xf16>
  %bias = tensor.generate {
  ^bb0(%k: index):
    %i = arith.index_cast %k : index to i32
    %f = arith.sitofp %i : i32 to f16
    %s = arith.constant 0.125 : f16
    %v = arith.mulf %f, %s : f16
    tensor.yield %v : f16
  } : tensor<16xf16>
  %y = call @block(%x, %bias) : (tensor<1x16x8x8xf16>, tensor<16xf16>) -> tensor<1x16x4x4xf16>
  %e = arith.extf %y : tensor<1x16x4x4xf16> to tensor<1x16x4x4xf32>
  %m = bufferization.to_buffer %e : tensor<1x16x4x4xf32> to memref<1x16x4x4xf32>
  %u = memref.cast %m : memref<1x16x4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
