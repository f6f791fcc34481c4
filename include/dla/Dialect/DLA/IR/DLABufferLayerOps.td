//===- DLABufferLayerOps.td - Layer ops on storage views ---*- tablegen -*-===//
//
// The destination-passing form of the layer ops, after --dla-lower-to-memref:
// every operand is the set of typed strided views of its storage (as the
// format library's StorageDescription gives them), so a backend reads base,
// line stride, surface stride and plane offsets from the memref types
// (getStridesAndOffset). The views alone do not name their format: each
// operand also carries its logical tensor type (shape, element type and
// encoding), from which the verifier recomputes the view types.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_BUFFER_LAYER_OPS_TD
#define DLA_BUFFER_LAYER_OPS_TD

include "dla/Dialect/DLA/IR/DLALayerOps.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"

/// One operand's storage: its views (one per plane / component; for layouts
/// that are no strided view, such as most weights, the storage bytes
/// memref<BYTES x i8>; an operand without encoding: its row-major memref).
def DLA_StorageViews : Variadic<AnyMemRef>;

/// The logical tensor type of an operand (with its encoding).
def DLA_FeatureTypeAttr : TypeAttrOf<DLA_FeatureTensor>;
def DLA_ConvInputTypeAttr : TypeAttrOf<DLA_ConvInputTensor>;
def DLA_BiasTypeAttr : TypeAttrOf<DLA_BiasTensor>;

class DLA_BufferLayerOp<string mnemonic, list<Trait> traits = []>
    : DLA_Op<"buffer." # mnemonic, !listconcat(traits, [AttrSizedOperandSegments,
        DestinationStyleOpInterface])> {
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The output views are the destination.
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputMutable(); }
  }];
}

def DLA_BufferConvOp : DLA_BufferLayerOp<"conv"> {
  let summary = "dla.conv on the storage views of its operands (destination-passing)";
  let description = [{
    Computes `dla.conv` (same modes, attributes and arithmetic) from the
    storage of `input`, `weight` and `bias` into the storage of `output`.
    Each operand is the list of typed strided views of its storage that the
    format library describes for its logical type (written after `of`):
    NVDLA feature data is one view (N, C/atom, H, W, atom) whose strides are
    the line and surface strides in elements; pixel formats one view per
    plane, at its plane offset; layouts with no strided view (weights) the
    storage bytes `memref<BYTES x i8>`; an operand without encoding its
    row-major memref. The verifier recomputes every view type from the
    logical type, and checks the logical types as `dla.conv` does.
    `--dla-lower-to-memref` produces it; `--dla-lower-buffers-to-reference`
    executes it on the CPU.

    ```mlir
    dla.buffer.conv direct
        input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.feature<fp16>>
        weight(%w : memref<1x1x3x3x16x16xf16, strided<[2304, 2304, 768, 256, 16, 1]>>)
          of tensor<16x16x3x3xf16, #dla.weight<direct, fp16>>
        bias(%b : memref<1x16xf16, strided<[16, 1]>>) of tensor<16xf16, #dla.bias<per_channel, fp16>>
        output(%y : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.feature<fp16>>
        pad [1, 1, 1, 1]
    ```
  }];
  let arguments = (ins
    DLA_ConvModeAttr:$mode,
    Arg<DLA_StorageViews, "input views", [MemRead]>:$input,
    Arg<DLA_StorageViews, "weight storage", [MemRead]>:$weight,
    Arg<DLA_StorageViews, "bias views", [MemRead]>:$bias,
    Arg<DLA_StorageViews, "output views", [MemWrite]>:$output,
    DLA_ConvInputTypeAttr:$input_type,
    DLA_FeatureTypeAttr:$weight_type,
    OptionalAttr<DLA_BiasTypeAttr>:$bias_type,
    DLA_FeatureTypeAttr:$output_type,
    DefaultValuedAttr<DLA_PositivePair, "{1, 1}">:$strides,
    DefaultValuedAttr<DLA_Padding, "{0, 0, 0, 0}">:$padding,
    DefaultValuedAttr<DLA_PositivePair, "{1, 1}">:$dilations,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision,
    OptionalAttr<DLA_PrecisionAttr>:$weight_precision);
  let assemblyFormat = [{
    custom<EnumKeyword>($mode)
    `input` `(` $input `:` type($input) `)` `of` $input_type
    `weight` `(` $weight `:` type($weight) `)` `of` $weight_type
    (`bias` `(` $bias^ `:` type($bias) `)` `of` $bias_type)?
    `output` `(` $output `:` type($output) `)` `of` $output_type
    (`stride` $strides^)? (`pad` $padding^)? (`dilation` $dilations^)?
    attr-dict
  }];
}

