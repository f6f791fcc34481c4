// RUN: dla-opt %s --dla-results-through-pointer --dla-fold-aggregates | FileCheck %s

// 9 results of 8 scalars each (72 >= 64), called only by the C interface,
// which stores the result: @many writes them through the pointer, element
// by element, a later insert after the earlier one it overwrites, and its C
// interface passes the pointer on.
!d = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>, i64, i64, i64)>
!r = !llvm.struct<(!d, !d, !d, !d, !d, !d, !d, !d, !d)>

// CHECK-LABEL: llvm.func @many(
// CHECK-SAME: %[[OUT:[^:]*]]: !llvm.ptr, %[[P:[^:]*]]: !llvm.ptr, %[[N:[^:]*]]: i64)
// CHECK-NOT: llvm.insertvalue
// CHECK: %[[C7:.*]] = llvm.mlir.constant(7 : i64)
// CHECK-NEXT: %[[E0:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct<
// CHECK-NEXT: %[[G0:.*]] = llvm.getelementptr inbounds %[[E0]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr,
// CHECK-NEXT: llvm.store %[[P]], %[[G0]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[G1:.*]] = llvm.getelementptr inbounds %[[E0]][0, 1]
// CHECK-NEXT: llvm.store %[[P]], %[[G1]]
// CHECK-NEXT: %[[G3:.*]] = llvm.getelementptr inbounds %[[E0]][0, 3, 0]
// CHECK-NEXT: llvm.store %[[N]], %[[G3]]
// CHECK: %[[E8:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 8]
// CHECK: %[[W:.*]] = llvm.getelementptr inbounds %[[E8]][0, 2]
// CHECK-NEXT: llvm.store %[[C7]], %[[W]]
// CHECK-NEXT: %[[W2:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 8, 2]
// CHECK-NEXT: llvm.store %[[N]], %[[W2]]
// CHECK-NOT: llvm.insertvalue
// CHECK-NEXT: llvm.return{{$}}
llvm.func @many(%p: !llvm.ptr, %n: i64) -> !r {
  %u = llvm.mlir.poison : !d
  %c7 = llvm.mlir.constant(7 : i64) : i64
  %d0 = llvm.insertvalue %p, %u[0] : !d
  %d1 = llvm.insertvalue %p, %d0[1] : !d
  %d2 = llvm.insertvalue %n, %d1[3, 0] : !d
  %s = llvm.mlir.poison : !r
  %s0 = llvm.insertvalue %d2, %s[0] : !r
  %s1 = llvm.insertvalue %d2, %s0[1] : !r
  %s2 = llvm.insertvalue %d2, %s1[2] : !r
  %s3 = llvm.insertvalue %d2, %s2[3] : !r
  %s4 = llvm.insertvalue %d2, %s3[4] : !r
  %s5 = llvm.insertvalue %d2, %s4[5] : !r
  %s6 = llvm.insertvalue %d2, %s5[6] : !r
  %s7 = llvm.insertvalue %d2, %s6[7] : !r
  %e = llvm.insertvalue %c7, %d2[2] : !d
  %s8 = llvm.insertvalue %e, %s7[8] : !r
  %s9 = llvm.insertvalue %n, %s8[8, 2] : !r
  llvm.return %s9 : !r
}

// CHECK-LABEL: llvm.func @_mlir_ciface_many(
// CHECK-SAME: %[[R:[^:]*]]: !llvm.ptr, %[[A:[^:]*]]: !llvm.ptr, %[[B:[^:]*]]: i64)
// CHECK-NEXT: llvm.call @many(%[[R]], %[[A]], %[[B]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT: llvm.return
llvm.func @_mlir_ciface_many(%r: !llvm.ptr, %a: !llvm.ptr, %b: i64) {
  %s = llvm.call @many(%a, %b) : (!llvm.ptr, i64) -> !r
  llvm.store %s, %r : !r, !llvm.ptr
  llvm.return
}

// Fewer scalars (one descriptor), or a call elsewhere: unchanged.
// CHECK-LABEL: llvm.func @one(%{{[^:]*}}: !llvm.ptr) -> !llvm.struct
llvm.func @one(%p: !llvm.ptr) -> !d {
  %u = llvm.mlir.poison : !d
  %d0 = llvm.insertvalue %p, %u[0] : !d
  llvm.return %d0 : !d
}
// CHECK-LABEL: llvm.func @_mlir_ciface_one(
// CHECK-NEXT: llvm.call @one(%{{.*}}) : (!llvm.ptr) -> !llvm.struct
llvm.func @_mlir_ciface_one(%r: !llvm.ptr, %a: !llvm.ptr) {
  %s = llvm.call @one(%a) : (!llvm.ptr) -> !d
  llvm.store %s, %r : !d, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @shared(%{{[^:]*}}: !llvm.ptr, %{{[^:]*}}: i64) -> !llvm.struct
llvm.func @shared(%p: !llvm.ptr, %n: i64) -> !r {
  %s = llvm.mlir.poison : !r
  llvm.return %s : !r
}
llvm.func @_mlir_ciface_shared(%r: !llvm.ptr, %a: !llvm.ptr, %b: i64) {
  %s = llvm.call @shared(%a, %b) : (!llvm.ptr, i64) -> !r
  llvm.store %s, %r : !r, !llvm.ptr
  llvm.return
}
llvm.func @other(%r: !llvm.ptr, %a: !llvm.ptr, %b: i64) {
  %s = llvm.call @shared(%a, %b) : (!llvm.ptr, i64) -> !r
  llvm.store %s, %r : !r, !llvm.ptr
  llvm.return
}
