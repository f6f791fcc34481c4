// The SDP's integer stages (#dla.sdp_x bs / bn, #dla.sdp_y ew, out_cvt)
// executed on 700 random layers through mlir-runner, every value identical
// to utils/dla-ref/int_sdp.py, the numpy model of NVIDIA's C model
// (cmod/hls/sdp; itself checked against the C model's code in
// test/NvdlaCModel/integer-units.test). The cases (int_cases_sdp.py) cover
// every stage combination (ew with and without its lookup table), register
// and memory operands (per channel, per
// element, batch-norm's two components, the Y converters), offline and
// on-the-fly inputs (the convolution's accumulator after clip_truncate),
// and int8 / int16 / fp16 results (on the fly int8 widened to int16 too:
// 41 of seed 21's 600, 26 of them beyond int8; 7 of seed 22's 100), with
// registers across their ranges.
//
// Through --dla-lower-to-reference:
// RUN: %python %dla_ref/run_layers.py --kind int-sdp --count 600 --seed 21 --opt dla-opt --bin %llvm_bin | FileCheck %s
// CHECK: 600 of 600 cases match
//
// On storage: layouts assigned by --dla-compile, each layer in
// dla.on_storage, computed by --dla-lower-buffers-to-reference:
// RUN: %python %dla_ref/run_layers.py --kind int-sdp --count 100 --seed 22 --path compiled --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=STORAGE
// STORAGE: 100 of 100 cases match
