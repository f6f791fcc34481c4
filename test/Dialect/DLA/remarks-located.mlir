// The compile pipeline's remarks name a source location and nothing more:
// none carries the op printed ("see current operation"), which numbers the
// whole module per remark (a network's thousands of host-op and relayout
// remarks made --dla-convert-tosa and --dla-assign-layouts quadratic: the
// PaddleOCR recognizer's compile took 62 s, 6 s without).
// RUN: dla-opt %s --dla-compile='convert-tosa=true target=nv_full layouts=true summary=true winograd=auto cbuf-banks=2 cbuf-bank-entries=16' \
// RUN:   -o /dev/null 2> %t.remarks
// RUN: FileCheck %s < %t.remarks
// RUN: FileCheck %s --check-prefix=BARE < %t.remarks

// BARE-NOT: note:

// CHECK-DAG: remark: stays on the host: no NVDLA layer computes tosa.sub
// CHECK-DAG: remark: dla-convert-tosa: 1 of 2 layers on nv_full fp16
// CHECK-DAG: remark: runs as 8 hardware layers of at most 2 output rows
// The bands fit the 2 banks as direct convolutions, not as Winograd.
// CHECK-DAG: remark: stays direct (winograd=auto): it runs by bands of 2 output rows (rows_per_part) and Winograd layers are not cut
// CHECK-DAG: remark: relayout costs 12288 bytes
// CHECK-DAG: remark: relayout of a constant, packed at compile time
// CHECK-DAG: remark: layouts assigned to 1 ops
func.func @net(%x: tensor<1x16x16x8xf32>, %y: tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32> {
  %w = "tosa.const"() {values = dense<0.5> : tensor<8x3x3x8xf32>} : () -> tensor<8x3x3x8xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<8x3x3x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %d = tosa.sub %c, %y : (tensor<1x16x16x8xf32>, tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  return %d : tensor<1x16x16x8xf32>
}
