//===- DLAOps.td - Ops of the dla dialect ------------------*- tablegen -*-===//
#ifndef DLA_OPS_TD
#define DLA_OPS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dla/Dialect/DLA/IR/DLALayerOps.td"

def DLA_RelayoutOp : DLA_Op<"relayout", [Pure]> {
  let summary = "Converts a tensor between two layout encodings";
  let description = [{
    Produces the same logical tensor as `source` (same shape, element type
    and values) in another layout encoding. Either side may have no encoding
    (row-major). Both encodings must be `dla` layout encodings.

    On a constant source, `--dla-pack-weights` folds the op into a constant
    whose `dense_resource` blob holds the exact storage bytes of the result
    encoding.

    ```mlir
    %1 = dla.relayout %0 : tensor<2x9x20x50xi32> -> tensor<2x9x20x50xi32, #dla.chunked<crouton>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // DLA_OPS_TD
