// RUN: dla-opt %s --dla-lower-to-reference=fp16-arithmetic=ideal | FileCheck %s --enable-var-scope
// RUN: dla-opt %s --dla-lower-to-reference | FileCheck %s --check-prefix=HW --enable-var-scope

// The structure of each layer's reference lowering: encoded operands read
// through relayouts, the pipeline type, one rounding at the output. The
// numbers are checked by executing them (test/Execution/reference-layers.mlir).

// An fp16 convolution on encoded operands, with fp16-arithmetic=ideal:
// relayouts to row-major, products and sums in f32, the bias added in f32,
// one clipped rounding to f16, the result relayouted back to its
// feature-data encoding.
// With NVDLA's arithmetic (the default on nv_full): the runtime's
// conv_fp16 on the bits of the row-major operands gives CACC's fp32 bits,
// the bias is widened and added by the SDP's FpAdd, the output converter
// rounds (docs/NvdlaFp16.md "The CPU execution").
// HW-DAG: func.func private @dla_nvdla_conv_fp16(memref<?xi16>, memref<?xi16>, memref<?xi32>, i64,
// HW-DAG: func.func private @dla_nvdla_fp32_add(i32, i32) -> i32
// HW-DAG: func.func private @dla_nvdla_sdp_lut_float_fp16(memref<?xi64>, memref<?xi32>, memref<?xi16>, i64)
// HW-DAG: func.func private @dla_nvdla_conv_wino_fp16(memref<?xi16>, memref<?xi16>, memref<?xi32>, i64,
// HW-LABEL: func.func @conv_fp16_encoded
// HW: %[[XP:.*]] = dla.relayout %{{.*}} : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16>
// HW: arith.bitcast %[[XP]] : tensor<1x16x8x8xf16> to tensor<1x16x8x8xi16>
// HW: call @dla_nvdla_conv_fp16(
// HW: %[[ACC:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<1x16x8x8xi32> to tensor<1x16x8x8xi32>
// HW: linalg.generic {{.*}} ins(%[[ACC]], %{{.*}} : tensor<1x16x8x8xi32>, tensor<16xf16>)
// HW: func.call @dla_nvdla_fp16_to_fp32(
// HW: func.call @dla_nvdla_fp32_add(
// HW: func.call @dla_nvdla_fp32_to_fp16(
// HW: dla.relayout %{{.*}} : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK-LABEL: func.func @conv_fp16_encoded
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x8x8xf16, #dla.feature<fp16>>, %[[W:.*]]: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>, %[[B:.*]]: tensor<16xf16, #dla.bias<per_channel, fp16>>)
// CHECK: %[[XP:.*]] = dla.relayout %[[X]] : tensor<1x16x8x8xf16, #dla.feature<fp16>> -> tensor<1x16x8x8xf16>
// CHECK: %[[WP:.*]] = dla.relayout %[[W]] : tensor<16x16x3x3xf16, #dla.weight<direct, fp16>> -> tensor<16x16x3x3xf16>
// CHECK: %[[XE:.*]] = linalg.generic {{.*}} ins(%[[XP]] : tensor<1x16x8x8xf16>) outs({{.*}} : tensor<1x16x8x8xf32>)
// CHECK: arith.extf
// CHECK: %[[WE:.*]] = linalg.generic {{.*}} ins(%[[WP]] : tensor<16x16x3x3xf16>) outs({{.*}} : tensor<16x16x3x3xf32>)
// CHECK: %[[PAD:.*]] = tensor.pad %[[XE]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK: %[[SUM:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[PAD]], %[[WE]] : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%[[ACC]] : tensor<1x16x8x8xf32>)
// CHECK: %[[BP:.*]] = dla.relayout %[[B]] : tensor<16xf16, #dla.bias<per_channel, fp16>> -> tensor<16xf16>
// CHECK: %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[SUM]], %[[BP]] : tensor<1x16x8x8xf32>, tensor<16xf16>)
// CHECK: arith.extf
// CHECK: arith.addf
// CHECK: arith.constant 6.550400e+04 : f32
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: %[[R:.*]] = dla.relayout %[[OUT]] : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
// CHECK: return %[[R]]
func.func @conv_fp16_encoded(%x: tensor<1x16x8x8xf16, #dla.feature<fp16>>,
                             %w: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>,
                             %b: tensor<16xf16, #dla.bias<per_channel, fp16>>)
    -> tensor<1x16x8x8xf16, #dla.feature<fp16>> {
  %y = dla.conv direct %x, %w, %b pad [1, 1, 1, 1]
      : tensor<1x16x8x8xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>,
        tensor<16xf16, #dla.bias<per_channel, fp16>> -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x8x8xf16, #dla.feature<fp16>>
}

