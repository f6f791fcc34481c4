//===- DLAStorageOps.td - Layer ops run on storage buffers -*- tablegen -*-===//
//
// After --dla-lower-to-memref, a layer op (or a convolution with its fused
// SDP) runs inside `dla.on_storage`, which names the storage buffer of each
// operand and result. The layer ops themselves are not copied: the body holds
// the tensor-form ops, whose block arguments carry the logical types
// (shape, element type, encoding), so every layer op has one definition.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_STORAGE_OPS_TD
#define DLA_STORAGE_OPS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def DLA_OnStorageOp : DLA_Op<"on_storage", [
    AttrSizedOperandSegments, IsolatedFromAbove, DestinationStyleOpInterface,
    SingleBlock]> {
  let summary = "Runs layer ops on the storage buffers of their operands";
  let description = [{
    One hardware layer on memory: the layer ops of the body (one layer op,
    or a convolution and the SDP fused to it) read the storage of `ins` and
    write the storage of `outs`.

    Each block argument of the body is the logical tensor (shape, element
    type and `dla` encoding) whose storage is the matching `ins` buffer; each
    yielded value the logical tensor whose storage is the matching `outs`
    buffer. An encoded tensor's storage is its byte buffer
    `memref<BYTES x i8>` (size and alignment from the format library); a
    tensor without encoding is its row-major memref. Compressed weights,
    whose storage depends on the values, take three consecutive `ins`
    operands: their WGS, WMB and data surfaces (`memref<BYTES x i8>` each). The typed strided views
    of a buffer (line and surface strides, plane offsets) are the format
    library's `StorageDescription` of the logical type
    (`getStorageMemRefTypes`), so they are never written twice.

    Because the storage is an operand, not recovered from the ops that made
    a view, any canonicalization between `--dla-lower-to-memref` and
    `--dla-lower-buffers-to-reference` is safe.

    ```mlir
    dla.on_storage ins(%x, %w : memref<2048xi8>, memref<2304xi8>)
                   outs(%y : memref<2048xi8>) {
    ^bb0(%a: tensor<1x16x8x8xf16, #dla.feature<fp16>>,
         %b: tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>):
      %c = dla.conv direct %a, %b pad [1, 1, 1, 1]
          : tensor<1x16x8x8xf16, #dla.feature<fp16>>,
            tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
          -> tensor<1x16x8x8xf16, #dla.feature<fp16>>
      dla.yield %c : tensor<1x16x8x8xf16, #dla.feature<fp16>>
    }
    ```
  }];
  let arguments = (ins
    Arg<Variadic<AnyMemRef>, "operand storage", [MemRead]>:$ins,
    Arg<Variadic<AnyMemRef>, "result storage", [MemWrite]>:$outs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`ins` `(` $ins^ `:` type($ins) `)`)? `outs` `(` $outs `:` type($outs) `)`
    $body attr-dict
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutsMutable(); }
    ::mlir::dla::YieldOp getYield();
    /// The logical tensor type of block argument `i` (its storage is one
    /// `ins` operand, or three for compressed weights).
    ::mlir::RankedTensorType getInputType(unsigned i);
    /// The logical tensor type whose storage is `outs` operand `i`.
    ::mlir::RankedTensorType getOutputType(unsigned i);
  }];
}

def DLA_YieldOp : DLA_Op<"yield", [Pure, Terminator, ReturnLike,
                                   HasParent<"::mlir::dla::OnStorageOp">]> {
  let summary = "The logical results a dla.on_storage writes to its outs";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
}

#endif // DLA_STORAGE_OPS_TD
