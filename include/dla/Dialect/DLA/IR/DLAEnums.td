//===- DLAEnums.td - Enums of the dla dialect --------------*- tablegen -*-===//
//
// Enums the format library knows (precisions, conversion modes, pixel
// formats, ...) are attribute parameters of the library's own C++ type,
// spelled by its name table (dla/Format/EnumTable.h): ODS lists no value of
// them. Only the enums that exist in the dialect alone (SDP mode, pooling
// function) are ODS enums.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_ENUMS_TD
#define DLA_ENUMS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "mlir/IR/EnumAttr.td"

/// A format-library enum spelled by the keyword of its table.
class DLA_FormatEnumParameter<string cppType, string what>
    : AttrParameter<cppType, what> {
  let parser = "::mlir::dla::detail::parseFormatEnum<" # cppType # ">($_parser, \"" # what # "\")";
  let printer = "$_printer << ::mlir::dla::detail::formatEnumName($_self)";
}

/// An attribute holding one value of a format-library enum:
/// `#dla.<mnemonic><keyword>` standalone; ops spell the bare keyword through
/// `custom<EnumKeyword>`.
class DLA_FormatEnumAttr<string name, string attrMnemonic, string enumType, string enumWhat>
    : DLA_Attr<name, attrMnemonic> {
  let summary = "NVDLA " # enumWhat;
  let parameters = (ins DLA_FormatEnumParameter<enumType, enumWhat>:$value);
  let assemblyFormat = "`<` $value `>`";
  // Op accessors return the library enum, as for an ODS EnumAttr.
  let returnType = enumType;
  let convertFromStorage = "$_self.getValue()";
  let constBuilderCall = "::mlir::dla::" # name # "Attr::get($_builder.getContext(), $0)";
}

def DLA_PrecisionAttr : DLA_FormatEnumAttr<"Precision", "precision",
    "::dlaformat::nvdla::Precision", "precision">;
def DLA_PipelinePrecisionAttr : DLA_FormatEnumAttr<"PipelinePrecision",
    "pipeline_precision", "::dlaformat::nvdla::PipelinePrecision",
    "pipeline precision">;
def DLA_ConvModeAttr : DLA_FormatEnumAttr<"ConvMode", "conv_mode",
    "::dlaformat::nvdla::ConvMode", "convolution mode">;

def DLA_SdpMode : I32EnumAttr<"SdpMode", "Where the SDP reads its input", [
    I32EnumAttrCase<"Offline", 0, "offline">,
    I32EnumAttrCase<"OnTheFly", 1, "on_the_fly">]> {
  let cppNamespace = "::mlir::dla";
  let genSpecializedAttr = 0;
}
def DLA_SdpModeAttr : EnumAttr<DLA_Dialect, DLA_SdpMode, "sdp_mode">;

def DLA_PoolKind : I32EnumAttr<"PoolKind", "Pooling function", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Min", 1, "min">,
    I32EnumAttrCase<"Average", 2, "average">]> {
  let cppNamespace = "::mlir::dla";
  let genSpecializedAttr = 0;
}
def DLA_PoolKindAttr : EnumAttr<DLA_Dialect, DLA_PoolKind, "pool_kind">;

#endif // DLA_ENUMS_TD
