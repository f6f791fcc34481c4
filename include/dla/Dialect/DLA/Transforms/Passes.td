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

def DLACheckPrecision : Pass<"dla-check-precision"> {
  let summary = "Check NVDLA precision conversions of layer ops and annotate them";
  let description = [{
    Checks every layer op (`dla.conv`, `dla.sdp`, `dla.pool`, `dla.lrn`)
    against NVDLA's precision-conversion rules: the four tables of the
    in-memory format document (convolution, SDP offline, LRN, pooling, with
    the errata of the spec README) and the prose rules (conversion only in
    image input mode; direct and Winograd convert nothing; on-the-fly SDP
    takes the convolution's output precision and keeps the bit depth; LRN
    and pooling convert nothing). The tables live once, in
    `dla/Format/NvdlaConversion.h`.

    A valid op is annotated with `pipeline_precision` (the real precision in
    the pipeline) and, for convolutions, `weight_precision`; its weights must
    have that precision. An invalid op gets an error naming the table or
    rule, the configured input and output, and the legal outputs:

    ```
    error: invalid precision conversion for LRN layer: int8 feature data -> fp16 (valid: int8)
    ```

    The pass fails if any op is invalid.

    ```mlir
    %y = dla.pool max %x kernel [2, 2] stride [2, 2] : tensor<1x8x4x4xi8> -> tensor<1x8x2x2xi8>
    // becomes
    %y = dla.pool max %x kernel [2, 2] stride [2, 2] {pipeline_precision = #dla.pipeline_precision<int8>} : ...
    ```
  }];
}

#endif // DLA_PASSES_TD
