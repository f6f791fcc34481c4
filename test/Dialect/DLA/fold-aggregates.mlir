// RUN: dla-opt %s --pass-pipeline='builtin.module(llvm.func(dla-fold-aggregates))' | FileCheck %s

// A memref descriptor built by inserts and read back at a kernel call: the
// reads become the inserted values, the struct disappears.

// CHECK-LABEL: llvm.func @call_kernel
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK-NOT: llvm.insertvalue
// CHECK-NOT: llvm.extractvalue
// CHECK-NOT: llvm.mlir.poison
// CHECK: llvm.call @kernel(%[[P]], %[[P]], %[[C0:.*]], %[[N]], %[[C1:.*]]) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
// CHECK-NEXT: llvm.return
llvm.func @kernel(!llvm.ptr, !llvm.ptr, i64, i64, i64)
llvm.func @call_kernel(%p: !llvm.ptr, %n: i64) {
  %u = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %c0 = llvm.mlir.constant(0 : index) : i64
  %c1 = llvm.mlir.constant(1 : index) : i64
  %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %d1 = llvm.insertvalue %p, %d0[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %d2 = llvm.insertvalue %c0, %d1[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %d3 = llvm.insertvalue %n, %d2[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %d4 = llvm.insertvalue %c1, %d3[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %a = llvm.extractvalue %d4[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %b = llvm.extractvalue %d4[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %o = llvm.extractvalue %d4[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %s = llvm.extractvalue %d4[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %t = llvm.extractvalue %d4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  llvm.call @kernel(%a, %b, %o, %s, %t) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
  llvm.return
}

// An element no insert sets (a function argument's struct, an array read
// whole) stays read; a struct still used stays built.

// CHECK-LABEL: llvm.func @kept
// CHECK-SAME: (%[[S:.*]]: !llvm.struct<(ptr, i64)>, %[[Q:.*]]: !llvm.ptr)
// CHECK-DAG: %[[E:.*]] = llvm.extractvalue %[[S]][1]
// CHECK-DAG: %[[D:.*]] = llvm.insertvalue %[[Q]], %[[S]][0]
// CHECK: %[[R:.*]] = llvm.add %[[E]], %[[E]]
// CHECK: llvm.call @use(%[[D]], %[[R]])
llvm.func @use(!llvm.struct<(ptr, i64)>, i64)
llvm.func @kept(%s: !llvm.struct<(ptr, i64)>, %q: !llvm.ptr) {
  %d = llvm.insertvalue %q, %s[0] : !llvm.struct<(ptr, i64)>
  %e = llvm.extractvalue %d[1] : !llvm.struct<(ptr, i64)>
  %r = llvm.add %e, %e : i64
  llvm.call @use(%d, %r) : (!llvm.struct<(ptr, i64)>, i64) -> ()
  llvm.return
}
