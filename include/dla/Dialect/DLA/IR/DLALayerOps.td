//===- DLALayerOps.td - NVDLA layer ops --------------------*- tablegen -*-===//
//
// Layer ops named by what they compute, each mapped to the NVDLA unit whose
// precision-conversion table governs it. Feature data is logical NCHW,
// weights KCRS. Precisions come from element types: i8 = int8, i16 = int16,
// f16 = fp16; image inputs (conv mode `image`) may be any integer type
// (signed or unsigned, as the pixel format says) or f16.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LAYER_OPS_TD
#define DLA_LAYER_OPS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAEnums.td"
include "dla/Dialect/DLA/IR/DLAInterfaces.td"
include "dla/Dialect/DLA/IR/DLARegisterAttrs.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Operand and attribute constraints shared by the layer ops: ODS checks them
// before the custom verifiers run, and the generated docs list them.

def DLA_PrecisionElement
    : AnyTypeOf<[I8, I16, F16], "NVDLA precision (i8, i16 or f16)">;
def DLA_PixelElement
    : AnyTypeOf<[AnyInteger, F16], "pixel precision (an integer type or f16)">;

/// Feature data (NCHW) and weights (KCRS).
def DLA_FeatureTensor : 4DTensorOf<[DLA_PrecisionElement]>;
/// A convolution input: feature data, or image data in `image` mode (the
/// verifier narrows the element type to a precision in the other modes).
def DLA_ConvInputTensor : 4DTensorOf<[DLA_PixelElement]>;
/// Bias: per layer (rank 0), per channel (rank 1) or per element (rank 4).
def DLA_BiasTensor : TensorRankOf<[DLA_PrecisionElement], [0, 1, 4]>;
/// One value per channel: `tensor<C>` (PReLU data), or a layer's 1xCx1x1
/// result read in place (feature data; the verifier checks the shape).
def DLA_PerChannelTensor : TensorRankOf<[DLA_PrecisionElement], [1, 4]>;

/// [y, x] windows, strides and dilations.
def DLA_PositivePair : ConfinedAttr<DenseI64ArrayAttr,
    [DenseArrayCount<2>, DenseArrayStrictlyPositive<DenseI64ArrayAttr>]>;
/// [y, x] counts that may be zero (dla.upsample's border).
def DLA_NonNegativePair : ConfinedAttr<DenseI64ArrayAttr,
    [DenseArrayCount<2>, DenseArrayNonNegative<DenseI64ArrayAttr>]>;
/// [top, bottom, left, right] padding.
def DLA_Padding : ConfinedAttr<DenseI64ArrayAttr,
    [DenseArrayCount<4>, DenseArrayNonNegative<DenseI64ArrayAttr>]>;

/// A layer op: one NVDLA unit's computation. It states its precision
/// question (getConversionQuery); `overrides` names the interface methods
/// with a default it defines itself (the defaults: record the pipeline
/// precision; read and write feature data only, the operand named "input").
class DLA_LayerOp<string mnemonic, list<Trait> traits = [],
                  list<string> overrides = []>
    : DLA_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<DLA_LayerOpInterface, overrides>,
        DeclareOpInterfaceMethods<DLA_PrecisionConversionOpInterface, overrides>,
        DeclareOpInterfaceMethods<DLA_LayoutConstrainedOpInterface, overrides>])>;