def DLA_BufferSdpOp : DLA_BufferLayerOp<"sdp"> {
  let summary = "dla.sdp on the storage views of its operands (destination-passing)";
  let description = [{
    Computes `dla.sdp` from the storage views of `input` and its auxiliary
    operands into the storage views of `output`; operands as for
    `dla.buffer.conv` (views of the logical type written after `of`).
    `on_the_fly` keeps its meaning (the input is a convolution's output);
    the memref form cannot check where the input came from, so its
    `pipeline_precision` (which the fused convolution decides) is stated on
    the op: `--dla-lower-to-memref` sets it.

    ```mlir
    dla.buffer.sdp offline
        input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.feature<fp16>>
        eltwise(%e : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.eltwise<fp16>>
        relu
        output(%y : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.feature<fp16>>
    ```
  }];
  let arguments = (ins
    DLA_SdpModeAttr:$mode,
    Arg<DLA_StorageViews, "input views", [MemRead]>:$input,
    Arg<DLA_StorageViews, "bias views", [MemRead]>:$bias,
    Arg<DLA_StorageViews, "batch-norm views", [MemRead]>:$batchnorm,
    Arg<DLA_StorageViews, "element-wise operand views", [MemRead]>:$eltwise,
    Arg<DLA_StorageViews, "PReLU views", [MemRead]>:$prelu,
    Arg<DLA_StorageViews, "output views", [MemWrite]>:$output,
    DLA_FeatureTypeAttr:$input_type,
    OptionalAttr<DLA_BiasTypeAttr>:$bias_type,
    OptionalAttr<TypeAttrOf<2DTensorOf<[DLA_PrecisionElement]>>>:$batchnorm_type,
    OptionalAttr<DLA_FeatureTypeAttr>:$eltwise_type,
    OptionalAttr<TypeAttrOf<1DTensorOf<[DLA_PrecisionElement]>>>:$prelu_type,
    DLA_FeatureTypeAttr:$output_type,
    UnitAttr:$relu,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let assemblyFormat = [{
    custom<EnumKeyword>($mode)
    `input` `(` $input `:` type($input) `)` `of` $input_type
    (`bias` `(` $bias^ `:` type($bias) `)` `of` $bias_type)?
    (`batchnorm` `(` $batchnorm^ `:` type($batchnorm) `)` `of` $batchnorm_type)?
    (`eltwise` `(` $eltwise^ `:` type($eltwise) `)` `of` $eltwise_type)?
    (`prelu` `(` $prelu^ `:` type($prelu) `)` `of` $prelu_type)?
    (`relu` $relu^)?
    `output` `(` $output `:` type($output) `)` `of` $output_type
    attr-dict
  }];
}

def DLA_BufferPoolOp : DLA_BufferLayerOp<"pool"> {
  let summary = "dla.pool on storage views (destination-passing)";
  let description = [{
    Computes `dla.pool` from the storage views of `input` into those of
    `output`; operands as for `dla.buffer.conv`.

    ```mlir
    dla.buffer.pool max
        input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.feature<fp16>>
        output(%y : memref<1x1x4x4x16xf16, strided<[256, 256, 64, 16, 1]>>)
          of tensor<1x16x4x4xf16, #dla.feature<fp16>>
        kernel [2, 2] stride [2, 2]
    ```
  }];
  let arguments = (ins
    DLA_PoolKindAttr:$kind,
    Arg<DLA_StorageViews, "input views", [MemRead]>:$input,
    Arg<DLA_StorageViews, "output views", [MemWrite]>:$output,
    DLA_FeatureTypeAttr:$input_type,
    DLA_FeatureTypeAttr:$output_type,
    DLA_PositivePair:$kernel,
    DefaultValuedAttr<DLA_PositivePair, "{1, 1}">:$strides,
    DefaultValuedAttr<DLA_Padding, "{0, 0, 0, 0}">:$padding,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind)
    `input` `(` $input `:` type($input) `)` `of` $input_type
    `output` `(` $output `:` type($output) `)` `of` $output_type
    `kernel` $kernel (`stride` $strides^)? (`pad` $padding^)?
    attr-dict
  }];
}

def DLA_BufferLrnOp : DLA_BufferLayerOp<"lrn"> {
  let summary = "dla.lrn on storage views (destination-passing)";
  let description = [{
    Computes `dla.lrn` from the storage views of `input` into those of
    `output`; operands as for `dla.buffer.conv`.

    ```mlir
    dla.buffer.lrn
        input(%x : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.feature<fp16>>
        output(%y : memref<1x1x8x8x16xf16, strided<[1024, 1024, 128, 16, 1]>>)
          of tensor<1x16x8x8xf16, #dla.feature<fp16>>
        size 5
    ```
  }];
  let arguments = (ins
    Arg<DLA_StorageViews, "input views", [MemRead]>:$input,
    Arg<DLA_StorageViews, "output views", [MemWrite]>:$output,
    DLA_FeatureTypeAttr:$input_type,
    DLA_FeatureTypeAttr:$output_type,
    ConfinedAttr<I64Attr, [IntPositive]>:$size,
    DefaultValuedAttr<F32Attr, "1.0e-4">:$alpha,
    DefaultValuedAttr<F32Attr, "0.75">:$beta,
    DefaultValuedAttr<F32Attr, "1.0">:$k,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let assemblyFormat = [{
    `input` `(` $input `:` type($input) `)` `of` $input_type
    `output` `(` $output `:` type($output) `)` `of` $output_type
    `size` $size attr-dict
  }];
}

#endif // DLA_BUFFER_LAYER_OPS_TD
