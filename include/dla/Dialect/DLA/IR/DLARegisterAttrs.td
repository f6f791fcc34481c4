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

#endif // DLA_REGISTER_ATTRS_TD