def DLA_ConvOp : DLA_LayerOp<"conv", [],
    ["annotatePrecision", "getLayoutVariants", "getLayoutOperandName"]> {
  let summary = "2-D convolution on the NVDLA convolution pipeline (CONV/CACC)";
  let description = [{
    `output[n, k, y, x] = sum over c, r, s of
    input[n, c, y*sy + r*dy - pad_top, x*sx + s*dx - pad_left] * weight[k, c, r, s]`
    (+ `bias` when given). Input and output are logical NCHW, the weight
    KCRS.

    Modes: `direct` (feature data in, no precision conversion), `winograd`
    (feature data, equal strides, no dilation, kernel 3x3 after channel
    extension: ceil(R / stride) = ceil(S / stride) = 3), and `image`
    (pixel data in; the weight's C may be smaller than the image's channel
    count, the rest is zero-padded; precision converts as the convolution
    table allows).

    `padding` is `[top, bottom, left, right]`. The registers hold kernels
    of 1..32, strides of 1..8, dilations of 1..32, top / left padding of
    0..31 and bottom / right of 0..63. The output element type is
    the configured output precision. On an integer pipeline,
    `clip_truncate` is CACC's delivery shift: the sum becomes
    `SAT32(RHA(sum, clip_truncate))` (rounding half away from zero) before
    the bias and the saturation to the output; absent, the sum is
    delivered whole. `input_cvt` (`#dla.cvt`) is CDMA's input converter:
    each input value becomes `SAT_p(RHA((x - offset) * scale, shift))` at
    the pipeline precision `p` before the sum; absent, the identity
    converter (an unsigned pixel above the signed maximum saturates). In
    `image` mode `mean = [ry, gu, bv, ax]` replaces the offset per pixel
    component (`input_cvt.offset` then 0); padding is not converted.
    `pad_value` (integer pipelines) is what each padded position feeds the
    sum (CDMA / CSC `PAD_VALUE`, after the converter; absent, 0): a
    quantized input with zero point z pads with z.
    `--dla-check-precision` adds `pipeline_precision` and
    `weight_precision`. `rows_per_part` (set by `--dla-split-convolutions`
    when the input does not fit the convolution buffer beside the weights)
    runs the layer as several hardware layers over bands of that many
    output rows, each reading its rows' windows and writing its rows in the
    same input and result buffers (NVIDIA's "partial H"); it does not
    change what the op computes. `weight_banks` (set by the same pass
    where the performance model finds it faster than NVIDIA's choice) is
    how many convolution buffer banks the weights take: all of them (each
    band then reuses the weights the first loaded), two kernel groups or
    one (every band reads them again, leaving more banks for its rows).

    ```mlir
    %y = dla.conv direct %x, %w, %b stride [1, 1] pad [1, 1, 1, 1]
        : tensor<1x64x56x56xi8>, tensor<64x64x3x3xi8>, tensor<64xi8> -> tensor<1x64x56x56xi8>
    %z = dla.conv image %img, %w7 stride [2, 2] pad [3, 3, 3, 3]
        : tensor<1x4x224x224xui8>, tensor<64x3x7x7xi8> -> tensor<1x64x112x112xi8>
    ```
  }];
  let arguments = (ins
    DLA_ConvModeAttr:$mode,
    DLA_ConvInputTensor:$input,
    DLA_FeatureTensor:$weight,
    Optional<DLA_BiasTensor>:$bias,
    DefaultValuedAttr<DLA_PositivePair, "{1, 1}">:$strides,
    DefaultValuedAttr<DLA_Padding, "{0, 0, 0, 0}">:$padding,
    DefaultValuedAttr<DLA_PositivePair, "{1, 1}">:$dilations,
    OptionalAttr<DLA_CvtAttr>:$input_cvt,
    OptionalAttr<ConfinedAttr<DenseI64ArrayAttr, [DenseArrayCount<4>]>>:$mean,
    OptionalAttr<I64Attr>:$clip_truncate,
    OptionalAttr<I64Attr>:$pad_value,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision,
    OptionalAttr<DLA_PrecisionAttr>:$weight_precision,
    OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$rows_per_part,
    OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$weight_banks);
  let results = (outs DLA_FeatureTensor:$output);
  let assemblyFormat = [{
    custom<EnumKeyword>($mode) $input `,` $weight (`,` $bias^)?
    (`stride` $strides^)? (`pad` $padding^)? (`dilation` $dilations^)?
    (`input_cvt` $input_cvt^)? (`mean` $mean^)? (`clip_truncate` $clip_truncate^)?
    (`pad_value` $pad_value^)? (`rows_per_part` $rows_per_part^)?
    (`weight_banks` $weight_banks^)?
    attr-dict `:` type($input) `,` type($weight) (`,` type($bias)^)? `->` type($output)
  }];
  let hasVerifier = 1;
  // The operands and the mode; every other attribute is set by name
  // (setStrides, setPadding, ...), so a new attribute changes no caller.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$output, "::dlaformat::nvdla::ConvMode":$mode,
                   "::mlir::Value":$input, "::mlir::Value":$weight,
                   CArg<"::mlir::Value", "{}">:$bias), [{
      build($_builder, $_state, output, ConvModeAttr::get($_builder.getContext(), mode), input,
            weight, bias, ::mlir::DenseI64ArrayAttr(), ::mlir::DenseI64ArrayAttr(),
            ::mlir::DenseI64ArrayAttr(), CvtAttr(), ::mlir::DenseI64ArrayAttr(),
            ::mlir::IntegerAttr(), ::mlir::IntegerAttr(), PipelinePrecisionAttr(),
            PrecisionAttr(), ::mlir::IntegerAttr(), ::mlir::IntegerAttr());
    }]>];
}

