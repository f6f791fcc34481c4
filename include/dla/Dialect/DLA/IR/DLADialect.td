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
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class DLA_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<DLA_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class DLA_Op<string mnemonic, list<Trait> traits = []>
    : Op<DLA_Dialect, mnemonic, traits>;

#endif // DLA_DIALECT_TD
