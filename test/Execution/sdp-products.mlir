// Products of run-time tensors on the SDP's X multiplier (float stage
// form, docs/IntegerAttributes.md 4.7), offloaded by --dla-convert-tosa and
// executed on the CPU in fp16 on nv_full, with and without the layers'
// NVDLA formats: x * y per element (hard-swish's product), x * s per
// channel (squeeze-excitation's scale), and a convolution's only result
// times y (the SDP on the fly). Small integers and halves keep every fp16
// value exact: the expected rows are numpy's products (NHWC rows of 4).
//
// RUN: dla-opt %s --dla-convert-tosa | FileCheck %s --check-prefix=IR
// IR-NOT:     tosa.mul
// IR:         dla.sdp offline {{.*}} bs <mul_operand = eltwise>
// IR:         dla.sdp offline {{.*}} bs <mul_operand = prelu>
// IR:         dla.sdp on_the_fly {{.*}} bs <mul_operand = eltwise>
// IR-NOT:     tosa.mul
// RUN: dla-opt %s --pass-pipeline="builtin.module(dla-compile{convert-tosa=true target=nv_full precision=fp16},dla-lower-to-llvm)" \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | FileCheck %s
// RUN: dla-opt %s --pass-pipeline="builtin.module(dla-compile{convert-tosa=true target=nv_full precision=fp16 layouts=true},dla-lower-to-llvm)" 2>/dev/null \
// RUN:   | %llvm_bin/mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%llvm_bin/../lib/libmlir_c_runner_utils.so,%llvm_bin/../lib/libmlir_runner_utils.so,%dla_runtime \
// RUN:   | FileCheck %s

func.func @products(%x: tensor<1x2x3x4xf32>, %y: tensor<1x2x3x4xf32>, %s: tensor<1x1x1x4xf32>)
    -> (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w = "tosa.const"() {values = dense<[[[[1.0,-1.0,0.0,2.0]]],[[[2.0,2.0,2.0,-2.0]]],[[[1.0,0.0,1.0,-1.0]]],[[[-2.0,-2.0,2.0,2.0]]]]> : tensor<4x1x1x4xf32>} : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %r1 = tosa.mul %x, %y, %shift : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1xi8>) -> tensor<1x2x3x4xf32>
  %r2 = tosa.mul %x, %s, %shift : (tensor<1x2x3x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x2x3x4xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x3x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3x4xf32>
  %r3 = tosa.mul %c, %y, %shift : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1xi8>) -> tensor<1x2x3x4xf32>
  return %r1, %r2, %r3 : tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %x = arith.constant dense<[[[[-3.0,-3.0,3.0,0.0],[1.0,1.0,2.0,-4.0],[0.0,-3.0,-1.0,4.0]],[[0.0,-4.0,0.0,-3.0],[2.0,4.0,4.0,1.0],[3.0,-1.0,-3.0,0.0]]]]> : tensor<1x2x3x4xf32>
  %y = arith.constant dense<[[[[0.0,1.0,3.0,-2.0],[2.0,-3.0,-1.0,2.0],[-2.0,1.0,0.0,0.0]],[[3.0,2.0,2.0,0.0],[3.0,3.0,-3.0,-2.0],[-1.0,0.0,2.0,0.0]]]]> : tensor<1x2x3x4xf32>
  %s = arith.constant dense<[[[[2.0,-0.5,2.0,0.5]]]]> : tensor<1x1x1x4xf32>
  %r:3 = call @products(%x, %y, %s) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x1x1x4xf32>)
      -> (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>)
  %m1 = bufferization.to_buffer %r#0 : tensor<1x2x3x4xf32> to memref<1x2x3x4xf32>
  %u1 = memref.cast %m1 : memref<1x2x3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %m2 = bufferization.to_buffer %r#1 : tensor<1x2x3x4xf32> to memref<1x2x3x4xf32>
  %u2 = memref.cast %m2 : memref<1x2x3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %m3 = bufferization.to_buffer %r#2 : tensor<1x2x3x4xf32> to memref<1x2x3x4xf32>
  %u3 = memref.cast %m3 : memref<1x2x3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  return
}

// x * y
// CHECK: Unranked Memref
// CHECK-NEXT: {{^ *\[+}}-0,{{ +}}-3,{{ +}}9,{{ +}}-0]
// CHECK-NEXT: {{^ *\[+}}2,{{ +}}-3,{{ +}}-2,{{ +}}-8]
// CHECK-NEXT: {{^ *\[+}}-0,{{ +}}-3,{{ +}}-0,{{ +}}0]
// CHECK-NEXT: {{^ *\[+}}0,{{ +}}-8,{{ +}}0,{{ +}}-0]
// CHECK-NEXT: {{^ *\[+}}6,{{ +}}12,{{ +}}-12,{{ +}}-2]
// CHECK-NEXT: {{^ *\[+}}-3,{{ +}}-0,{{ +}}-6,{{ +}}0]
// x * s
// CHECK: Unranked Memref
// CHECK-NEXT: {{^ *\[+}}-6,{{ +}}1.5,{{ +}}6,{{ +}}0]
// CHECK-NEXT: {{^ *\[+}}2,{{ +}}-0.5,{{ +}}4,{{ +}}-2]
// CHECK-NEXT: {{^ *\[+}}0,{{ +}}1.5,{{ +}}-2,{{ +}}2]
// CHECK-NEXT: {{^ *\[+}}0,{{ +}}2,{{ +}}0,{{ +}}-1.5]
// CHECK-NEXT: {{^ *\[+}}4,{{ +}}-2,{{ +}}8,{{ +}}0.5]
// CHECK-NEXT: {{^ *\[+}}6,{{ +}}0.5,{{ +}}-6,{{ +}}0]
// conv(x) * y
// CHECK: Unranked Memref
// CHECK-NEXT: {{^ *\[+}}0,{{ +}}-6,{{ +}}0,{{ +}}-36]
// CHECK-NEXT: {{^ *\[+}}-16,{{ +}}-48,{{ +}}-7,{{ +}}-16]
// CHECK-NEXT: {{^ *\[+}}-22,{{ +}}-16,{{ +}}-0,{{ +}}0]
// CHECK-NEXT: {{^ *\[+}}-6,{{ +}}-4,{{ +}}6,{{ +}}0]
// CHECK-NEXT: {{^ *\[+}}0,{{ +}}54,{{ +}}-15,{{ +}}4]
// CHECK-NEXT: {{^ *\[+}}-4,{{ +}}-0,{{ +}}0,{{ +}}-0]
