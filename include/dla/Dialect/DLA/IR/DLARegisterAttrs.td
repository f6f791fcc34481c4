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
include "mlir/IR/EnumAttr.td"

def DLA_CvtAttr : DLA_Attr<"Cvt", "cvt"> {
  let summary = "An NVDLA data converter: offset, scale, right shift";
  let description = [{
    `out = SAT(RHA((in - offset) * scale, shift))`: subtract, multiply,
    shift right rounding half away from zero, saturate to the converter's
    width. All three registers are always stated. On `dla.sdp` and
    `dla.clamp` it is the SDP's output converter (`out_cvt`: D_CVT_OFFSET
    INT32, D_CVT_SCALE INT16, D_CVT_SHIFT U6, a 17-bit result saturated to
    the output precision).

    ```mlir
    #dla.cvt<offset = -3, scale = 27307, shift = 16>
    ```
  }];
  let parameters = (ins "int64_t":$offset, "int64_t":$scale, "int64_t":$shift);
  let assemblyFormat = "`<` struct(params) `>`";
}

// The lookup table's two enums, with the register encodings
// (LUT_LE_FUNCTION: EXPONENT 0, LINEAR 1; LUT_*_PRIORITY: LE 0, LO 1).
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

#endif // DLA_REGISTER_ATTRS_TD
