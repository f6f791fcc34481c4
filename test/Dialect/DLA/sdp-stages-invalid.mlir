// Every diagnostic of dla.sdp's stage form (#dla.sdp_x, #dla.sdp_y): the
// attributes' own rules, the register ranges (dla/Format/NvdlaRegisters.h),
// what an fp16 pipeline's stages cannot hold, memory operands bound by name, and the stages
// the target has (docs/IntegerAttributes.md sections 6.1 to 6.3).
// RUN: dla-opt %s -split-input-file -verify-diagnostics
func.func @attr0(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_x configures nothing: leave the stage out (an absent stage is bypassed)}}
  %y = dla.sdp offline %x bs <relu = false> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr1(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_x alu = eql: the X stages' ALU has max, min and sum (EQL is the Y stage's)}}
  %y = dla.sdp offline %x bs <alu = eql, alu_operand = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr2(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_x alu = sum needs alu_operand}}
  %y = dla.sdp offline %x bn <alu = sum> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr3(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_x alu_operand needs alu (ALU_BYPASS would ignore it)}}
  %y = dla.sdp offline %x bs <alu_operand = 3> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr4(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_x alu_shift needs alu (ALU_BYPASS would ignore it)}}
  %y = dla.sdp offline %x bs <alu_shift = 3, relu = true> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr5(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_x prelu needs mul_operand (MUL_BYPASS ignores MUL_PRELU)}}
  %y = dla.sdp offline %x bs <prelu = true, mul_shift = 2> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr6(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_y configures nothing: leave the stage out (an absent stage is bypassed)}}
  %y = dla.sdp offline %x ew <prelu = false> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr7(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_y alu = min needs alu_operand}}
  %y = dla.sdp offline %x ew <alu = min> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr8(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_y prelu needs mul_operand (MUL_BYPASS ignores MUL_PRELU)}}
  %y = dla.sdp offline %x ew <prelu = true, alu = max, alu_operand = 0> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr9(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_y truncate needs mul_operand (EW_TRUNCATE applies to the product)}}
  %y = dla.sdp offline %x ew <truncate = 3, alu = max, alu_operand = 0> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr10(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_y alu_cvt needs a memory alu_operand: register operands meet no converter}}
  %y = dla.sdp offline %x ew <alu = max, alu_operand = 0, alu_cvt = <offset = 0, scale = 1, shift = 0>> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @attr11(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{#dla.sdp_y mul_cvt needs a memory mul_operand: register operands meet no converter}}
  %y = dla.sdp offline %x ew <mul_operand = 5, mul_cvt = <offset = 0, scale = 1, shift = 0>> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range0(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bs.alu_operand = 32768 is outside -32768..32767 (BS_ALU_OPERAND: 16-bit signed)}}
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 32768> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range1(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bn.alu_shift = 64 is outside 0..63 (BN_ALU_SHIFT_VALUE: 6-bit unsigned)}}
  %y = dla.sdp offline %x bn <alu = sum, alu_operand = 1, alu_shift = 64> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range2(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bs.mul_operand = -32769 is outside -32768..32767 (BS_MUL_OPERAND: 16-bit signed)}}
  %y = dla.sdp offline %x bs <mul_operand = -32769> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range3(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bn.mul_shift = 64 is outside 0..63 (BN_MUL_SHIFT_VALUE: 8-bit field of which the C model uses 6 bits)}}
  %y = dla.sdp offline %x bn <mul_shift = 64> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range4(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op ew.mul_operand = 2147483648 is outside -2147483648..2147483647 (EW_MUL_OPERAND: 32-bit signed)}}
  %y = dla.sdp offline %x ew <mul_operand = 2147483648> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range5(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op ew.alu_operand = -2147483649 is outside -2147483648..2147483647 (EW_ALU_OPERAND: 32-bit signed)}}
  %y = dla.sdp offline %x ew <alu = sum, alu_operand = -2147483649> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range6(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op ew.truncate = 1024 is outside 0..1023 (EW_TRUNCATE: 10-bit unsigned)}}
  %y = dla.sdp offline %x ew <mul_operand = 2, truncate = 1024> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