// int8 accumulates in i32 and saturates to int8; strides and dilations
// carry over.
// CHECK-LABEL: func.func @conv_int8
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} {{.*}} outs({{.*}} : tensor<1x8x4x3xi32>)
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: arith.trunci {{.*}} : i32 to i8
func.func @conv_int8(%x: tensor<1x8x8x8xi8>, %w: tensor<8x8x3x3xi8>) -> tensor<1x8x4x3xi8> {
  %y = dla.conv direct %x, %w stride [1, 2] dilation [2, 1]
      : tensor<1x8x8x8xi8>, tensor<8x8x3x3xi8> -> tensor<1x8x4x3xi8>
  return %y : tensor<1x8x4x3xi8>
}

// An unsigned image: its bits are read signless and zero-extended, then
// pass CDMA's identity converter, which saturates them to the int8 pipeline
// (docs/IntegerAttributes.md decision 5); only the weight's 3 of the
// image's 4 channels take part.
// CHECK-LABEL: func.func @conv_image
// CHECK: ^bb0(%[[IN:.*]]: ui8, %{{.*}}: i8):
// CHECK: %[[BITS:.*]] = builtin.unrealized_conversion_cast %[[IN]] : ui8 to i8
// CHECK: arith.extui %[[BITS]] : i8 to i64
// CHECK: arith.constant 127 : i64
// CHECK: arith.minsi
// CHECK: arith.trunci {{.*}} : i64 to i8
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: tensor.extract_slice {{.*}}[0, 0, 0, 0] [1, 3, 6, 6] [1, 1, 1, 1] : tensor<1x4x6x6xi32> to tensor<1x3x6x6xi32>
func.func @conv_image(%x: tensor<1x4x6x6xui8>, %w: tensor<8x3x3x3xi8>) -> tensor<1x8x4x4xi8> {
  %y = dla.conv image %x, %w : tensor<1x4x6x6xui8>, tensor<8x3x3x3xi8> -> tensor<1x8x4x4xi8>
  return %y : tensor<1x8x4x4xi8>
}

// SDP: one element-wise generic; bias, batch-norm (add then multiply),
// element-wise add, PReLU, in the int32 pipeline computed as i64 and
// saturated to the int16 output.
// CHECK-LABEL: func.func @sdp_int8
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x2x2xi8>, %[[B:.*]]: tensor<4xi8>, %[[BN:.*]]: tensor<4x2xi16>, %[[E:.*]]: tensor<1x4x2x2xi8>, %[[P:.*]]: tensor<4xi8>)
// CHECK-DAG: %[[ADD:.*]] = tensor.extract_slice %[[BN]][0, 0] [4, 1] [1, 1] : tensor<4x2xi16> to tensor<4xi16>
// CHECK-DAG: %[[MUL:.*]] = tensor.extract_slice %[[BN]][0, 1] [4, 1] [1, 1] : tensor<4x2xi16> to tensor<4xi16>
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[B]], %[[ADD]], %[[MUL]], %[[E]], %[[P]] :
// CHECK: ^bb0(%[[VX:.*]]: i8, %[[VB:.*]]: i8, %[[VA:.*]]: i16, %[[VM:.*]]: i16, %[[VE:.*]]: i8, %[[VP:.*]]: i8, %{{.*}}: i16):
// CHECK: %[[X64:.*]] = arith.extsi %[[VX]] : i8 to i64
// CHECK: %[[B64:.*]] = arith.extsi %[[VB]] : i8 to i64
// CHECK: %[[S1:.*]] = arith.addi %[[X64]], %[[B64]] : i64
// CHECK: arith.addi %[[S1]]
// CHECK: arith.muli
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.trunci {{.*}} : i64 to i16
func.func @sdp_int8(%x: tensor<1x4x2x2xi8>, %b: tensor<4xi8>, %bn: tensor<4x2xi16>,
                    %e: tensor<1x4x2x2xi8>, %p: tensor<4xi8>) -> tensor<1x4x2x2xi16> {
  %y = dla.sdp offline %x bias %b : tensor<4xi8> batchnorm %bn : tensor<4x2xi16>
      eltwise %e : tensor<1x4x2x2xi8> prelu %p : tensor<4xi8> : tensor<1x4x2x2xi8> -> tensor<1x4x2x2xi16>
  return %y : tensor<1x4x2x2xi16>
}

