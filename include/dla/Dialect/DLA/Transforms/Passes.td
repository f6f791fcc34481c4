//===- Passes.td - Passes of the dla dialect ---------------*- tablegen -*-===//
#ifndef DLA_PASSES_TD
#define DLA_PASSES_TD

include "mlir/Pass/PassBase.td"

def DLAPackWeights : Pass<"dla-pack-weights", "::mlir::ModuleOp"> {
  let summary = "Fold dla.relayout of constants into packed dense_resource storage";
  let description = [{
    Every `dla.relayout` whose source is an `arith.constant` becomes an
    `arith.constant` of the relayout's result type whose value is a
    `dense_resource` blob holding the exact storage bytes of the result
    encoding: padding included (zero), elements little-endian, each element
    in ceil(bitwidth / 8) bytes. Source constants left without users are
    erased. The packed data is never materialized as a `DenseElementsAttr`;
    independent constants are packed in parallel on the context's thread
    pool.

    Before:
    ```mlir
    %c = arith.constant dense<...> : tensor<1x3x5x30xi8>
    %p = dla.relayout %c : tensor<1x3x5x30xi8> -> tensor<1x3x5x30xi8, #dla.chunked<crouton>>
    ```
    After:
    ```mlir
    %p = arith.constant dense_resource<dla_packed> : tensor<1x3x5x30xi8, #dla.chunked<crouton>>
    {-#
      dialect_resources: { builtin: { dla_packed: "0x40000000000102..." } }
    #-}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"int64_t(1) << 34",
           "Diagnose instead of packing a constant whose storage exceeds this "
           "many bytes (default 16 GiB): padding can make a small tensor's "
           "storage enormous">,
  ];
}

#endif // DLA_PASSES_TD
