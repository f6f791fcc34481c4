// Layers whose operands and results live in accelerator formats (NVDLA
// feature / weight / bias / batch-norm / element-wise / PReLU; the layer ops
// are NVDLA's, so HTP layouts are not legal operands), run end to end:
// --dla-lower-to-reference, then --dla-lower-to-llvm (constants packed,
// every relayout lowered to code, function boundaries as storage byte
// buffers), mlir-runner; compared with utils/dla-ref/layer_ref.py.
//
// RUN: %python %dla_ref/run_layers.py --kind encoded --opt dla-opt --bin %llvm_bin | FileCheck %s
// CHECK: ok enc_conv_f16
// CHECK: ok enc_sdp_i8
// CHECK: ok enc_lrn_i8
// CHECK: 3 of 3 cases match
