//===- DLAViewOps.td - Channel views of feature data -------*- tablegen -*-===//
//
// A depthwise (grouped) convolution runs on NVDLA as one dense convolution
// per channel group (issue 45 item 4). Its groups are views of one feature
// surface: whole channel atoms (surfaces) of it, with its line and surface
// strides, so a layer reads or writes them through an address offset and no
// host copy cuts or joins them. A reshape of a map's positions that keeps
// every byte in place is a view of it too (dla.reshape_view).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_VIEW_OPS_TD
#define DLA_VIEW_OPS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def DLA_ChannelSliceOp : DLA_Op<"channel_slice", [Pure, DLA_ChannelViewOpInterface]> {
  let summary = "Channels [offset, offset + C) of an NCHW tensor, as a view";
  let description = [{
    The result is channels `offset` .. `offset` + C - 1 of `source` (C the
    result's channel count; N, H and W equal). Without encodings this is a
    plain channel slice. On NVDLA feature data (`#dla.feature`) it is a view
    of the source's storage: `offset` must be a whole number of channel
    atoms (the cube's surfaces), C too unless the view ends with the
    source, and the result's encoding must have the source's line, surface
    and batch strides, so that its storage is the source's from byte
    offset / atom x surface stride on.

    ```mlir
    %g = dla.channel_slice %x [8] : tensor<1x24x4x4xi8, #dla.feature<int8, config = nv_small>>
        -> tensor<1x8x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 384, config = nv_small>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source `[` $offset `]` attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def DLA_ChannelConcatOp : DLA_Op<"channel_concat", [Pure, DLA_ChannelViewOpInterface]> {
  let summary = "NCHW tensors joined along channels, each a view of the result";
  let description = [{
    The result holds the inputs' channels one after another (N, H and W
    equal). On NVDLA feature data each input is a view of the result's
    storage: every input but the last holds whole channel atoms, and every
    input's encoding has the result's line, surface and batch strides, so
    the layers that write the inputs write the result in place.

    ```mlir
    %y = dla.channel_concat %a, %b : tensor<1x8x4x4xi8, #A>, tensor<1x8x4x4xi8, #A>
        -> tensor<1x16x4x4xi8, #dla.feature<int8, line_stride = 32, surface_stride = 128, batch_stride = 256, config = nv_small>>
    ```

    A padded concatenation (`at [...]`: each input's first channel in the
    result, increasing, the inputs not overlapping, the last ending with
    the result) leaves gaps between its inputs: channels no input holds.
    On feature data an input may then end inside an atom when the gap
    holds the rest of that atom, so parts of 1 channel each are one
    surface each; the gap channels hold what the inputs' writers put in
    their atoms' padding (zero without encodings). Its reader is a
    convolution whose weights are zero at the gaps (docs/ChannelSplits.md).

    ```mlir
    %y = dla.channel_concat %a, %b at [0, 8] : tensor<1x1x4x4xi8, #A>, tensor<1x1x4x4xi8, #A>
        -> tensor<1x9x4x4xi8, #A>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat =
      "$inputs (`at` $offsets^)? attr-dict `:` type($inputs) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Each input's first channel in the result: `offsets`, or the inputs
    /// one after another.
    ::llvm::SmallVector<int64_t> getInputChannels();
  }];
}

def DLA_AsWeightsOp : DLA_Op<"as_weights", [Pure, DLA_ChannelViewOpInterface,
    DeclareOpInterfaceMethods<DLA_LayoutConstrainedOpInterface,
                              ["getLayoutVariants", "getLayoutOperandName"]>]> {
  let summary = "A layer's result read as 1x1 convolution weights, as a view";
  let description = [{
    The result is the weights of H x W 1x1 kernels of C channels:
    `result[h * W + w, c, 0, 0] = source[0, c, h, w]` (source [1, C, H, W],
    result [H W, C, 1, 1]). It lets a convolution multiply a feature map by
    another layer's result (attention's q k^T and p v,
    docs/WholeNetworks.md). Without encodings it is that transpose. On
    NVDLA the source's storage is the weights' storage, byte for byte: the
    source is int8 feature data with its surfaces interleaved line by line
    (the encoding the format library gives, NvdlaWeightStream.h: W = 8,
    C a multiple of 8, surface stride 64 and line stride C x 8 on
    nv_small), the result uncompressed direct int8 weights of the same
    configuration; the convolution reads the weights at the source's
    address, no unit or host copy computes the view.

    ```mlir
    %w = dla.as_weights %k : tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 128, surface_stride = 64, config = nv_small>>
        -> tensor<40x16x1x1xi8, #dla.weight<direct, int8, config = nv_small>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def DLA_ReshapeViewOp : DLA_Op<"reshape_view", [Pure, DLA_ChannelViewOpInterface]> {
  let summary = "A feature map's positions reshaped, as a view";
  let description = [{
    The result is `source` [N, C, H, W] with its H x W positions read
    row-major as H' x W' (H' W' = H W; N, C and element type equal): a
    reshape of the positions alone. Without encodings this is that
    reshape. On NVDLA feature data it is a view of the source's storage at
    offset 0: the format library must find every element at the same byte
    in both encodings (`keepsBytesInPlace`, NvdlaFeature.h), as a one-row
    map of 40 keys read as 5 x 8 with lines of 8 atoms and the source's
    surfaces (the attention's k_h, docs/WholeNetworks.md). No unit or host
    copy computes it.

    ```mlir
    %m = dla.reshape_view %k : tensor<1x16x1x40xi8, #dla.feature<int8, config = nv_small>>
        -> tensor<1x16x5x8xi8, #dla.feature<int8, line_stride = 64, surface_stride = 320, batch_stride = 640, config = nv_small>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

#endif // DLA_VIEW_OPS_TD
