// Layer ops without any encoding are not accelerator-formatted: the memref
// lowering leaves them tensor ops (--dla-lower-to-reference lowers them).
// RUN: dla-opt %s --dla-encodings-to-memref=skip-bufferize | FileCheck %s --enable-var-scope

// CHECK-LABEL: func.func @plain
// CHECK: dla.pool max %{{.*}} kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xf16> -> tensor<1x8x2x2xf16>
// CHECK-NOT: dla.on_storage
func.func @plain(%x: tensor<1x8x4x4xf16>) -> tensor<1x8x2x2xf16> {
  %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}
