// RUN: dla-opt %s --dla-split-convolutions -verify-diagnostics | FileCheck %s
// RUN: grep -v expected- %s | dla-opt --dla-split-convolutions=weight-banks=nvidia 2>&1 | FileCheck %s --check-prefix=NVIDIA
// RUN: not dla-opt %s --dla-split-convolutions=weight-banks=slowest 2>&1 | FileCheck %s --check-prefix=BAD

// The weights' banks of a convolution cut into bands, by time. nv_small:
// 32 banks of 512 8-byte entries. 64 channels of 59 pixels: 472 entries a
// line, the 72 lines 67 banks. Weights 64 x 64 x 5 x 5 = 102400 bytes: 25
// banks whole, a kernel group (8 kernels, 12800 bytes) 4, two groups 8.
// NVIDIA's order gives all weights their 25 banks: 7 banks (3584 entries)
// hold 7 lines, 2 output rows of a 5-row window at stride 2, so 18 bands,
// the weights loaded once. Two kernel groups leave 24 banks (12288
// entries): 26 lines, 11 output rows (25 lines a band), 4 bands, each reading the weights
// again. The performance model estimates the 4 bands faster (18 start-ups
// and 18 overlapping windows against 3 more weight reads): the pass
// records weight_banks 8 and says both estimates.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
// CHECK-LABEL: func.func @by_time
// CHECK: dla.conv direct %arg0, %arg1 stride [2, 2] pad [2, 2, 2, 2] rows_per_part 11 weight_banks 8 :
// NVIDIA: remark: runs as 18 hardware layers of at most 2 output rows {{.*}}(partial height; weights in 25 banks: all its weights, loaded once and reused by every part, at most 26432 bytes of input rows per part)
// NVIDIA-NOT: weight banks by time
// NVIDIA-LABEL: func.func @by_time
// NVIDIA: dla.conv direct %arg0, %arg1 stride [2, 2] pad [2, 2, 2, 2] rows_per_part 2 :
func.func @by_time(%x: tensor<1x64x72x59xi8>, %w: tensor<64x64x5x5xi8>) -> tensor<1x64x36x30xi8> {
  // expected-remark-re @+1 {{runs as 4 hardware layers of at most 11 output rows over bands of its input and result (no host copies): its input takes 67 banks of the convolution buffer and its weights 25, the buffer has 32 of 512 entries (partial height; weights in 8 banks: two kernel groups, its weights read again by every part, at most 94400 bytes of input rows per part); weight banks by time: the performance model estimates {{[0-9]+}} cycles (partial height, 4 parts) against {{[0-9]+}} (partial height, 18 parts, weights reused) with NVIDIA's 25 weight banks}}
  %y = dla.conv direct %x, %w stride [2, 2] pad [2, 2, 2, 2] : tensor<1x64x72x59xi8>, tensor<64x64x5x5xi8> -> tensor<1x64x36x30xi8>
  return %y : tensor<1x64x36x30xi8>
}
}
// BAD: for the --weight-banks option: Cannot find option named 'slowest'!