// fp16 -> int16 rounds half away from zero and saturates; NaN becomes 0.
// CHECK-LABEL: func.func @sdp_fp16_to_int16
// CHECK: arith.maximumf
// CHECK: arith.extf {{.*}} : f32 to f64
// CHECK: math.round
// CHECK: arith.constant 3.276700e+04 : f64
// CHECK: arith.fptosi {{.*}} : f64 to i16
// CHECK: arith.cmpf uno
func.func @sdp_fp16_to_int16(%x: tensor<1x4x2x2xf16>) -> tensor<1x4x2x2xi16> {
  %y = dla.sdp offline %x relu : tensor<1x4x2x2xf16> -> tensor<1x4x2x2xi16>
  return %y : tensor<1x4x2x2xi16>
}

// Max pooling pads with -inf and reduces over a (kh, kw) window.
// CHECK-LABEL: func.func @pool_max
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad {{.*}} low[0, 0, 1, 0] high[0, 0, 0, 1]
// CHECK: tensor.yield %[[NEG]]
// CHECK: linalg.generic {indexing_maps = [#[[IN:.*]], #[[WIN:.*]], #[[OUT:.*]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.maximumf
func.func @pool_max(%x: tensor<1x8x4x4xf16>) -> tensor<1x8x2x2xf16> {
  %y = dla.pool max %x kernel [3, 2] stride [2, 2] pad [1, 0, 0, 1]
      : tensor<1x8x4x4xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// Average pooling of int8 as PDP computes it: i32 sum wrapped to the int16
// line buffer, times the derived reciprocals floor(2^16 / 2) and
// floor(2^16 / 3), each product rounded by 16 bits, wrapped to int8.
// CHECK-LABEL: func.func @pool_average_int8
// CHECK: arith.addi
// CHECK-NOT: arith.divf
// CHECK: arith.trunci {{.*}} : i64 to i16
// CHECK: arith.constant 32768 : i64
// CHECK: arith.muli
// CHECK: arith.shrsi
// CHECK: arith.constant 21845 : i64
// CHECK: arith.muli
// CHECK: arith.shrsi
// CHECK: arith.trunci {{.*}} : i64 to i8
func.func @pool_average_int8(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x2x2xi8> {
  %y = dla.pool average %x kernel [3, 2] stride [2, 2] pad [1, 0, 0, 0]
      : tensor<1x8x4x4xi8> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// LRN: channels padded by (size-1)/2 before and size/2 after, a window sum of
// squares, then x / (k + alpha/size * sum)^beta in f32.
// CHECK-LABEL: func.func @lrn
// CHECK: tensor.pad {{.*}} low[0, 2, 0, 0] high[0, 2, 0, 0]
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.constant 2.000000e-01 : f32
// CHECK: math.powf
// CHECK: arith.divf
func.func @lrn(%x: tensor<1x8x4x4xf16>) -> tensor<1x8x4x4xf16> {
  %y = dla.lrn %x size 5 {alpha = 1.0 : f32, beta = 0.5 : f32, k = 2.0 : f32}
      : tensor<1x8x4x4xf16> -> tensor<1x8x4x4xf16>
  return %y : tensor<1x8x4x4xf16>
}

// Weights relayouted from a constant (here through the fused rounding that
// --dla-pack-weights folds): Winograd weights are read as the hardware reads
// them, the stored taps from the storage bytes of the encoded weights
// (dla.to_storage, packed at compile time by --dla-pack-weights), and the
// convolution computed in the transformed domain (ReferenceWinograd.h).
// With NVDLA's arithmetic (3x3 at stride 1, fp16): the same stored taps,
// and the runtime's conv_wino_fp16 on their bits and the input's (the PRA,
// CMAC's Winograd cell, CACC: docs/NvdlaFp16.md), then the output converter.
// HW-LABEL: func.func @conv_constant_weight
// HW: dla.to_storage %{{.*}} : tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>> -> tensor<8192xi8>
// HW: %[[TAPS:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<16x16x4x4xf16> to tensor<16x16x4x4xf16>
// HW: arith.bitcast %[[TAPS]] : tensor<16x16x4x4xf16> to tensor<16x16x4x4xi16>
// HW: call @dla_nvdla_conv_wino_fp16(
// HW-NOT: linalg.conv_2d_nchw_fchw
// HW: func.call @dla_nvdla_fp32_to_fp16(
// HW: return
// CHECK-LABEL: func.func @conv_constant_weight
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x4x4xf16, #dla.feature<fp16>>)
// CHECK: %[[C:.*]] = arith.constant dense<{{.*}}> : tensor<16x16x3x3xf32>
// CHECK: %[[T:.*]] = arith.truncf %[[C]] : tensor<16x16x3x3xf32> to tensor<16x16x3x3xf16>
// CHECK: %[[W:.*]] = dla.relayout %[[T]] : tensor<16x16x3x3xf16> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
// CHECK: %[[XP:.*]] = dla.relayout %[[X]]
// CHECK: %[[S:.*]] = dla.to_storage %[[W]] : tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>> -> tensor<8192xi8>
// CHECK: bufferization.to_buffer %[[S]] read_only
// CHECK: memref.alloc() : memref<16x16x4x4xf16>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
func.func @conv_constant_weight(%x: tensor<1x16x4x4xf16, #dla.feature<fp16>>)
    -> tensor<1x16x4x4xf16, #dla.feature<fp16>> {
  %c = arith.constant dense<0.5> : tensor<16x16x3x3xf32>
  %t = arith.truncf %c : tensor<16x16x3x3xf32> to tensor<16x16x3x3xf16>
  %w = dla.relayout %t : tensor<16x16x3x3xf16> -> tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
  %y = dla.conv winograd %x, %w pad [1, 1, 1, 1]
      : tensor<1x16x4x4xf16, #dla.feature<fp16>>, tensor<16x16x3x3xf16, #dla.weight<winograd, fp16>>
        -> tensor<1x16x4x4xf16, #dla.feature<fp16>>
  return %y : tensor<1x16x4x4xf16, #dla.feature<fp16>>
}


// The Y stage's float LUT after its multiplier: the stages' fp32 bits go to
// the runtime's LUT and output converter (one call on the whole buffer, the
// registers a constant array), not through a table per fp16 input; the LUT
// alone on the layer's own fp16 input stays a table of the 65,536 answers.
// HW-LABEL: func.func @sdp_fp16_mul_lut
// HW: func.call @dla_nvdla_fp32_mul(
// HW-NOT: func.call @dla_nvdla_fp32_to_fp16(
// HW: call @dla_nvdla_sdp_lut_float_fp16(
// HW: return
// HW-LABEL: func.func @sdp_fp16_lut_alone
// HW-NOT: call @dla_nvdla_sdp_lut_float_fp16(
// HW: tensor.extract
// HW: return
func.func @sdp_fp16_mul_lut(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  %y = dla.sdp offline %x ew <mul_operand = 1069547520, lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}
func.func @sdp_fp16_lut_alone(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// An fp16 upsampling and interleave (SDP pass-through passes): with NVDLA's
// arithmetic each copied value goes to fp32 and back as v1's SDP takes it
// (infinities to +-65504, docs/Resize.md "fp16 and int16 on nv_full");
// ideal, a plain copy.
// HW-LABEL: func.func @upsample_fp16
// HW: tensor.extract
// HW: func.call @dla_nvdla_fp16_to_fp32(
// HW: func.call @dla_nvdla_fp32_to_fp16(
// HW: return
// HW-LABEL: func.func @interleave_fp16
// HW: tensor.insert_slice
// HW: func.call @dla_nvdla_fp16_to_fp32(
// HW: func.call @dla_nvdla_fp32_to_fp16(
// HW: return
// HW-LABEL: func.func @upsample_i16
// HW-NOT: func.call
// HW: return
// CHECK-LABEL: func.func @upsample_fp16
// CHECK-NOT: func.call
// CHECK: return
// CHECK-LABEL: func.func @interleave_fp16
// CHECK-NOT: func.call
// CHECK: return
func.func @upsample_fp16(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x6x4xf16> {
  %y = dla.upsample %x factors [2, 2] border [1, 0] : tensor<1x8x2x2xf16> -> tensor<1x8x6x4xf16>
  return %y : tensor<1x8x6x4xf16>
}
func.func @interleave_fp16(%a: tensor<1x8x2x2xf16>, %b: tensor<1x8x2x2xf16>) -> tensor<1x8x2x4xf16> {
  %y = dla.interleave %a, %b factors [1, 2] : tensor<1x8x2x2xf16>, tensor<1x8x2x2xf16> -> tensor<1x8x2x4xf16>
  return %y : tensor<1x8x2x4xf16>
}
func.func @upsample_i16(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x6xi16> {
  %y = dla.upsample %x factors [1, 3] : tensor<1x8x2x2xi16> -> tensor<1x8x2x6xi16>
  return %y : tensor<1x8x2x6xi16>
}
