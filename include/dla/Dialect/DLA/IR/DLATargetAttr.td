//===- DLATargetAttr.td - The accelerator a module targets -*- tablegen -*-===//
#ifndef DLA_TARGET_ATTR_TD
#define DLA_TARGET_ATTR_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAEnums.td"

def DLA_OptionalHardwareKind
    : OptionalParameter<"std::optional<::dlaformat::nvdla::HardwareKind>", "NVDLA configuration"> {
  let parser = "::mlir::dla::detail::parseFormatEnum<::dlaformat::nvdla::HardwareKind>($_parser, \"NVDLA configuration\")";
  let printer = "$_printer << ::mlir::dla::detail::formatEnumName(*$_self)";
}

def DLA_TargetAttr : DLA_Attr<"Target", "target"> {
  let summary = "The accelerator (and NVDLA configuration) a module is compiled for";
  let description = [{
    Held by a module as its `dla.target` attribute; every pass that needs to
    know the hardware reads it (`--dla-assign-layouts` and `--dla-compile`
    may override it with their `target` option and then record the one they
    used). A module without one targets NVDLA nv_full, the default of every
    encoding that names a configuration. Encodings that name a configuration
    (`#dla.weight<..., config = nv_small>`) must agree with the target: the
    layer ops' verifiers check it.

    ```mlir
    module attributes {dla.target = #dla.target<nvdla, nv_small>} { ... }
    module attributes {dla.target = #dla.target<htp>} { ... }
    ```
  }];
  let parameters = (ins
    DLA_FormatEnumParameter<"::dlaformat::Accelerator", "accelerator">:$accelerator,
    DLA_OptionalHardwareKind:$config);
  let assemblyFormat = "`<` $accelerator (`,` $config^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the module attribute holding the target.
    static constexpr ::llvm::StringLiteral kAttrName = "dla.target";
    /// The format library's target (nv_full when an NVDLA target names no
    /// configuration).
    ::dlaformat::Target getTarget() const;
    static TargetAttr get(::mlir::MLIRContext *context, const ::dlaformat::Target &target);
    /// The target of the closest ancestor (or `op` itself) holding
    /// `dla.target`, else the default target.
    static ::dlaformat::Target lookup(::mlir::Operation *op);
    /// A pass's `target=` option when given (an error on `op` when it names
    /// no target), else lookup(op): the one reading of that option.
    static ::mlir::FailureOr<::dlaformat::Target> resolve(::mlir::Operation *op,
                                                          ::llvm::StringRef option);
  }];
}

#endif // DLA_TARGET_ATTR_TD