def DLA_SdpOp : DLA_LayerOp<"sdp", [AttrSizedOperandSegments],
    ["getFusedProducer", "getLayoutVariants", "getLayoutOperandName"]> {
  let summary = "Single-point data processing on the NVDLA SDP";
  let description = [{
    Per-element post-processing of feature data (logical NCHW): adds `bias`,
    applies `batchnorm` (add, then multiply), an element-wise operand
    `eltwise`, then `relu` or `prelu`. The result has the input's shape; its
    element type is the configured output precision. On an integer
    pipeline, `out_cvt` is the output converter (`#dla.cvt`): the result,
    saturated to 32 bits, becomes `SAT17(RHA((v - offset) * scale, shift))`
    before saturating to the output precision; without it the converter is
    the identity.

    **Stage form**: `bs`, `bn` (`#dla.sdp_x`) and `ew`
    (`#dla.sdp_y`) program the hardware's X1, X2 and Y stages, which run in
    that order on 32-bit data (an `on_the_fly` SDP receives the
    convolution's 32-bit accumulator, after its `clip_truncate`; an
    `offline` one its input sign-extended); the output converter follows.
    Each memory operand is read by the one stage that names it
    (`alu_operand = bias`); the stage form is bit-exact with the hardware
    (docs/IntegerAttributes.md section 4). On an fp16 pipeline `bs` and
    `bn` compute in fp32 from fp16 memory operands, without shifts or
    register operands (section 4.7): products of tensors computed at run
    time (`bs <mul_operand = eltwise>`). Without a stage attribute the op
    has the implicit meaning above.

    `offline` reads its input cube from memory. `on_the_fly` is fused after a
    convolution: its input must be the result of a `dla.conv`, whose
    configured output precision is the SDP's input precision.

    Auxiliary operand shapes: `bias` is `tensor<C>` (per channel), `tensor<>`
    (per layer) or the output's shape (per element); `batchnorm` is
    `tensor<Cx2>` (add, mul per channel); `eltwise` has the output's shape;
    `prelu` is `tensor<C>` or a `1xCx1x1` feature map, another layer's
    result read in place: a packed 1x1xC feature surface (line and surface
    stride one atom) is byte for byte the per-channel run the SDP's DMA
    reads (docs/WholeNetworks.md, "The gate read in place"), so a
    squeeze-excitation's gate needs no host reshape or relayout.

    ```mlir
    %y = dla.sdp on_the_fly %conv bias %b : tensor<64xi16> relu
        : tensor<1x64x56x56xi16> -> tensor<1x64x56x56xf16>
    %z = dla.sdp offline %x batchnorm %q : tensor<64x2xi16>
        bs <alu = sum, alu_operand = batchnorm, mul_operand = batchnorm, mul_shift = 12, relu = true>
        out_cvt <offset = 0, scale = 1, shift = 2>
        : tensor<1x64x56x56xi8> -> tensor<1x64x56x56xi8>
    ```
  }];
  let arguments = (ins
    DLA_SdpModeAttr:$mode,
    DLA_FeatureTensor:$input,
    Optional<DLA_BiasTensor>:$bias,
    Optional<2DTensorOf<[DLA_PrecisionElement]>>:$batchnorm,
    Optional<DLA_FeatureTensor>:$eltwise,
    Optional<DLA_PerChannelTensor>:$prelu,
    UnitAttr:$relu,
    OptionalAttr<DLA_SdpXAttr>:$bs,
    OptionalAttr<DLA_SdpXAttr>:$bn,
    OptionalAttr<DLA_SdpYAttr>:$ew,
    OptionalAttr<DLA_CvtAttr>:$out_cvt,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let results = (outs DLA_FeatureTensor:$output);
  let assemblyFormat = [{
    custom<EnumKeyword>($mode) $input
    (`bias` $bias^ `:` type($bias))?
    (`batchnorm` $batchnorm^ `:` type($batchnorm))?
    (`eltwise` $eltwise^ `:` type($eltwise))?
    (`prelu` $prelu^ `:` type($prelu))?
    (`relu` $relu^)?
    (`bs` $bs^)? (`bn` $bn^)? (`ew` $ew^)?
    (`out_cvt` $out_cvt^)?
    attr-dict `:` type($input) `->` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the op programs the hardware's stages (bs, bn or ew): the
    /// bit-exact form of docs/IntegerAttributes.md section 4.4.
    bool isStageForm() { return getBsAttr() || getBnAttr() || getEwAttr(); }
  }];
  // The input and the mode; stages are set by name (getBiasMutable().assign,
  // setRelu, ...), so a new stage or attribute changes no caller.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$output, "::mlir::dla::SdpMode":$mode,
                   "::mlir::Value":$input), [{
      build($_builder, $_state, output, SdpModeAttr::get($_builder.getContext(), mode), input,
            ::mlir::Value(), ::mlir::Value(), ::mlir::Value(), ::mlir::Value(),
            ::mlir::UnitAttr(), SdpXAttr(), SdpXAttr(), SdpYAttr(), CvtAttr(),
            PipelinePrecisionAttr());
    }]>];
}

