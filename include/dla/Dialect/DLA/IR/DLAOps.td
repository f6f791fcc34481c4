//===- DLAOps.td - Ops of the dla dialect ------------------*- tablegen -*-===//
#ifndef DLA_OPS_TD
#define DLA_OPS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dla/Dialect/DLA/IR/DLALayerOps.td"
include "dla/Dialect/DLA/IR/DLAUpsampleOp.td"
include "dla/Dialect/DLA/IR/DLAInterleaveOp.td"
include "dla/Dialect/DLA/IR/DLAStorageOps.td"
include "dla/Dialect/DLA/IR/DLAViewOps.td"
include "dla/Dialect/DLA/IR/DLAEmulatorOps.td"

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

def DLA_WeightConstantOp : DLA_Op<"weight_constant", [Pure]> {
  let summary = "Packed compressed NVDLA weights: WGS, WMB and data surfaces";
  let description = [{
    The result of packing a constant into a compressed `#dla.weight`
    encoding: its three storage surfaces as byte tensors, each a multiple of
    128 bytes. `wgs` holds one little-endian uint32 per kernel group (the
    group's compressed bytes), `wmb` one bit per weight (LSB first, 1 =
    non-zero), `data` the non-zero weights in stream order. Deconvolution
    sets follow one another in each surface, 256-byte aligned.

    ```mlir
    %w = dla.weight_constant wgs = dense_resource<dla_wgs> : tensor<128xi8>,
        wmb = dense_resource<dla_wmb> : tensor<128xi8>,
        data = dense_resource<dla_data> : tensor<256xi8>
        : tensor<32x16x3x3xi8, #dla.weight<direct, int8, compressed>>
    ```
  }];
  let arguments = (ins ElementsAttr:$wgs, ElementsAttr:$wmb, ElementsAttr:$data);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    `wgs` `=` $wgs `,` `wmb` `=` $wmb `,` `data` `=` $data attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}


def DLA_ToStorageOp : DLA_Op<"to_storage", [Pure]> {
  let summary = "The storage bytes of an encoded tensor";
  let description = [{
    Hands the storage of a tensor with a `dla` layout encoding to a runtime
    or a printer: the result holds exactly the encoding's storage bytes
    (padding and gaps included), as `--dla-pack-weights` would write them.
    The byte count must equal the encoding's storage size.
    `--dla-lower-to-memref` turns it into the storage buffer itself.

    ```mlir
    %b = dla.to_storage %t : tensor<1x20x5x6xf16, #dla.feature<fp16>> -> tensor<1280xi8>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs 1DTensorOf<[I8]>:$storage);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($storage)";
  let hasVerifier = 1;
}

def DLA_FromStorageOp : DLA_Op<"from_storage", [Pure]> {
  let summary = "An encoded tensor made from its storage bytes";
  let description = [{
    The inverse of `dla.to_storage`: reads storage bytes (from a runtime or
    a file) as a tensor with a `dla` layout encoding. The byte count must
    equal the encoding's storage size.

    ```mlir
    %t = dla.from_storage %b : tensor<1280xi8> -> tensor<1x20x5x6xf16, #dla.feature<fp16>>
    ```
  }];
  let arguments = (ins 1DTensorOf<[I8]>:$storage);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$storage attr-dict `:` type($storage) `->` type($result)";
  let hasVerifier = 1;
}

#endif // DLA_OPS_TD
