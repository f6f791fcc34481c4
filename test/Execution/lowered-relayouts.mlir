// Executes 240 random relayouts lowered by --dla-lower-to-llvm under
// mlir-runner: 80 chunked (presets and random pair lists), 80 NVDLA feature
// (packed and strided) / pixel (interleaved, semi-planar, 10-bit) / bias /
// PReLU / batch-norm / element-wise, 80 uncompressed weights (direct, image,
// deconvolution). Data comes from tensor.generate at run time; each case's
// storage bytes (dla.to_storage) must equal the --dla-pack-weights blob of
// the same data byte for byte, and the reverse relayout must restore the
// data (10-bit pixels: the bits the format keeps). The 29 rank-4 feature
// cases are also relayouted from their strides straight into packed feature
// data (encoding to encoding) and compared with the folder's blob. Cases:
// run_relayouts.py.
//
// RUN: %python %dla_ref/run_relayouts.py --opt dla-opt --bin %llvm_bin --cases 240 --seed 1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 269 of 269 relayouts byte-identical to the folder and restored (chunked 80, feature->feature 29, nvdla 80, weight 80)
