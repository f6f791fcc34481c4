// RUN: dla-opt %s --dla-convert-tosa="target=nv_large precision=int8" -split-input-file | FileCheck %s
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=SMALL
// RUN: dla-opt %s --dla-convert-tosa="target=nv_small precision=int8" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALLR
// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=FP16
// RUN: dla-opt %s --dla-convert-tosa="target=nv_full precision=fp16" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FP16OUT
// An int8 table lookup (dla-import-onnx's quantized Sigmoid / Tanh,
// python/dla/onnx/qdq_table.py) as one offline SDP whose Y stage's LUT
// answers level x with entry x + 128 (TablePatterns.cpp,
// docs/Activations.md): LO linear from -128 with index select 0 (no
// interpolation), LO[256] the last entry again, LE never hit (start = end
// = 127), every priority LO, the output converter the identity. The
// table here is 127 - i, so a swapped or shifted entry shows.

// CHECK-LABEL: func.func @reversed
// CHECK: dla.sdp offline %{{.*}} ew <lut = <le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [127, 126, 125, 124, 123, 122, 121, 120, 119, 118, 117, 116, 115, 114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103, 102, 101, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23, -24, -25, -26, -27, -28, -29, -30, -31, -32, -33, -34, -35, -36, -37, -38, -39, -40, -41, -42, -43, -44, -45, -46, -47, -48, -49, -50, -51, -52, -53, -54, -55, -56, -57, -58, -59, -60, -61, -62, -63, -64, -65, -66, -67, -68, -69, -70, -71, -72, -73, -74, -75, -76, -77, -78, -79, -80, -81, -82, -83, -84, -85, -86, -87, -88, -89, -90, -91, -92, -93, -94, -95, -96, -97, -98, -99, -100, -101, -102, -103, -104, -105, -106, -107, -108, -109, -110, -111, -112, -113, -114, -115, -116, -117, -118, -119, -120, -121, -122, -123, -124, -125, -126, -127, -128, -128], le_start = 127, le_end = 127, lo_start = -128, lo_end = 127, le_index_select = 0, lo_index_select = 0, uflow_priority = lo, oflow_priority = lo, hybrid_priority = lo>> : tensor<1x4x5x3xi8> -> tensor<1x4x5x3xi8>
// CHECK-NOT: tosa.table
func.func @reversed(%x: tensor<1x5x3x4xi8>) -> tensor<1x5x3x4xi8> {
  %t = "tosa.const"() {values = dense<[127, 126, 125, 124, 123, 122, 121, 120, 119, 118, 117, 116, 115, 114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103, 102, 101, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23, -24, -25, -26, -27, -28, -29, -30, -31, -32, -33, -34, -35, -36, -37, -38, -39, -40, -41, -42, -43, -44, -45, -46, -47, -48, -49, -50, -51, -52, -53, -54, -55, -56, -57, -58, -59, -60, -61, -62, -63, -64, -65, -66, -67, -68, -69, -70, -71, -72, -73, -74, -75, -76, -77, -78, -79, -80, -81, -82, -83, -84, -85, -86, -87, -88, -89, -90, -91, -92, -93, -94, -95, -96, -97, -98, -99, -100, -101, -102, -103, -104, -105, -106, -107, -108, -109, -110, -111, -112, -113, -114, -115, -116, -117, -118, -119, -120, -121, -122, -123, -124, -125, -126, -127, -128]> : tensor<256xi8>} : () -> tensor<256xi8>
  %y = tosa.table %x, %t : (tensor<1x5x3x4xi8>, tensor<256xi8>) -> tensor<1x5x3x4xi8>
  return %y : tensor<1x5x3x4xi8>
}
// nv_small (no LUT): a falling table is the chain of the negated one, the
// last pass negating back. A straight line is one pass, -1 - x exactly:
// X1 adds 128 and multiplies by 2^14 at shift 14 (ReLU: x + 128 >= 0),
// the output converter takes (. - 127) * -1.
// SMALL-LABEL: func.func @reversed
// SMALL: dla.sdp offline %{{.*}} bs <alu = sum, alu_operand = 128, mul_operand = 16384, mul_shift = 14, relu = true> out_cvt <offset = 127, scale = -1, shift = 0>
// SMALL-NOT: dla.sdp
// SMALL: return

// -----

