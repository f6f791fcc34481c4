//===- DLARegisterAttrs.td - NVDLA register groups as attributes -*- tablegen -*-===//
//
// The integer units' programmable registers, spelled as in
// docs/IntegerAttributes.md. Ranges depend on the register an attribute
// programs, so the ops check them (dla/Format/NvdlaRegisters.h).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_REGISTER_ATTRS_TD
#define DLA_REGISTER_ATTRS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAEnums.td"
include "mlir/IR/EnumAttr.td"

def DLA_CvtAttr : DLA_Attr<"Cvt", "cvt"> {
  let summary = "An NVDLA data converter: offset, scale, right shift";
  let description = [{
    `out = SAT(RHA((in - offset) * scale, shift))`: subtract, multiply,
    shift right rounding half away from zero, saturate to the converter's
    width. All three registers are always stated. On `dla.sdp` and
    `dla.clamp` it is the SDP's output converter (`out_cvt`: D_CVT_OFFSET
    INT32, D_CVT_SCALE INT16, D_CVT_SHIFT U6, a 17-bit result saturated to
    the output precision). On `dla.conv` it is CDMA's input converter
    (`input_cvt`: CVT_OFFSET and CVT_SCALE 16-bit signed, CVT_TRUNCATE
    6-bit unsigned, a 17-bit result saturated to the pipeline precision).

    ```mlir
    #dla.cvt<offset = -3, scale = 27307, shift = 16>
    ```
  }];
  let parameters = (ins "int64_t":$offset, "int64_t":$scale, "int64_t":$shift);
  let assemblyFormat = "`<` struct(params) `>`";
}

