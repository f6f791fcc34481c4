// A product by a constant matrix plus a per-column constant (ONNX Gemm /
// MatMul + Add, as dla-import-onnx writes them) offloaded as a 1x1
// dla.conv with the constant as its bias, executed on the CPU in fp16 on
// nv_full, with and without the layers' NVDLA formats. Small integers keep
// every fp16 product and sum exact: the expected rows are numpy's A @ B + C.
//
// RUN: dla-opt %s --pass-pipeline="builtin.module(dla-compile{convert-tosa=true target=nv_full precision=fp16},dla-lower-to-llvm)" \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | FileCheck %s
// RUN: dla-opt %s --pass-pipeline="builtin.module(dla-compile{convert-tosa=true target=nv_full precision=fp16 layouts=true},dla-lower-to-llvm)" \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | FileCheck %s
// RUN: dla-opt %s --dla-convert-tosa | FileCheck %s --check-prefix=IR
// IR-NOT: tosa.matmul
// IR-NOT: tosa.add
// IR:     dla.conv direct

func.func @gemm(%a: tensor<2x5x6xf32>) -> tensor<2x5x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = "tosa.const"() {values = dense<[[[-2.0,0.0,-1.0],[-2.0,3.0,-3.0],[-3.0,-2.0,3.0],[1.0,3.0,-2.0],[2.0,-1.0,0.0],[-3.0,1.0,2.0]],[[-2.0,0.0,-1.0],[-2.0,3.0,-3.0],[-3.0,-2.0,3.0],[1.0,3.0,-2.0],[2.0,-1.0,0.0],[-3.0,1.0,2.0]]]> : tensor<2x6x3xf32>} : () -> tensor<2x6x3xf32>
  %c = "tosa.const"() {values = dense<[[[3.0,-6.0,1.0]]]> : tensor<1x1x3xf32>} : () -> tensor<1x1x3xf32>
  %m = tosa.matmul %a, %w, %zp, %zp : (tensor<2x5x6xf32>, tensor<2x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x3xf32>
  %y = tosa.add %m, %c : (tensor<2x5x3xf32>, tensor<1x1x3xf32>) -> tensor<2x5x3xf32>
  return %y : tensor<2x5x3xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %a = arith.constant dense<[[[4.0,1.0,2.0,4.0,1.0,2.0],[3.0,-2.0,-4.0,-2.0,-2.0,3.0],[4.0,-4.0,0.0,3.0,-3.0,3.0],[-3.0,0.0,3.0,-2.0,-1.0,-2.0],[2.0,-2.0,4.0,0.0,0.0,0.0]],[[1.0,0.0,0.0,4.0,3.0,3.0],[2.0,1.0,-1.0,4.0,0.0,-3.0],[3.0,-3.0,3.0,1.0,-3.0,-4.0],[0.0,-4.0,-3.0,0.0,4.0,0.0],[3.0,4.0,3.0,1.0,-1.0,0.0]]]> : tensor<2x5x6xf32>
  %y = call @gemm(%a) : (tensor<2x5x6xf32>) -> tensor<2x5x3xf32>
  %m = bufferization.to_buffer %y : tensor<2x5x3xf32> to memref<2x5x3xf32>
  %u = memref.cast %m : memref<2x5x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// CHECK: Unranked Memref
// CHECK-NEXT: {{^ *\[+}}-13,{{ +}}6,{{ +}}-4]
// CHECK-NEXT: {{^ *\[+}}-2,{{ +}}-5,{{ +}}2]
// CHECK-NEXT: {{^ *\[+}}-9,{{ +}}-3,{{ +}}9]
// CHECK-NEXT: {{^ *\[+}}2,{{ +}}-19,{{ +}}13]
// CHECK-NEXT: {{^ *\[+}}-9,{{ +}}-20,{{ +}}17]
// CHECK-NEXT: {{^ *\[+}}2,{{ +}}6,{{ +}}-2]
// CHECK-NEXT: {{^ *\[+}}13,{{ +}}8,{{ +}}-21]
// CHECK-NEXT: {{^ *\[+}}1,{{ +}}-19,{{ +}}6]
// CHECK-NEXT: {{^ *\[+}}28,{{ +}}-16,{{ +}}4]
// CHECK-NEXT: {{^ *\[+}}-21,{{ +}}4,{{ +}}-7]
