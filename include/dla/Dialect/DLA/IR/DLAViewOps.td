//===- DLAViewOps.td - Channel views of feature data -------*- tablegen -*-===//
//
// A depthwise (grouped) convolution runs on NVDLA as one dense convolution
// per channel group (issue 45 item 4). Its groups are views of one feature
// surface: whole channel atoms (surfaces) of it, with its line and surface
// strides, so a layer reads or writes them through an address offset and no
// host copy cuts or joins them.
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

#endif // DLA_VIEW_OPS_TD
