// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-pack-weights=max-bytes=1024
//
// max-bytes bounds everything packing one constant holds at once, counted
// before anything is allocated: the storage surfaces, the packer's
// temporaries (compressed weights at their all-non-zero worst) and a copy of
// the source, so the peak is the limit and not a multiple of it.

// A one-byte compressed weight whose image input has 2^40 channels: the
// uncompressed stream alone is terabytes (once resized without a limit,
// "LLVM ERROR: out of memory").
func.func @compressed_huge() -> tensor<1x1x1x1xi8, #dla.weight<image, int8, compressed, channels = 1099511627776>> {
  %0 = arith.constant dense<1> : tensor<1x1x1x1xi8>
  // expected-error @+1 {{packing needs 3573412790657 bytes (3573412790656 for storage and temporaries, 1 for a copy of the source), more than the limit of 1024 bytes (option max-bytes of --dla-pack-weights)}}
  %1 = dla.relayout %0 : tensor<1x1x1x1xi8> -> tensor<1x1x1x1xi8, #dla.weight<image, int8, compressed, channels = 1099511627776>>
  return %1 : tensor<1x1x1x1xi8, #dla.weight<image, int8, compressed, channels = 1099511627776>>
}

// -----

// 2^40 kernels of one byte: the all-non-zero bound once listed every kernel
// group (2^35 entries, 256 GiB) before the limit was checked, "LLVM ERROR:
// out of memory" (found by dla-fuzz-format). The bound is now O(1).
func.func @compressed_many_groups() -> tensor<1099511627776x1x1x1xi8, #dla.weight<direct, int8, compressed>> {
  %0 = arith.constant dense<1> : tensor<1099511627776x1x1x1xi8>
  // expected-error @+1 {{more than the limit of 1024 bytes (option max-bytes of --dla-pack-weights)}}
  %1 = dla.relayout %0 : tensor<1099511627776x1x1x1xi8> -> tensor<1099511627776x1x1x1xi8, #dla.weight<direct, int8, compressed>>
  return %1 : tensor<1099511627776x1x1x1xi8, #dla.weight<direct, int8, compressed>>
}

// -----

// Each part fits the limit, their sum does not: 1024 bytes of storage
// (a row-major 1024-byte tensor) plus the expanded splat (1024 bytes).
func.func @sum_counts() -> tensor<1024xi8, #dla.chunked<[(0, 0)]>> {
  %0 = arith.constant dense<7> : tensor<1024xi8>
  // expected-error @+1 {{packing needs 2048 bytes (1024 for storage and temporaries, 1024 for a copy of the source), more than the limit of 1024 bytes (option max-bytes of --dla-pack-weights)}}
  %1 = dla.relayout %0 : tensor<1024xi8> -> tensor<1024xi8, #dla.chunked<[(0, 0)]>>
  return %1 : tensor<1024xi8, #dla.chunked<[(0, 0)]>>
}

// -----

// Compressed 16x16x1x1 int8 direct weights (256 bytes of data): the stream,
// the worst-case image and its three surfaces exceed 1024 bytes together.
func.func @compressed_sum() -> tensor<16x16x1x1xi8, #dla.weight<direct, int8, compressed>> {
  %0 = arith.constant dense<1> : tensor<16x16x1x1xi8>
  // expected-error-re @+1 {{packing needs {{[0-9]+}} bytes ({{[0-9]+}} for storage and temporaries, 256 for a copy of the source), more than the limit of 1024 bytes}}
  %1 = dla.relayout %0 : tensor<16x16x1x1xi8> -> tensor<16x16x1x1xi8, #dla.weight<direct, int8, compressed>>
  return %1 : tensor<16x16x1x1xi8, #dla.weight<direct, int8, compressed>>
}

// -----

// Within the limit: packed.
func.func @fits() -> tensor<16xi8, #dla.chunked<[(0, 0), (0, 32)]>> {
  %0 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
  %1 = dla.relayout %0 : tensor<16xi8> -> tensor<16xi8, #dla.chunked<[(0, 0), (0, 32)]>>
  return %1 : tensor<16xi8, #dla.chunked<[(0, 0), (0, 32)]>>
}
