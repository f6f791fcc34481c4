// max-bytes bounds the whole run: two constants of 1.25 GiB each fit the
// 2 GiB default one by one, not together, so the second is diagnosed before
// anything is allocated. Under a 16 GiB max-bytes (the former default) both
// were packed and the textual printer then needed 4 more bytes per packed
// byte: past this ulimit the process aborted ("LLVM ERROR: out of memory").
// ASan reserves terabytes of shadow address space, which no such limit allows.
// UNSUPPORTED: asan
// RUN: sh -c 'ulimit -v 6000000; dla-opt --dla-pack-weights %s -o /dev/null 2>&1; echo "exit $?"' | FileCheck %s

// CHECK: pack-weights-run-bound.mlir:[[# @LINE + 8]]:8: error: packing needs 1342177281 bytes (1342177280 for storage and temporaries, 1 for a copy of the source), 2684354562 with the 1342177281 bytes of the constants packed before it, more than the limit of 2147483648 bytes (option max-bytes of --dla-pack-weights)
// CHECK-NOT: error
// CHECK: exit 1
!big = tensor<1xi8, #dla.chunked<[(0, 0), (0, 1342177280)]>>
func.func @two() -> (!big, !big) {
  %0 = arith.constant dense<[5]> : tensor<1xi8>
  %1 = dla.relayout %0 : tensor<1xi8> -> !big
  %2 = arith.constant dense<[6]> : tensor<1xi8>
  %3 = dla.relayout %2 : tensor<1xi8> -> !big
  return %1, %3 : !big, !big
}
