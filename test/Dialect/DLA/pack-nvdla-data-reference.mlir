// Packed bytes of the NVDLA activation and auxiliary encodings checked against
// an independent numpy implementation of the NVDLA document
// (utils/dla-ref/nvdla_ref.py): feature data, pitch-linear pixel formats,
// bias / PReLU / batch-norm / element-wise data, iota data, plus random cases.
//
// Feature data, packed, int8, C = 40 (not a multiple of the 32-channel atom), N = 2:
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.feature<int8>' --shape 2x40x3x5 > %t.feat.mlir
// RUN: dla-opt %t.feat.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// Feature data, unpacked (line, surface and batch gaps), fp16, C = 20, N = 2:
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.feature<fp16, line_stride = 192, surface_stride = 640, batch_stride = 1344>' --shape 2x20x3x5 > %t.featu.mlir
// RUN: dla-opt %t.featu.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// Feature data, int16, unpacked lines only:
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.feature<int16, line_stride = 96>' --shape 1x17x2x2 > %t.feat16.mlir
// RUN: dla-opt %t.feat16.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
//
// Pixel formats: semi-planar (U8V8: V at the lower address) with an x offset,
// semi-planar 10-bit with explicit strides and UV plane offset, interleaved
// 8-bit with an x offset, and 10-bit packed (iota exceeds 10 bits: masked):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.pixel<T_Y8___U8V8_N444, x_offset = 5>' --shape 1x3x4x30 > %t.nv12.mlir
// RUN: dla-opt %t.nv12.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.pixel<T_Y10___V10U10_N444, line_stride = 64, x_offset = 15, uv_line_stride = 128, uv_offset = 320>' --shape 1x3x4x9 > %t.p010.mlir
// RUN: dla-opt %t.p010.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.pixel<T_A8B8G8R8, x_offset = 3>' --shape 1x4x5x20 > %t.rgba.mlir
// RUN: dla-opt %t.rgba.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.pixel<T_A2B10G10R10, x_offset = 7>' --shape 1x4x8x50 > %t.rgb10.mlir
// RUN: dla-opt %t.rgb10.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
//
// Per-element bias: int8 in two bytes (sign-extended, 64-byte atoms), N = 2;
// int16 in one byte (16-byte atoms, line stride rounded up to 32 bytes):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.bias<per_element, int8, data_size = two_byte>' --shape 2x40x3x4 > %t.pebias.mlir
// RUN: dla-opt %t.pebias.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.bias<per_element, int16, data_size = one_byte>' --shape 20x2x3 --type i8 > %t.pebias16.mlir
// RUN: dla-opt %t.pebias16.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
//
// Per-channel bias, both data sizes (iota wraps to negative int8 values):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.bias<per_channel, int8>' --shape 150 > %t.pcb1.mlir
// RUN: dla-opt %t.pcb1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.bias<per_channel, int8, data_size = two_byte>' --shape 150 > %t.pcb2.mlir
// RUN: dla-opt %t.pcb2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.bias<per_layer, int8, data_size = two_byte>' --shape '' > %t.plb.mlir
// RUN: dla-opt %t.plb.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
//
// PReLU, batch-norm (add/mul interleaved per channel; per layer) and element-wise
// (ALU and MUL interleaved per element):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.prelu<int16, data_size = one_byte>' --shape 40 --type i8 > %t.prelu.mlir
// RUN: dla-opt %t.prelu.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.batchnorm<per_channel, int8, data_size = two_byte>' --shape 200x2 > %t.bn.mlir
// RUN: dla-opt %t.bn.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.batchnorm<per_channel, fp16>' --shape 20x2 > %t.bnf.mlir
// RUN: dla-opt %t.bnf.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.batchnorm<per_layer, int16>' --shape 2 > %t.bnl.mlir
// RUN: dla-opt %t.bnl.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.eltwise<int8, components = 2, line_stride = 320>' --shape 2x40x3x4x2 > %t.elt2.mlir
// RUN: dla-opt %t.elt2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
// Element-wise data size is rounded up to 32 bytes (batch stride 40 -> 64 bytes):
// RUN: %python %dla_ref/gen_module.py --encoding '#dla.eltwise<int8, batch_stride = 40>' --shape 1x4x1x1 > %t.eltr.mlir
// RUN: dla-opt %t.eltr.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 1
//
// Random feature (incl. unpacked strides), pixel (all 36 formats, x offsets in
// range) and auxiliary configurations:
// RUN: %python %dla_ref/gen_module.py --random-nvdla 150 --seed 1 > %t.random1.mlir
// RUN: dla-opt %t.random1.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 150
// RUN: %python %dla_ref/gen_module.py --random-nvdla 150 --seed 20261121 > %t.random2.mlir
// RUN: dla-opt %t.random2.mlir --dla-pack-weights | %python %dla_ref/check_packed.py --expect-count 150
//
// The checker itself must fail on a corrupted byte:
// RUN: dla-opt %t.feat.mlir --dla-pack-weights | sed -e 's/"0x4000000000/"0x4000000001/' | not %python %dla_ref/check_packed.py 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: dla_packed: packed bytes differ from the reference
// CORRUPT: type: tensor<2x40x3x5xi8, #dla.feature<int8>>
// CORRUPT: first differing byte: 0
// CORRUPT: reference puts there: (0,0,0,0) byte 0
// CORRUPT: expected byte 0x00, actual 0x01