// An fp16 SDP's stages compute in fp32 from fp16 operands
// (docs/IntegerAttributes.md section 4.7): no shifts, register operands
// finite fp16 patterns.
func.func @fp16_shift(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op bs.mul_shift = 2 is an integer register: this SDP computes in fp32 (no shifts)}}
  %y = dla.sdp offline %x bs <mul_shift = 2, relu = true> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_register(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op bn.mul_operand = 31744 is an fp16 infinity or NaN: a float stage's register operand is a finite fp16 bit pattern}}
  %y = dla.sdp offline %x bn <mul_operand = 31744> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

// The Y stage's multiplier and ALU in fp32 (docs/NvdlaFp16.md, "The SDP's
// Y stage in fp16"): no truncate, no operand converters, no eql; a register
// operand a finite fp32 pattern (as int32).
func.func @fp16_ew_truncate(%x: tensor<1x8x2x2xf16>, %e: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.truncate = 3 is an integer register: this SDP computes in fp32 (no shifts)}}
  %y = dla.sdp offline %x eltwise %e : tensor<1x8x2x2xf16> ew <mul_operand = eltwise, truncate = 3> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_ew_cvt(%x: tensor<1x8x2x2xf16>, %e: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.alu_cvt on an fp16 SDP: the Y stage widens an fp16 memory operand and uses no converter in float mode; write none}}
  %y = dla.sdp offline %x eltwise %e : tensor<1x8x2x2xf16> ew <alu = sum, alu_operand = eltwise, alu_cvt = <offset = 0, scale = 1, shift = 0>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_ew_eql(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.alu = eql on an fp16 SDP: the Y stage's float compare is not modelled (max, min or sum)}}
  %y = dla.sdp offline %x ew <alu = eql, alu_operand = 0> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

// 0x7f800000 (+infinity as fp32).
func.func @fp16_ew_register(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.mul_operand = 2139095040 is an fp32 infinity or NaN: the Y stage's register operand in float mode is a finite fp32 bit pattern (as int32)}}
  %y = dla.sdp offline %x ew <mul_operand = 2139095040> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_ew_register_range(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.alu_operand = 4286578688 is outside -2147483648..2147483647 (EW_ALU_OPERAND: 32-bit signed)}}
  %y = dla.sdp offline %x ew <alu = sum, alu_operand = 4286578688> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_ew_per_layer(%x: tensor<1x8x2x2xf16>, %b: tensor<f16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op bias is per layer: in stage form write its fp32 bit pattern as ew.alu_operand = <int32>}}
  %y = dla.sdp offline %x bias %b : tensor<f16> ew <alu = sum, alu_operand = bias> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

// The Y stage's LUT in float mode (docs/NvdlaFp16.md): fp16 entries and
// slopes, fp32 edges, no slope shifts, after the X stages and the Y
// multiplier / ALU, to an fp16 output (the output converter at fp16).
func.func @fp16_lut_to_i16(%x: tensor<1x8x2x2xf16>, %b: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xi16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut on an fp16 SDP writes an fp16 output: the output converter rounds the LUT's fp32 value to fp16}}
  %y = dla.sdp offline %x bias %b : tensor<1x8x2x2xf16> bs <alu = sum, alu_operand = bias> ew <alu = max, alu_operand = 0, lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}

// -----

func.func @fp16_lut_inf_entry(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut.le[7] = 31744 is an fp16 infinity or NaN: a float-mode table holds finite fp16 bit patterns}}
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 31744, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_lut_nan_entry(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut.lo[256] = -512 is an fp16 infinity or NaN: a float-mode table holds finite fp16 bit patterns}}
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -512], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_lut_nan_slope(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut.lo_slope_oflow_scale = 32256 is an fp16 infinity or NaN: float-mode slopes are finite fp16 bit patterns}}
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, lo_slope_oflow_scale = 32256, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_lut_inf_edge(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut.lo_end = 2139095040 is an fp32 infinity or NaN: float-mode edges are finite fp32 bit patterns}}
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 2139095040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_lut_shift(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut.le_slope_uflow_shift = 2: float mode uses no slope shifts (write 0)}}
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_slope_uflow_shift = 2, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

// The edges are ordered as fp32 values: -8 .. -16 is reversed (as int32
// patterns it would be ordered).
func.func @fp16_lut_reversed_edges(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut.le_start = -1056964608 (-8 as fp32) exceeds ew.lut.le_end = -1048576000 (-16)}}
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1056964608, le_end = -1048576000, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