def DLA_PoolOp : DLA_LayerOp<"pool"> {
  let summary = "Pooling on the NVDLA PDP";
  let description = [{
    Max, min or average pooling of feature data (logical NCHW) over
    `kernel = [kh, kw]` windows with `stride` and `pad = [top, bottom, left,
    right]`. PDP converts no precision: the output element type must equal
    the input's (checked by `--dla-check-precision`). The registers hold
    kernels of 1..8, strides of 1..16 and padding of 0..7 per side.

    Integer average pooling computes as PDP does: the window sum `S` wraps
    in the line buffer (int16 for int8 data, int32 for int16), padded
    positions add the registers `pad_values` (`PAD_VALUE_1X .. 7X`: a row
    with n padded columns adds the nth, m padded rows add kw times the
    mth; absent, all 0), and
    `avg = WRAP_p(RHA(RHA(S * recip_kernel_width, 16) * recip_kernel_height, 16))`
    with the reciprocals `floor(2^16 / k)` when absent. Max and min ignore
    padded positions and take none of these.

    ```mlir
    %y = dla.pool max %x kernel [2, 2] stride [2, 2]
        : tensor<1x64x56x56xi8> -> tensor<1x64x28x28xi8>
    ```
  }];
  let arguments = (ins
    DLA_PoolKindAttr:$kind,
    DLA_FeatureTensor:$input,
    DLA_PositivePair:$kernel,
    DefaultValuedAttr<DLA_PositivePair, "{1, 1}">:$strides,
    DefaultValuedAttr<DLA_Padding, "{0, 0, 0, 0}">:$padding,
    OptionalAttr<I64Attr>:$recip_kernel_width,
    OptionalAttr<I64Attr>:$recip_kernel_height,
    OptionalAttr<ConfinedAttr<DenseI64ArrayAttr, [DenseArrayCount<7>]>>:$pad_values,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let results = (outs DLA_FeatureTensor:$output);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) $input `kernel` $kernel (`stride` $strides^)? (`pad` $padding^)?
    (`recip_kernel_width` $recip_kernel_width^)? (`recip_kernel_height` $recip_kernel_height^)?
    (`pad_values` $pad_values^)?
    attr-dict `:` type($input) `->` type($output)
  }];
  let hasVerifier = 1;
  // Strides and padding are set by name.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$output, "::mlir::dla::PoolKind":$kind,
                   "::mlir::Value":$input, "::llvm::ArrayRef<int64_t>":$kernel), [{
      build($_builder, $_state, output, PoolKindAttr::get($_builder.getContext(), kind), input,
            $_builder.getDenseI64ArrayAttr(kernel), ::mlir::DenseI64ArrayAttr(),
            ::mlir::DenseI64ArrayAttr(), ::mlir::IntegerAttr(), ::mlir::IntegerAttr(),
            ::mlir::DenseI64ArrayAttr(), PipelinePrecisionAttr());
    }]>];
}

