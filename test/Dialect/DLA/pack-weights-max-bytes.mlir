// RUN: dla-opt %s -split-input-file -verify-diagnostics --dla-pack-weights=max-bytes=1024
//
// max-bytes bounds everything packing holds over the whole run, counted
// before anything is allocated: per constant the storage surfaces, the
// packer's temporaries (compressed weights at their all-non-zero worst) and a
// copy of the source, summed over the constants, so the pass's peak is the
// limit and not a multiple of it.

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

// The limit is the run's, not one constant's: 600 + 600 bytes of storage,
// each within 1024, are diagnosed at the second (non-splat data, read in
// place: no copy of the source).
!part = tensor<600xi8, #dla.chunked<[(0, 0)]>>
func.func @run_sum() -> (!part, !part) {
  %0 = arith.constant dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F5051525354555657"> : tensor<600xi8>
  %1 = dla.relayout %0 : tensor<600xi8> -> !part
  // expected-error @+1 {{packing needs 600 bytes, 1200 with the 600 bytes of the constants packed before it, more than the limit of 1024 bytes (option max-bytes of --dla-pack-weights)}}
  %2 = dla.relayout %0 : tensor<600xi8> -> !part
  return %1, %2 : !part, !part
}

// -----

// Within the limit: packed.
func.func @fits() -> tensor<16xi8, #dla.chunked<[(0, 0), (0, 32)]>> {
  %0 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
  %1 = dla.relayout %0 : tensor<16xi8> -> tensor<16xi8, #dla.chunked<[(0, 0), (0, 32)]>>
  return %1 : tensor<16xi8, #dla.chunked<[(0, 0), (0, 32)]>>
}
