// Executes every layer op kind through --dla-lower-to-reference, upstream
// bufferization and LLVM lowering and mlir-runner, on random non-splat data
// (saturating, clipping and rounding cases included), and compares each
// element with the independent numpy reference utils/dla-ref/layer_ref.py:
// integers exact (integer LRN is the CDP's arithmetic on derived tables),
// fp16 within one f16 ulp (f32 accumulation order). One module per kind;
// the cases are listed in run_layers.py.
//
// RUN: %python %dla_ref/run_layers.py --kind conv --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=CONV
// RUN: %python %dla_ref/run_layers.py --kind sdp --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=SDP
// The pools' fp16 averages are the ideal arithmetic's here (f32 sum, one
// rounding: within one ulp of the exact mean); NVDLA's, the default on
// nv_full, sums in fp17 (up to hundreds of ulps where values cancel) and
// is bit-exact with fp_nvdla.py in fp16-pdp-layers.test.
// RUN: %python %dla_ref/run_layers.py --kind pool --fp16-arithmetic ideal --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=POOL
// The fp16 LRNs likewise are the ideal arithmetic's here (f32 and powf);
// NVDLA's, the default on nv_full, interpolates the CDP's float-mode table
// (2 ulps on these) and is bit-exact with fp_nvdla.py in fp16-lrn-layers.test.
// RUN: %python %dla_ref/run_layers.py --kind lrn --fp16-arithmetic ideal --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=LRN
//
// The same convolutions and pools through --dla-lower-to-llvm: the outlined
// kernels dla-run-onnx runs, reductions in register-tiled vector loops
// (--dla-vectorize-kernels). conv-order's fp16 sums depend on their order
// (terms of 2^13 added, then cancelled): both lowerings must equal, bit for
// bit, the f32 sum in the order docs/ReferenceSemantics.md states (the
// ideal fp16 arithmetic, fp16-arithmetic=ideal; NVDLA's, the default on
// nv_full, is within the one ulp of the CONV and SDP runs and bit-exact
// with fp_nvdla.py in fp16-conv-layers.test).
// RUN: %python %dla_ref/run_layers.py --kind conv --path llvm --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=CONV
// RUN: %python %dla_ref/run_layers.py --kind pool --fp16-arithmetic ideal --path llvm --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=POOL
// RUN: %python %dla_ref/run_layers.py --kind conv-order --fp16-arithmetic ideal --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=ORDER
// RUN: %python %dla_ref/run_layers.py --kind conv-order --fp16-arithmetic ideal --path llvm --opt dla-opt --bin %llvm_bin | FileCheck %s --check-prefix=ORDER
// ORDER-NOT: MISMATCH
// ORDER: ok ord_conv_0: 1080 values, 0 of 1080 values differ
// ORDER: 5 of 5 cases match
//
// fp16 results beyond the largest normal clip to +-65504 (NVDLA's rule), not
// inf: the clipping cases say how many values they clip.
// CONV: ok conv_direct_f16_f16_2: 48 values, {{.*}}, 12 clipped to +-65504
// SDP: ok sdp_f16_f16_2: 36 values, {{.*}}, 4 clipped to +-65504
// CACC's clip truncate, bit-exact with utils/dla-ref/int_conv.cacc_clip:
// CONV: ok conv_direct_i8_i8_10
// CONV: ok conv_direct_i16_i16_11
// CONV: ok conv_direct_i16_i16_12
// CONV: 13 of 13 cases match
// The output converter (sdp_*_8 to _11, clamp_i8_i8_15), bit-exact with the
// numpy model of the C model's converter (utils/dla-ref/int_sdp.sdp_cvt):
// SDP: ok sdp_i16_i16_8
// SDP: ok sdp_i8_i8_9
// SDP: ok sdp_i16_i8_10
// SDP: ok sdp_i8_i16_11
// SDP: ok clamp_f16_f16_12
// SDP: ok clamp_i8_i8_13
// SDP: ok clamp_f16_i16_14
// SDP: ok clamp_i8_i8_15
// SDP: 16 of 16 cases match
// POOL: 9 of 9 cases match
// LRN: ok lrn_i8_5_3
// LRN: ok lrn_i16_3_4
// LRN: 5 of 5 cases match