// A step (0 below level 0, 100 from it), rising: a chain of three passes
// (flat, the jump over one level at slope 100 = 25600 / 2^8, flat), each
// adding the previous pass's map in X2 and keeping P_k + 127 - V_k+1 so
// that int8 saturation clamps at the next knot: 127 (0 + 127), then
// P + 27 (the jump saturates at 100 + 27), then P.
// SMALL-LABEL: func.func @step
// SMALL: %[[P0:.*]] = dla.sdp offline %[[X:.*]] bs <alu = sum, alu_operand = 128, mul_operand = 0, mul_shift = 24, relu = true> out_cvt <offset = -127, scale = 1, shift = 0>
// SMALL: %[[P1:.*]] = dla.sdp offline %[[X]] eltwise %[[P0]] : tensor<1x2x2x2xi8> bs <alu = sum, alu_operand = 1, mul_operand = 25600, mul_shift = 8, relu = true> bn <alu = sum, alu_operand = eltwise> out_cvt <offset = 100, scale = 1, shift = 0>
// SMALL: dla.sdp offline %[[X]] eltwise %[[P1]] : tensor<1x2x2x2xi8> bs <alu = sum, alu_operand = 0, mul_operand = 0, mul_shift = 24, relu = true> bn <alu = sum, alu_operand = eltwise> out_cvt <offset = 27, scale = 1, shift = 0>
// SMALL-NOT: dla.sdp
func.func @step(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %t = "tosa.const"() {values = dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100]> : tensor<256xi8>} : () -> tensor<256xi8>
  %y = tosa.table %x, %t : (tensor<1x2x2x2xi8>, tensor<256xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// A tent (0 at both ends, 100 at level 0): not monotone, so ramps and
// sums: ramp 0 with its base, ramp 1 falling by 99 (its own int8 map),
// one pass adding it in X2.
// SMALL-LABEL: func.func @tent
// SMALL: %[[R0:.*]] = dla.sdp offline %[[X:.*]] bs <alu = max, alu_operand = -128> bn <alu = min, alu_operand = 0, mul_operand = {{[0-9]+}}> out_cvt
// SMALL: %[[R1:.*]] = dla.sdp offline %[[X]] bs <alu = max, alu_operand = 0> bn <alu = min, alu_operand = 127, mul_operand = -{{[0-9]+}}> out_cvt
// SMALL: dla.sdp offline %[[R0]] eltwise %[[R1]] : tensor<1x2x2x2xi8> bn <alu = sum, alu_operand = eltwise>
// SMALL-NOT: dla.sdp
func.func @tent(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %t = "tosa.const"() {values = dense<[0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 9, 9, 10, 11, 12, 12, 13, 14, 15, 16, 16, 17, 18, 19, 20, 20, 21, 22, 23, 23, 24, 25, 26, 27, 27, 28, 29, 30, 30, 31, 32, 33, 34, 34, 35, 36, 37, 38, 38, 39, 40, 41, 41, 42, 43, 44, 45, 45, 46, 47, 48, 48, 49, 50, 51, 52, 52, 53, 54, 55, 55, 56, 57, 58, 59, 59, 60, 61, 62, 62, 63, 64, 65, 66, 66, 67, 68, 69, 70, 70, 71, 72, 73, 73, 74, 75, 76, 77, 77, 78, 79, 80, 80, 81, 82, 83, 84, 84, 85, 86, 87, 88, 88, 89, 90, 91, 91, 92, 93, 94, 95, 95, 96, 97, 98, 98, 99, 100, 99, 98, 98, 97, 96, 95, 95, 94, 93, 92, 91, 91, 90, 89, 88, 88, 87, 86, 85, 84, 84, 83, 82, 81, 80, 80, 79, 78, 77, 77, 76, 75, 74, 73, 73, 72, 71, 70, 70, 69, 68, 67, 66, 66, 65, 64, 63, 62, 62, 61, 60, 59, 59, 58, 57, 56, 55, 55, 54, 53, 52, 52, 51, 50, 49, 48, 48, 47, 46, 45, 45, 44, 43, 42, 41, 41, 40, 39, 38, 38, 37, 36, 35, 34, 34, 33, 32, 31, 30, 30, 29, 28, 27, 27, 26, 25, 24, 23, 23, 22, 21, 20, 20, 19, 18, 17, 16, 16, 15, 14, 13, 12, 12, 11, 10, 9, 9, 8, 7, 6, 5, 5, 4, 3, 2, 2, 1]> : tensor<256xi8>} : () -> tensor<256xi8>
  %y = tosa.table %x, %t : (tensor<1x2x2x2xi8>, tensor<256xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// A zigzag needs a segment per level: on nv_small it stays on the host.
func.func @zigzag(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  %t = "tosa.const"() {values = dense<[0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100, 0, 100]> : tensor<256xi8>} : () -> tensor<256xi8>
  %y = tosa.table %x, %t : (tensor<1x2x2x2xi8>, tensor<256xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}
// SMALLR: convert-tosa-table.mlir:[[# @LINE - 3]]:8: remark: stays on the host: the target has no SDP lookup table (SDP_LUT_ENABLE: the Y stage) and its table is no interpolant of 16 segments within 1 output step

// -----

// A table that is not a constant stays on the host with the reason.
// CHECK-LABEL: func.func @runtime_table
// CHECK: tosa.table
func.func @runtime_table(%x: tensor<1x2x2x2xi8>, %t: tensor<256xi8>) -> tensor<1x2x2x2xi8> {
  %y = tosa.table %x, %t : (tensor<1x2x2x2xi8>, tensor<256xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// A float sigmoid and tanh (an fp16 network's): on nv_full fp16 each is one
// offline SDP whose Y stage's LUT runs in float mode (NvdlaLutFloat.h's
// programs; the entries are fp16 bit patterns, the edges fp32 ones: here
// sigmoid's LO over [-8, 8] (-1056964608, 1090519040) in steps of 1/16, LE
// over [-32, 32] in steps of 1; tanh's over [-4, 4] by 1/32 and [-16, 16]
// by 1/2). Entries from utils/dla-ref/lut_float_tables.py: sigmoid(-8) =
// 3455 (0x0d7f), sigmoid(0) = 14336 (0.5); tanh(-4) = -17409, tanh(-16) =
// -17408 (-1.0).
// FP16OUT-LABEL: func.func @float_sigmoid
// FP16OUT: dla.sdp offline %{{.*}} ew <lut = <le_function = linear, le = [0, 0, 0, {{.*}}], lo = [3455, 3545, 3642, 3745, {{.*}}], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x2x2x2xf16> -> tensor<1x2x2x2xf16>
// FP16OUT: dla.sdp offline %{{.*}} ew <lut = <le_function = linear, le = [-17408, -17408, -17408, {{.*}}], lo = [-17409, -17409, -17410, -17410, {{.*}}], le_start = -1048576000, le_end = 1098907648, lo_start = -1065353216, lo_end = 1082130432, le_index_select = -1, lo_index_select = -5, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x2x2x2xf16> -> tensor<1x2x2x2xf16>
// FP16OUT-NOT: tosa.sigmoid
// FP16OUT-NOT: tosa.tanh
func.func @float_sigmoid(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %y = tosa.sigmoid %x : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %z = tosa.tanh %y : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %z : tensor<1x2x2x2xf32>
}
// On an integer target its type is the reason (a quantized one is a table).
// SMALLR: convert-tosa-table.mlir:[[# @LINE - 5]]:8: remark: stays on the host: it computes in f32 and the target in int8

// -----

// Not a feature map: stays on the host with the reason.
// FP16OUT-LABEL: func.func @float_sigmoid_rank2
// FP16OUT: tosa.sigmoid
func.func @float_sigmoid_rank2(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = tosa.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// FP16: convert-tosa-table.mlir:[[# @LINE - 3]]:8: remark: stays on the host: it is not a static rank-4 feature map

// -----

// A convolution's only reader: the LUT's SDP stays offline (the float LUT
// is modelled on the fp16 input, not on CACC's fp32: SdpOnTheFly leaves
// it).
// FP16OUT-LABEL: func.func @conv_sigmoid
// FP16OUT: %[[C:.*]] = dla.conv direct
// FP16OUT: dla.sdp offline %[[C]] ew <lut = <le_function = linear
func.func @conv_sigmoid(%x: tensor<1x4x4x8xf16>) -> tensor<1x4x4x1xf16> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<1x1x1x8xf16>} : () -> tensor<1x1x1x8xf16>
  %b = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf16>, tensor<1x1x1x8xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x1xf16>
  %s = tosa.sigmoid %a : (tensor<1x4x4x1xf16>) -> tensor<1x4x4x1xf16>
  return %s : tensor<1x4x4x1xf16>
}
