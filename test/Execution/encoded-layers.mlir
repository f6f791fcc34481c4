// Layers whose operands and results live in accelerator formats (NVDLA
// feature / pixel (interleaved, semi-planar) / weight / bias / batch-norm /
// element-wise / PReLU; the layer ops are NVDLA's, so HTP layouts are not
// legal operands), run end to end two ways and compared with
// utils/dla-ref/layer_ref.py:
// - --dla-lower-to-reference, then --dla-lower-to-llvm (constants packed,
//   every relayout lowered to code, function boundaries as storage byte
//   buffers), mlir-runner;
// - --dla-lower-to-llvm alone: each layer op runs in a dla.on_storage (one
//   per case, counted) from the packed storage bytes through
//   --dla-lower-buffers-to-reference.
//
// RUN: %python %dla_ref/run_layers.py --kind encoded --opt dla-opt --bin %llvm_bin | FileCheck %s
// RUN: %python %dla_ref/run_layers.py --kind encoded --path memref --opt dla-opt --bin %llvm_bin | FileCheck %s
// CHECK: ok enc_conv_f16
// CHECK: ok enc_sdp_i8
// CHECK: ok enc_lrn_i8
// CHECK: ok enc_image_abgr
// CHECK: ok enc_image_yuv
// CHECK: ok enc_sdp_f16_clips: 72 values, {{.*}}, 9 clipped to +-65504
// CHECK: ok enc_pool_i8
// CHECK: 7 of 7 cases match
