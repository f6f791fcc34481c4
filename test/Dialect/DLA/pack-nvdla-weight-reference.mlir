// Packed bytes of the NVDLA weight encodings (#dla.weight) checked against an
// independent numpy implementation of the NVDLA document and NVIDIA's compiler
// facts (utils/dla-ref/weight_ref.py): direct, image input (pre-extension,
// post-extension 2 / 4 / auto), Winograd and deconvolution weights, every
// precision and hardware config, sparse compression (WGS / WMB / data),
// arith.truncf fusion with both roundings, and random cases.  Data is iota or
// random-sparse; check_packed.py reads it back from the module (--source).
//
// Direct, format_dc_weight_mapping: a group of 16 3x3x192-byte kernels (int16/fp16):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, fp16>' --shape 16x96x3x3 > %t.fig.mlir
// RUN: dla-opt %t.fig.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.fig.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, int16>' --shape 16x96x3x3 > %t.fig16.mlir
// RUN: dla-opt %t.fig16.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.fig16.mlir --expect-count 1
//
// Direct, a short last kernel group (K = 33) and a short last channel block
// (C = 130), every precision of every config (nv_full is the default;
// nv_large and nv_small compute int8 only: spec/defs/*.spec):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, int8>' --shape 33x130x3x3 > %t.d1.mlir
// RUN: dla-opt %t.d1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.d1.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, int16, config = nv_full>' --shape 33x130x3x3 > %t.d2.mlir
// RUN: dla-opt %t.d2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.d2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, fp16>' --shape 33x130x3x3 > %t.d3.mlir
// RUN: dla-opt %t.d3.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.d3.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, int8, config = nv_large>' --shape 33x130x3x3 > %t.d4.mlir
// RUN: dla-opt %t.d4.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.d4.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, int8, config = nv_small>' --shape 33x130x3x3 > %t.d7.mlir
// RUN: dla-opt %t.d7.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.d7.mlir --expect-count 1
//
// Image input, format_dc_channel_extension_for_image_for_weight (5x5x3 int16
// -> 1x5x15), C zero-padded to a 4-channel pixel format first, channel blocks
// of the extended kernel on nv_small (S*Cp = 28 > atomic-C 8):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int16, channels = 3>' --shape 16x3x5x5 > %t.i1.mlir
// RUN: dla-opt %t.i1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.i1.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int8, channels = 4>' --shape 40x3x7x7 > %t.i2.mlir
// RUN: dla-opt %t.i2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.i2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int8, channels = 4, config = nv_small>' --shape 9x3x3x7 > %t.i3.mlir
// RUN: dla-opt %t.i3.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.i3.mlir --expect-count 1
//
// Post-extension, format_weight_channel_post_extension_2 (C' = 28, 16 kernels,
// 3 rows: a last row group of one row), factor 4 with a short last group and
// three kernel groups on nv_small, auto (-> 4 with stride 2; -> none with
// stride_x 4 > S = 3; -> 2 on nv_large with C' = 20):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, fp16, channels = 28, post_extension = 2>' --shape 16x28x3x1 > %t.p2.mlir
// RUN: dla-opt %t.p2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.p2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int8, channels = 1, post_extension = 4, config = nv_small>' --shape 20x1x6x2 > %t.p4.mlir
// RUN: dla-opt %t.p4.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.p4.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int8, channels = 4, post_extension = auto, stride = 2>' --shape 40x3x7x3 > %t.pa.mlir
// RUN: dla-opt %t.pa.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.pa.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int16, channels = 4, post_extension = auto, stride = [1, 4]>' --shape 20x3x5x3 > %t.pn.mlir
// RUN: dla-opt %t.pn.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.pn.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int8, channels = 4, post_extension = auto, config = nv_large>' --shape 17x4x7x5 > %t.pl.mlir
// RUN: dla-opt %t.pl.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.pl.mlir --expect-count 1
//
// Winograd: int8 (32 kernels per group, C 70 -> 96), int16 with the config
// not changing the 16-kernel groups, format_channel_extension_and_conversion_for_wingorad
// (5x5x48 bytes fp16, stride 2 -> 3x3x256 bytes -> 4x4x256 bytes) with both
// roundings of the fp32 transform (iota makes ties), int16 stride 3 with
// random data (saturation):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, int8>' --shape 33x70x3x3 > %t.w1.mlir
// RUN: dla-opt %t.w1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.w1.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, int16>' --shape 17x20x3x3 > %t.w2.mlir
// RUN: dla-opt %t.w2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.w2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16, stride = 2>' --shape 16x24x5x5 > %t.w3.mlir
// RUN: dla-opt %t.w3.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.w3.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16, stride = 2, rounding = to_nearest_even>' --shape 16x24x5x5 > %t.w4.mlir
// RUN: dla-opt %t.w4.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.w4.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16, rounding = to_nearest_even>' --shape 20x40x3x3 > %t.w5.mlir
// RUN: dla-opt %t.w5.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.w5.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, int16, stride = 3>' --shape 18x5x8x9 --data random-sparse --seed 3 > %t.w6.mlir
// RUN: dla-opt %t.w6.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.w6.mlir --expect-count 1
//
// Deconvolution: 2x2 sets, 2x3 sets on nv_large, and a 3x1 split of a
// 2-row kernel (the third set holds no tap) on nv_small:
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<deconv, int8, stride = [2, 2]>' --shape 40x70x4x4 > %t.dc1.mlir
// RUN: dla-opt %t.dc1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.dc1.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<deconv, int8, stride = [2, 3], config = nv_large>' --shape 20x10x5x7 > %t.dc2.mlir
// RUN: dla-opt %t.dc2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.dc2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<deconv, int8, stride = [3, 1], config = nv_small>' --shape 6x9x2x3 > %t.dc3.mlir
// RUN: dla-opt %t.dc3.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.dc3.mlir --expect-count 1
//
// Sparse compression (dla.weight_constant with WGS / WMB / data) on random
// sparse data, every format and precision (nv_full: the one configuration
// with WEIGHT_COMPRESSION_ENABLE):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, int8, compressed>' --shape 33x130x3x3 --data random-sparse --seed 1 > %t.c1.mlir
// RUN: dla-opt %t.c1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.c1.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, fp16, compressed>' --shape 33x130x2x2 --data random-sparse --seed 2 > %t.c2.mlir
// RUN: dla-opt %t.c2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.c2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, int16, compressed, channels = 4, post_extension = auto>' --shape 33x3x7x3 --data random-sparse --seed 3 > %t.c3.mlir
// RUN: dla-opt %t.c3.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.c3.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16, compressed, stride = 2, rounding = to_nearest_away>' --shape 17x24x6x5 --data random-sparse --seed 4 > %t.c4.mlir
// RUN: dla-opt %t.c4.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.c4.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<deconv, int16, compressed, stride = [2, 3]>' --shape 20x70x4x5 --data random-sparse --seed 5 > %t.c5.mlir
// RUN: dla-opt %t.c5.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.c5.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, int8, compressed>' --shape 40x33x3x3 > %t.c6.mlir
// RUN: dla-opt %t.c6.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.c6.mlir --expect-count 1
//
// arith.truncf f32 -> f16 folded into the packing, on f32 data full of fp16
// ties: no rounding mode (ties to even), to_nearest_even, to_nearest_away;
// and a truncf feeding a Winograd transform (two roundings):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, fp16>' --shape 20x40x3x3 --data random-sparse --seed 6 --truncf > %t.t1.mlir
// RUN: dla-opt %t.t1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.t1.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, fp16>' --shape 20x40x3x3 --data random-sparse --seed 6 --truncf to_nearest_even > %t.t2.mlir
// RUN: dla-opt %t.t2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.t2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<direct, fp16>' --shape 20x40x3x3 --data random-sparse --seed 6 --truncf to_nearest_away > %t.t3.mlir
// RUN: dla-opt %t.t3.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.t3.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<deconv, fp16, compressed, stride = [2, 2]>' --shape 20x40x3x3 --data random-sparse --seed 7 --truncf to_nearest_away > %t.t4.mlir
// RUN: dla-opt %t.t4.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.t4.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16, rounding = to_nearest_away>' --shape 20x40x3x3 --data random-sparse --seed 8 --truncf > %t.t5.mlir
// RUN: dla-opt %t.t5.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.t5.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<image, fp16, channels = 4, post_extension = 2>' --shape 20x3x5x3 --data random-sparse --seed 9 --truncf to_nearest_away > %t.t6.mlir
// RUN: dla-opt %t.t6.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.t6.mlir --expect-count 1
//
// f32 weights relayouted straight into Winograd fp16 (as NVIDIA's compiler
// packs them): G g G^T of the f32 values, rounded once (both roundings, a
// stride-2 compressed case). The same data through arith.truncf (t5: the
// fp16 weights transformed and rounded again) differs on these values: each
// packing fails the other's reference.
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16, rounding = to_nearest_away>' --shape 20x40x3x3 --data random-sparse --seed 8 --f32-straight > %t.s1.mlir
// RUN: dla-opt %t.s1.mlir --dla-pack-weights 2>/dev/null > %t.s1.packed.mlir
// RUN: %python %dla_ref/check_packed.py --source %t.s1.mlir --expect-count 1 < %t.s1.packed.mlir
// RUN: not %python %dla_ref/check_packed.py --source %t.t5.mlir --expect-count 1 < %t.s1.packed.mlir 2>&1 | FileCheck %s --check-prefix=TWO-ROUNDINGS
// RUN: dla-opt %t.t5.mlir --dla-pack-weights 2>/dev/null | not %python %dla_ref/check_packed.py --source %t.s1.mlir --expect-count 1 2>&1 | FileCheck %s --check-prefix=ONE-ROUNDING
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16>' --shape 17x24x3x3 --data random-sparse --seed 10 --f32-straight > %t.s2.mlir
// RUN: dla-opt %t.s2.mlir --dla-pack-weights 2>/dev/null | %python %dla_ref/check_packed.py --source %t.s2.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, fp16, compressed, stride = 2>' --shape 17x24x6x5 --data random-sparse --seed 11 --f32-straight > %t.s3.mlir
// RUN: dla-opt %t.s3.mlir --dla-pack-weights 2>/dev/null | %python %dla_ref/check_packed.py --source %t.s3.mlir --expect-count 1
//
// f32 weights relayouted straight into int8 / int16 Winograd taps with a
// scale (the project's semantics, docs/ReferenceSemantics.md): the stored
// taps are round(G g G^T / scale) once, saturated (these values saturate
// often, and their f32 ties meet the rounding); int16 stride 2 compressed.
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, int8, scale = 0.75>' --shape 33x20x3x3 --data random-sparse --seed 12 --f32-straight > %t.q1.mlir
// RUN: dla-opt %t.q1.mlir --dla-pack-weights 2>&1 >/dev/null | FileCheck %s --check-prefix=SCALED
// RUN: dla-opt %t.q1.mlir --dla-pack-weights 2>/dev/null | %python %dla_ref/check_packed.py --source %t.q1.mlir --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.weight<winograd, int16, compressed, stride = 2, scale = 0.015625>' --shape 17x6x5x6 --data random-sparse --seed 13 --f32-straight > %t.q2.mlir
// RUN: dla-opt %t.q2.mlir --dla-pack-weights 2>/dev/null | %python %dla_ref/check_packed.py --source %t.q2.mlir --expect-count 1
// SCALED: remark: Winograd int8 weights from f32: transformed in f32, divided by the scale, rounded once
// TWO-ROUNDINGS: packed bytes differ from the reference
// TWO-ROUNDINGS: data: @case0 of the source through arith.truncf
// ONE-ROUNDING: packed bytes differ from the reference
// ONE-ROUNDING: data: @case0 of the source, f32 straight
//
// Random configurations over all formats, precisions, configs and flags
// (compression, post-extension, strides, rounding, truncf, iota / sparse data):
// RUN: %python %dla_ref/gen_module.py --random-weights 150 --seed 1 > %t.random1.mlir
// RUN: dla-opt %t.random1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.random1.mlir --expect-count 150
// RUN: %python %dla_ref/gen_module.py --random-weights 150 --seed 20261121 > %t.random2.mlir
// RUN: dla-opt %t.random2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --source %t.random2.mlir --expect-count 150
//
// The checker itself must fail on a corrupted byte (uncompressed: the first
// stream byte, iota element (0,0,0,0) = 0; compressed: the first WGS entry):
// RUN: dla-opt %t.d1.mlir --dla-pack-weights | sed -e 's/"0x0001000000/"0x0001000001/' | not %python %dla_ref/check_packed.py --source %t.d1.mlir 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: dla_packed: packed bytes differ from the reference
// CORRUPT: type: tensor<33x130x3x3xi8, #dla.weight<direct, int8>>
// CORRUPT: first differing byte: 0
// CORRUPT: reference puts there: stream element 0: (0,0,0,0) byte 0
// CORRUPT: expected byte 0x00, actual 0x01
// RUN: dla-opt %t.c1.mlir --dla-pack-weights | sed -e 's/\(wgs[A-Za-z0-9_]*: "0x00010000\)../\1FF/' | not %python %dla_ref/check_packed.py --source %t.c1.mlir 2>&1 | FileCheck %s --check-prefix=CORRUPTZ
// CORRUPTZ: (wgs of the dla.weight_constant in @case0): packed bytes differ from the reference
// CORRUPTZ: first differing byte: 0
// CORRUPTZ: reference puts there: WGS of kernel group 0 (kernels 0..31): expected
