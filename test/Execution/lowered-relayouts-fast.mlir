// Executes the relayouts that exercise every fast path of the copy loops
// --dla-lower-to-memref emits (StorageCopy.cpp) under mlir-runner: runs
// contiguous on both sides (crouton, depth32, runs longer than one vector,
// ragged last runs: 55x55x60), channel-innermost tiles (NVDLA feature fp16 /
// int8 with and without strides, conv_weight, crouton4x1 / 2x2, 1- to 8-byte
// elements; ragged channel groups, W not a multiple of the tile, W narrower
// than a block), and three encoding-to-encoding relayouts. Each case's
// storage bytes must equal the --dla-pack-weights blob of the same data byte
// for byte, and the reverse relayout (storage -> logical, the other
// direction of every path) must restore the data. Cases: FAST_CASES and
// FAST_VIA in run_relayouts.py.
//
// RUN: %python %dla_ref/run_relayouts.py --opt dla-opt --bin %llvm_bin --fast-paths | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 25 of 25 relayouts byte-identical to the folder and restored (encoding->encoding 3, fast 22)
