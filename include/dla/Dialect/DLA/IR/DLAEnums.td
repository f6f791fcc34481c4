//===- DLAEnums.td - Enums of the dla dialect --------------*- tablegen -*-===//
#ifndef DLA_ENUMS_TD
#define DLA_ENUMS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "mlir/IR/EnumAttr.td"

def DLA_Precision : I32EnumAttr<"Precision", "NVDLA data precision", [
    I32EnumAttrCase<"Int8", 0, "int8">,
    I32EnumAttrCase<"Int16", 1, "int16">,
    I32EnumAttrCase<"Fp16", 2, "fp16">]> {
  let cppNamespace = "::mlir::dla";
  let genSpecializedAttr = 0;
}
def DLA_PrecisionAttr : EnumAttr<DLA_Dialect, DLA_Precision, "precision"> {
  let assemblyFormat = "`<` $value `>`";
}

def DLA_PipelinePrecision : I32EnumAttr<"PipelinePrecision",
    "NVDLA real precision in pipeline", [
    I32EnumAttrCase<"Int8", 0, "int8">,
    I32EnumAttrCase<"Int16", 1, "int16">,
    I32EnumAttrCase<"Fp16", 2, "fp16">,
    I32EnumAttrCase<"Int32", 3, "int32">,
    I32EnumAttrCase<"Fp32", 4, "fp32">]> {
  let cppNamespace = "::mlir::dla";
  let genSpecializedAttr = 0;
}
def DLA_PipelinePrecisionAttr
    : EnumAttr<DLA_Dialect, DLA_PipelinePrecision, "pipeline_precision"> {
  let assemblyFormat = "`<` $value `>`";
}

def DLA_ConvMode : I32EnumAttr<"ConvMode", "NVDLA convolution mode", [
    I32EnumAttrCase<"Direct", 0, "direct">,
    I32EnumAttrCase<"Winograd", 1, "winograd">,
    I32EnumAttrCase<"Image", 2, "image">]> {
  let cppNamespace = "::mlir::dla";
  let genSpecializedAttr = 0;
}
def DLA_ConvModeAttr : EnumAttr<DLA_Dialect, DLA_ConvMode, "conv_mode">;

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