// fp16 exists on nv_full alone; elsewhere the Y stage (and its LUT) is
// missing first.
module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @fp16_lut_nv_small(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
    // expected-error @+1 {{'dla.sdp' op ew: the SDP's Y (EW) stage does not exist on nv_small (SDP_EW_DISABLE)}}
    %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = linear, le = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], lo = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], le_start = -1040187392, le_end = 1107296256, lo_start = -1056964608, lo_end = 1090519040, le_index_select = 0, lo_index_select = -4, uflow_priority = le, oflow_priority = le, hybrid_priority = lo>> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
    return %y : tensor<1x8x2x2xf16>
  }
}

// -----

func.func @fp16_int_operand(%x: tensor<1x8x2x2xf16>, %p: tensor<8xi16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op prelu is an integer: an fp16 SDP's stages read fp16 operands}}
  %y = dla.sdp offline %x prelu %p : tensor<8xi16> bs <mul_operand = prelu> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @fp16_per_layer(%x: tensor<1x8x2x2xf16>, %b: tensor<f16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op bias is per layer: in stage form write its fp16 bit pattern as bs.alu_operand = <int16>}}
  %y = dla.sdp offline %x bias %b : tensor<f16> bs <alu = sum, alu_operand = bias> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
  return %y : tensor<1x8x2x2xf16>
}

// -----

func.func @relu(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op relu belongs to a stage in stage form: write relu = true in bs or bn}}
  %y = dla.sdp offline %x relu bs <mul_shift = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @no_operand(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bs.alu_operand = bias names no operand: the op has no bias}}
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = bias> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @unread(%x: tensor<1x8x2x2xi16>, %e: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op eltwise is read by no stage: name it in bs, bn or ew}}
  %y = dla.sdp offline %x eltwise %e : tensor<1x8x2x2xi8> bs <mul_shift = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @two_stages(%x: tensor<1x8x2x2xi16>, %q: tensor<8x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op batchnorm is read by bs and bn: each stage's memory surface is its own}}
  %y = dla.sdp offline %x batchnorm %q : tensor<8x2xi16> bs <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm> bn <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @two_surfaces(%x: tensor<1x8x2x2xi16>, %b: tensor<8xi16>, %p: tensor<8xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bs reads bias and prelu: a stage reads one memory surface}}
  %y = dla.sdp offline %x bias %b : tensor<8xi16> prelu %p : tensor<8xi16> bs <alu = sum, alu_operand = bias, mul_operand = prelu> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @half_batchnorm(%x: tensor<1x8x2x2xi16>, %q: tensor<8x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op batchnorm holds ALU and MUL operands: bn must name it in both alu_operand and mul_operand}}
  %y = dla.sdp offline %x batchnorm %q : tensor<8x2xi16> bn <alu = sum, alu_operand = batchnorm> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @bias_twice(%x: tensor<1x8x2x2xi16>, %b: tensor<8xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bias holds one operand per element: bs names it in both alu_operand and mul_operand}}
  %y = dla.sdp offline %x bias %b : tensor<8xi16> bs <alu = sum, alu_operand = bias, mul_operand = bias> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @per_layer(%x: tensor<1x8x2x2xi16>, %b: tensor<i16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bias is per layer: in stage form write its value as bs.alu_operand = <integer>}}
  %y = dla.sdp offline %x bias %b : tensor<i16> bs <alu = sum, alu_operand = bias> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @fp16_operand(%x: tensor<1x8x2x2xi16>, %b: tensor<8xf16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bias is fp16: integer stages read int8 or int16 operands}}
  %y = dla.sdp offline %x bias %b : tensor<8xf16> bs <alu = sum, alu_operand = bias> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @conv_bias(%x: tensor<1x8x2x2xi16>, %w: tensor<8x8x1x1xi16>, %b: tensor<8xi16>) -> tensor<1x8x2x2xi16> {
  %c = dla.conv direct %x, %w, %b : tensor<1x8x2x2xi16>, tensor<8x8x1x1xi16>, tensor<8xi16> -> tensor<1x8x2x2xi16>
  // expected-error @+1 {{'dla.sdp' op stage form receives the convolution's accumulator: give the dla.conv's bias to this SDP and name it in a stage}}
  %y = dla.sdp on_the_fly %c bs <mul_shift = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}