/// An SDP operand: a register value or a memory surface named as the op's
/// operand (`alu_operand = 3`, `alu_operand = bias`); absent is bypass.
def DLA_SdpOperandParameter
    : DefaultValuedParameter<"::mlir::dla::SdpOperand", "::mlir::dla::SdpOperand()",
                             "register value or operand name"> {
  let parser = "::mlir::dla::detail::parseSdpOperand($_parser)";
  let printer = "::mlir::dla::detail::printSdpOperand($_printer, $_self)";
}
/// `true` / `false`, printed only when true.
def DLA_FlagParameter : DefaultValuedParameter<"bool", "false", "true or false"> {
  let parser = "::mlir::dla::detail::parseBoolKeyword($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}
/// An ALU operation (max, min, sum, eql); absent is ALU_BYPASS.
def DLA_SdpAluParameter
    : OptionalParameter<"std::optional<::dlaformat::nvdla::SdpAluAlgo>", "ALU operation"> {
  let parser = "::mlir::dla::detail::parseFormatEnum<::dlaformat::nvdla::SdpAluAlgo>($_parser, \"ALU operation\")";
  let printer = "$_printer << ::mlir::dla::detail::formatEnumName(*$_self)";
}
/// A right or left shift register; absent is 0.
def DLA_ShiftParameter : DefaultValuedParameter<"int64_t", "0", "shift">;

def DLA_SdpXAttr : DLA_Attr<"SdpX", "sdp_x"> {
  let summary = "One X stage of the NVDLA SDP (BS or BN): ALU, MUL, shift, ReLU";
  let description = [{
    The registers of `dla.sdp`'s `bs` or `bn` stage on an integer pipeline
    (docs/IntegerAttributes.md section 4.2). On 32-bit data `x`:

    ```
    a = alu ? op(x, SAT32(alu_operand << alu_shift)) : x          33 bits, exact
    t = mul_operand ? ((prelu && a >= 0) ? WRAP32(a) : SAT32(RHA(a * mul_operand, mul_shift)))
                    : SAT32(RHA(a, mul_shift))                    the shift applies bypassed too
    y = relu ? max(t, 0) : t
    ```

    `alu` is `max`, `min` or `sum`. An operand is a register value (int16)
    or the name of the op's memory operand (`bias`, `batchnorm`, `eltwise`,
    `prelu`: int16 data, int8 sign-extended). Absent fields are bypassed
    units or zero shifts; the ranges are checked by `dla.sdp`.

    ```mlir
    #dla.sdp_x<alu = sum, alu_operand = batchnorm, alu_shift = 4, mul_operand = batchnorm, mul_shift = 22>
    #dla.sdp_x<mul_operand = 13, mul_shift = 7, prelu = true>
    ```
  }];
  let parameters = (ins DLA_SdpAluParameter:$alu, DLA_SdpOperandParameter:$alu_operand,
                        DLA_ShiftParameter:$alu_shift, DLA_SdpOperandParameter:$mul_operand,
                        DLA_ShiftParameter:$mul_shift, DLA_FlagParameter:$prelu,
                        DLA_FlagParameter:$relu);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def DLA_LutFunction : I32EnumAttr<"LutFunction", "LE table index function", [
    I32EnumAttrCase<"Exponent", 0, "exponent">,
    I32EnumAttrCase<"Linear", 1, "linear">]> {
  let cppNamespace = "::mlir::dla";
  let genSpecializedAttr = 0;
}
def DLA_LutTable : I32EnumAttr<"LutTable", "One of the two lookup tables", [
    I32EnumAttrCase<"Le", 0, "le">,
    I32EnumAttrCase<"Lo", 1, "lo">]> {
  let cppNamespace = "::mlir::dla";
  let genSpecializedAttr = 0;
}

def DLA_LutAttr : DLA_Attr<"Lut", "lut"> {
  let summary = "The LE / LO lookup tables of the SDP Y stage or the CDP";
  let description = [{
    Two tables indexed from the data (docs/IntegerAttributes.md section 2):
    LE (65 entries) with an exponent index `floor(log2(x - le_start)) -
    le_index_offset` or a linear one `(x - le_start) >> le_index_select`,
    and LO (257 entries), always linear `(x - lo_start) >> lo_index_select`.
    A hit interpolates between two entries; outside its range a table
    answers `T[edge] + RHA((x - start or end) * scale, shift)` (a negative
    shift multiplies). The priorities choose the table when both under- or
    overflow (`uflow_priority`, `oflow_priority`) and when both hit or one
    under- and the other overflows (`hybrid_priority`); a single hit wins.
    Ranges depend on the unit, so the ops check them.

    ```mlir
    #dla.lut<le_function = exponent, le = [...65...], lo = [...257...],
      le_start = 0, le_end = 1048576, lo_start = 0, lo_end = 524288,
      le_index_offset = 0, lo_index_select = 11,
      uflow_priority = le, oflow_priority = le, hybrid_priority = lo>
    ```
  }];
  let parameters = (ins
    EnumParameter<DLA_LutFunction>:$le_function,
    "::mlir::DenseI64ArrayAttr":$le,
    "::mlir::DenseI64ArrayAttr":$lo,
    "int64_t":$le_start,
    "int64_t":$le_end,
    "int64_t":$lo_start,
    "int64_t":$lo_end,
    OptionalParameter<"std::optional<int64_t>">:$le_index_offset,
    OptionalParameter<"std::optional<int64_t>">:$le_index_select,
    "int64_t":$lo_index_select,
    DefaultValuedParameter<"int64_t", "0">:$le_slope_uflow_scale,
    DefaultValuedParameter<"int64_t", "0">:$le_slope_uflow_shift,
    DefaultValuedParameter<"int64_t", "0">:$le_slope_oflow_scale,
    DefaultValuedParameter<"int64_t", "0">:$le_slope_oflow_shift,
    DefaultValuedParameter<"int64_t", "0">:$lo_slope_uflow_scale,
    DefaultValuedParameter<"int64_t", "0">:$lo_slope_uflow_shift,
    DefaultValuedParameter<"int64_t", "0">:$lo_slope_oflow_scale,
    DefaultValuedParameter<"int64_t", "0">:$lo_slope_oflow_shift,
    EnumParameter<DLA_LutTable>:$uflow_priority,
    EnumParameter<DLA_LutTable>:$oflow_priority,
    EnumParameter<DLA_LutTable>:$hybrid_priority);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def DLA_SdpYAttr : DLA_Attr<"SdpY", "sdp_y"> {
  let summary = "The Y stage of the NVDLA SDP (EW): MUL, ALU, operand converters";
  let description = [{
    The registers of `dla.sdp`'s `ew` stage on an integer pipeline
    (docs/IntegerAttributes.md section 4.3). On 32-bit data `x`, with each
    memory operand through its converter when stated
    (`SAT32(RHA((op - offset) * scale, shift))`):

    ```
    m = mul_operand ? ((prelu && x >= 0) ? x : SAT32(RHA(x * mul_operand, truncate))) : x
    v = alu ? SAT32(op(m, alu_operand)) : m              eql: 0 where equal, else 1
    y = lut ? LUT(v) : v                                 the #dla.lut on 32-bit data (SDP ranges)
    ```

    Register operands are int32 and meet no converter; `alu` is `max`,
    `min`, `sum` or `eql`. nv_small has no Y stage, and no configuration without
    SDP_LUT_ENABLE has `lut`.

    On an fp16 pipeline (docs/IntegerAttributes.md section 4.7,
    docs/NvdlaFp16.md "The SDP's Y stage in fp16") the stage computes in
    fp32 on the X stages' result, the multiplier first, then the ALU:

    ```
    m = mul_operand ? ((prelu && y >= 0) ? y : y * mul_operand) : y
    v = alu ? op(m, alu_operand) : m                     max, min, sum; one rounding out
    ```

    Memory operands are fp16 surfaces (widened); a register operand is the
    32-bit register's fp32 bit pattern written as the int32 of those bits
    (`mul_operand = 1069547520` is 1.5), finite. No `truncate`, no operand
    converters, no `eql`; `lut` (the LUT in float mode) only alone, not
    after the multiplier or ALU.

    ```mlir
    #dla.sdp_y<alu = sum, alu_operand = eltwise, alu_cvt = <offset = 0, scale = 19661, shift = 14>>
    #dla.sdp_y<mul_operand = eltwise, truncate = 7>
    ```
  }];
  let parameters = (ins DLA_SdpOperandParameter:$mul_operand,
                        OptionalParameter<"::mlir::dla::CvtAttr">:$mul_cvt,
                        DLA_FlagParameter:$prelu, DLA_ShiftParameter:$truncate,
                        DLA_SdpAluParameter:$alu, DLA_SdpOperandParameter:$alu_operand,
                        OptionalParameter<"::mlir::dla::CvtAttr">:$alu_cvt,
                        OptionalParameter<"::mlir::dla::LutAttr">:$lut);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// The lookup table's two enums, with the register encodings
// (LUT_LE_FUNCTION: EXPONENT 0, LINEAR 1; LUT_*_PRIORITY: LE 0, LO 1).
#endif // DLA_REGISTER_ATTRS_TD
