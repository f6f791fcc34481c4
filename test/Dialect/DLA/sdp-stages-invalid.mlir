// Every diagnostic of dla.sdp's stage form (#dla.sdp_x, #dla.sdp_y): the
// attributes' own rules, the register ranges (dla/Format/NvdlaRegisters.h),
// integer pipelines only, memory operands bound by name, and the stages
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
  // expected-error @+1 {{'dla.sdp' op bs.alu_operand = 32768 is outside -32768..32767 (BS_ALU_OPERAND: INT16)}}
  %y = dla.sdp offline %x bs <alu = sum, alu_operand = 32768> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range1(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bn.alu_shift = 64 is outside 0..63 (BN_ALU_SHIFT_VALUE: U6)}}
  %y = dla.sdp offline %x bn <alu = sum, alu_operand = 1, alu_shift = 64> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range2(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bs.mul_operand = -32769 is outside -32768..32767 (BS_MUL_OPERAND: INT16)}}
  %y = dla.sdp offline %x bs <mul_operand = -32769> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range3(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op bn.mul_shift = 64 is outside 0..63 (BN_MUL_SHIFT_VALUE: 8-bit field, 6 bits used)}}
  %y = dla.sdp offline %x bn <mul_shift = 64> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range4(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op ew.mul_operand = 2147483648 is outside -2147483648..2147483647 (EW_MUL_OPERAND: INT32)}}
  %y = dla.sdp offline %x ew <mul_operand = 2147483648> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range5(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op ew.alu_operand = -2147483649 is outside -2147483648..2147483647 (EW_ALU_OPERAND: INT32)}}
  %y = dla.sdp offline %x ew <alu = sum, alu_operand = -2147483649> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @range6(%x: tensor<1x8x2x2xi16>) -> tensor<1x8x2x2xi8> {
  // expected-error @+1 {{'dla.sdp' op ew.truncate = 1024 is outside 0..1023 (EW_TRUNCATE: U10)}}
  %y = dla.sdp offline %x ew <mul_operand = 2, truncate = 1024> : tensor<1x8x2x2xi16> -> tensor<1x8x2x2xi8>
  return %y : tensor<1x8x2x2xi8>
}

// -----

func.func @fp16(%x: tensor<1x8x2x2xf16>) -> tensor<1x8x2x2xf16> {
  // expected-error @+1 {{'dla.sdp' op bs is an integer register: this SDP computes in fp32}}
  %y = dla.sdp offline %x bs <relu = true> : tensor<1x8x2x2xf16> -> tensor<1x8x2x2xf16>
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