// -----

module attributes {dla.target = #dla.target<nvdla, nv_small>} {
  func.func @nv_small_ew(%x: tensor<1x8x2x2xi8>) -> tensor<1x8x2x2xi8> {
    // expected-error @+1 {{'dla.sdp' op ew: the SDP's Y (EW) stage does not exist on nv_small (SDP_EW_DISABLE)}}
    %y = dla.sdp offline %x ew <alu = max, alu_operand = 0> : tensor<1x8x2x2xi8> -> tensor<1x8x2x2xi8>
    return %y : tensor<1x8x2x2xi8>
  }
}

// -----

func.func @bad_operand(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+2 {{unknown register value or operand name 'weight'; expected one of bias, batchnorm, eltwise, prelu}}
  // expected-error @+1 {{failed to parse DLA_SdpXAttr parameter 'alu_operand' which is to be a `::mlir::dla::SdpOperand`}}
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = weight> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @bad_flag(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+2 {{expected true or false}}
  // expected-error @+1 {{failed to parse DLA_SdpXAttr parameter 'relu' which is to be a `bool`}}
  %y = dla.sdp offline %x bs <relu = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @bad_alu(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+2 {{unknown ALU operation 'add'; expected one of max, min, sum, eql}}
  // expected-error @+1 {{failed to parse DLA_SdpXAttr parameter 'alu' which is to be a `std::optional<::dlaformat::nvdla::SdpAluAlgo>`}}
  %y = dla.sdp offline %x bs <alu = add, alu_operand = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

// The Y stage's lookup table in the SDP's ranges (32-bit starts and ends).
func.func @lut_range(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  // expected-error @+1 {{'dla.sdp' op ew.lut.le_end = 4294967296 is outside -2147483648..2147483647 (LUT_LE_END: 32-bit signed)}}
  %y = dla.sdp offline %x ew <lut = #dla.lut<le_function = exponent,
      le = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64],
      lo = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256],
      le_start = 0, le_end = 4294967296, lo_start = 0, lo_end = 1048576,
      le_index_offset = 3, lo_index_select = 8,
      uflow_priority = le, oflow_priority = lo, hybrid_priority = lo>>
    : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}

// -----

// The Y stage's operand converters (EW_ALU_CVT_* / EW_MUL_CVT_*).
func.func @y_cvt_range(%x: tensor<1x8x2x2xi16>, %e: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  // expected-error @+1 {{'dla.sdp' op ew.alu_cvt.scale = 40000 is outside -32768..32767 (EW_ALU_CVT_SCALE: 16-bit signed)}}
  %y = dla.sdp offline %x eltwise %e : tensor<1x8x2x2xi16> ew <alu = sum, alu_operand = eltwise, alu_cvt = <offset = 0, scale = 40000, shift = 0>> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}

// -----

func.func @y_mul_cvt_range(%x: tensor<1x8x2x2xi16>, %e: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi16> {
  // expected-error @+1 {{'dla.sdp' op ew.mul_cvt.shift = 64 is outside 0..63 (EW_MUL_CVT_TRUNCATE: 6-bit unsigned)}}
  %y = dla.sdp offline %x eltwise %e : tensor<1x8x2x2xi16> ew <mul_operand = eltwise, mul_cvt = <offset = 0, scale = 1, shift = 64>> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y : tensor<1x8x2x2xi16>
}

// -----

// The fused SDP alone receives the accumulator: no other reader of the
// convolution (its result would be one the hardware never writes).
func.func @conv_two_users(%x: tensor<1x8x2x2xi16>, %w: tensor<8x8x1x1xi16>) -> (tensor<1x8x2x2xi16>, tensor<1x8x2x2xi16>) {
  %c = dla.conv direct %x, %w : tensor<1x8x2x2xi16>, tensor<8x8x1x1xi16> -> tensor<1x8x2x2xi16>
  // expected-error @+1 {{'dla.sdp' op stage form receives the convolution's accumulator: the dla.conv must feed this SDP alone}}
  %y = dla.sdp on_the_fly %c bs <mul_shift = 1> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi16>
  return %y, %c : tensor<1x8x2x2xi16>, tensor<1x8x2x2xi16>
}
