//===- DLADialect.td - The dla dialect ---------------------*- tablegen -*-===//
#ifndef DLA_DIALECT_TD
#define DLA_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def DLA_Dialect : Dialect {
  let name = "dla";
  let cppNamespace = "::mlir::dla";
  let summary = "Tensor encodings and ops for deep-learning accelerator memory formats";
  let description = [{
    The `dla` dialect describes how tensors are laid out in the memory of
    deep-learning accelerators whose formats are not row-major: Hexagon
    HTP-style chunked layouts and NVDLA's in-memory formats. Each layout is a
    tensor encoding attribute implementing `LayoutEncodingAttr`, whose answers
    (storage size, byte offsets, strided views, packing) come from one C++
    format library. `dla.relayout` converts a tensor between encodings; on a
    constant it folds into the packed storage bytes.

    ```mlir
    %w = arith.constant dense<...> : tensor<1x3x5x30xi8>
    %p = dla.relayout %w : tensor<1x3x5x30xi8> -> tensor<1x3x5x30xi8, #dla.chunked<crouton>>
    ```
  }];
  // The generated parser and printer, with a note that lists the keywords
  // of a struct-form attribute after an unknown or repeated one
  // (DLADialect.cpp).
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    /// On a function: the layers --dla-outline-nvdla-program moved out of
    /// a network, the function a register program is written for.
    static constexpr ::llvm::StringLiteral kNvdlaProgramAttrName = "dla.nvdla_program";

    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class DLA_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<DLA_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  /// The parameters from this index on are written `key = value` in any
  /// order (ODS's struct() directive; `structParams` is that directive for
  /// the assembly format). kStructKeywords names them for the note an
  /// unknown or repeated key gets (DLADialect::parseAttribute): the names
  /// come from `parameters` alone.
  int firstKeyword = 0;
  string structParams = "struct(" # !interleave(!foreach(i, !range(firstKeyword,
      !size(parameters)), "$" # !getdagname(parameters, i)), ", ") # ")";
  let extraClassDeclaration = "static constexpr ::llvm::StringLiteral kStructKeywords = \"" #
      !interleave(!foreach(i, !range(firstKeyword, !size(parameters)),
                           !getdagname(parameters, i)), ", ") # "\";";
}

class DLA_Op<string mnemonic, list<Trait> traits = []>
    : Op<DLA_Dialect, mnemonic, traits>;

#endif // DLA_DIALECT_TD
