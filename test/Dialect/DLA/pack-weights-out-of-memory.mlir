// A failed allocation is a diagnostic, never an abort: within max-bytes (raised
// to 4 GiB here), but more than the process may map (ulimit -v of about 2 GB,
// 3 GiB of storage).
// ASan reserves terabytes of shadow address space, which no such limit allows.
// UNSUPPORTED: asan
// RUN: sh -c 'ulimit -v 2000000; dla-opt --dla-pack-weights=max-bytes=4294967296 %s -o /dev/null 2>&1; echo "exit $?"' | FileCheck %s

// CHECK: error: cannot pack 'tensor<1xi8>' into 'tensor<1xi8, #dla.chunked<[(0, 0), (0, 3221225472)]>>': out of memory allocating a storage surface of 3221225472 bytes
// CHECK: exit 1
func.func @oom() -> tensor<1xi8, #dla.chunked<[(0, 0), (0, 3221225472)]>> {
  %0 = arith.constant dense<[5]> : tensor<1xi8>
  %1 = dla.relayout %0 : tensor<1xi8> -> tensor<1xi8, #dla.chunked<[(0, 0), (0, 3221225472)]>>
  return %1 : tensor<1xi8, #dla.chunked<[(0, 0), (0, 3221225472)]>>
}