def DLA_ClampOp : DLA_LayerOp<"clamp"> {
  let summary = "Clamp on the NVDLA SDP: min(max(input, min), max)";
  let description = [{
    The SDP's X stage ALU with register operands: MAX against `min`, then
    MIN against `max`, computed in the SDP pipeline's number type and
    converted to the output precision as `dla.sdp offline` converts
    (the same precision table). ReLU6 is `min 0.0 max 6.0`; hard-sigmoid
    and hard-swish clamp to [0, 1] after their scale. Integer pipelines
    take integral bounds, and may state the SDP's output converter
    (`out_cvt`, as `dla.sdp`). Logical NCHW, the output has the input's
    shape.

    ```mlir
    %y = dla.clamp %x min 0.0 max 6.0 : tensor<1x16x8x8xf16> -> tensor<1x16x8x8xf16>
    ```
  }];
  let arguments = (ins
    DLA_FeatureTensor:$input,
    F64Attr:$min,
    F64Attr:$max,
    OptionalAttr<DLA_CvtAttr>:$out_cvt,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let results = (outs DLA_FeatureTensor:$output);
  let assemblyFormat = [{
    $input `min` $min `max` $max (`out_cvt` $out_cvt^)? attr-dict `:` type($input) `->` type($output)
  }];
  let extraClassDeclaration = [{
    /// The X stages the clamp runs as (bs: ALU MAX with `min`, bn: ALU MIN
    /// with `max`, register operands): an integer bound as
    /// operand << shift, an fp16 pipeline's bound as its fp16 pattern
    /// (rounded to nearest even, which clamps fp16 data alike). The
    /// register plan programs these; the CPU execution's hardware fp16
    /// arithmetic computes them.
    std::pair<SdpXAttr, SdpXAttr> getXStages();
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      if (::mlir::failed(::mlir::dla::verifyElementwiseShape(*this, getInput().getType(),
                                                             getOutput().getType())))
        return ::mlir::failure();
      double lo = getMin().convertToDouble(), hi = getMax().convertToDouble();
      if (!(lo <= hi))
        return emitOpError() << "min " << lo << " must not exceed max " << hi;
      if (getInput().getType().getElementType().isInteger()) {
        if (lo != std::trunc(lo) || hi != std::trunc(hi))
          return emitOpError() << "an integer clamp takes integral bounds, got min " << lo
                               << " and max " << hi;
        // The bounds are the X stages' register operands: BS MAX, BN MIN.
        for (auto [name, bound, stage] : {std::make_tuple("min", lo, "BS"),
                                          std::make_tuple("max", hi, "BN")})
          if (std::fabs(bound) >= 0x1p62 ||
              !::dlaformat::nvdla::splitSdpShiftedOperand(static_cast<int64_t>(bound)))
            return emitOpError() << name << " = " << static_cast<int64_t>(bound)
                                 << " is not an int16 register operand shifted left by 0..31 ("
                                 << stage << "_ALU_OPERAND << " << stage << "_ALU_SHIFT_VALUE)";
      }
      return ::mlir::dla::verifySdpOutputConverter(*this, getOutCvtAttr(), getInput().getType(),
                                                   getOutput().getType());
    }
    ::llvm::FailureOr<::dlaformat::nvdla::ConversionQuery> $cppClass::getConversionQuery() {
      return ::mlir::dla::getFeatureQuery(*this, getInput(), getOutput(),
                                          ::dlaformat::nvdla::ConversionQuery::sdpOffline);
    }
    ::dlaformat::nvdla::LayerKind $cppClass::getLayerKind() {
      return ::dlaformat::nvdla::LayerKind::SdpOffline;
    }
    int64_t $cppClass::getMacs() { return 0; }
    ::mlir::dla::LayerOperandRole $cppClass::getOperandRole(unsigned) {
      return ::mlir::dla::LayerOperandRole::Feature;
    }
  }];
}

def DLA_LrnOp : DLA_LayerOp<"lrn"> {
  let summary = "Local response normalization across channels on the NVDLA CDP";
  let description = [{
    `output = input / (k + alpha / size * sum of input^2 over size
    neighbouring channels)^beta`, logical NCHW. CDP converts no precision.
    `size` is 3, 5, 7 or 9 (`NORMALZ_LEN`).
    An integer LRN is the CDP's arithmetic (docs/IntegerAttributes.md 5.2):
    input converter `in_cvt`, square sum, lookup table `lut`, product with
    the converted input, output converter `out_cvt`; without `lut` the
    tables and both converters are derived from `alpha`, `beta`, `k`.

    ```mlir
    %y = dla.lrn %x size 5 : tensor<1x64x56x56xf16> -> tensor<1x64x56x56xf16>
    ```
  }];
  let arguments = (ins
    DLA_FeatureTensor:$input,
    ConfinedAttr<I64Attr, [IntPositive]>:$size,
    DefaultValuedAttr<F32Attr, "1.0e-4">:$alpha,
    DefaultValuedAttr<F32Attr, "0.75">:$beta,
    DefaultValuedAttr<F32Attr, "1.0">:$k,
    OptionalAttr<DLA_CvtAttr>:$in_cvt,
    OptionalAttr<DLA_CvtAttr>:$out_cvt,
    OptionalAttr<DLA_LutAttr>:$lut,
    OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let results = (outs DLA_FeatureTensor:$output);
  let assemblyFormat = [{
    $input `size` $size (`in_cvt` $in_cvt^)? (`out_cvt` $out_cvt^)? (`lut` $lut^)? attr-dict
    `:` type($input) `->` type($output)
  }];
  let hasVerifier = 1;
}

#endif // DLA_LAYER_OPS_TD
