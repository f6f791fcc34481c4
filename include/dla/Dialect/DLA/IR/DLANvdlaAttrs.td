//===- DLANvdlaAttrs.td - NVDLA memory-format encodings ----*- tablegen -*-===//
//
// The NVDLA in-memory formats as tensor encodings. Names of precisions,
// pixel formats, data sizes and modes are parsed and printed by the format
// library, which also holds every size, stride and offset rule.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_NVDLA_ATTRS_TD
#define DLA_NVDLA_ATTRS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAEnums.td"
include "dla/Dialect/DLA/IR/DLAInterfaces.td"
include "mlir/IR/TensorEncoding.td"


def DLA_NvPrecisionParameter
    : DLA_FormatEnumParameter<"::dlaformat::nvdla::Precision", "precision">;
def DLA_NvDataSizeParameter
    : DLA_FormatEnumParameter<"::dlaformat::nvdla::DataSize", "data size">;
def DLA_NvAuxModeParameter
    : DLA_FormatEnumParameter<"::dlaformat::nvdla::AuxMode", "mode">;
def DLA_NvPixelFormatParameter
    : DLA_FormatEnumParameter<"::dlaformat::nvdla::PixelFormat", "pixel format">;

def DLA_OptionalBytes : OptionalParameter<"std::optional<int64_t>", "bytes">;
/// `config = nv_small`: the configuration whose memory atom shapes the data
/// (nv_full, the default, is not printed).
def DLA_NvConfigParameter
    : DefaultValuedParameter<"::dlaformat::nvdla::HardwareKind",
                             "::dlaformat::nvdla::HardwareKind::NvFull",
                             "NVDLA configuration"> {
  let parser = "::mlir::dla::detail::parseFormatEnum<::dlaformat::nvdla::HardwareKind>($_parser, \"NVDLA configuration\")";
  let printer = "$_printer << ::mlir::dla::detail::formatEnumName($_self)";
}
def DLA_OptionalDataSize
    : OptionalParameter<"std::optional<::dlaformat::nvdla::DataSize>", "data size"> {
  let parser = "::mlir::dla::detail::parseFormatEnum<::dlaformat::nvdla::DataSize>($_parser, \"data size\")";
  let printer = "$_printer << ::mlir::dla::detail::formatEnumName(*$_self)";
}

/// An NVDLA encoding: the format library's description bound to a shape
/// (`bind`, in C++). Its verifier is the same for all: an element type, the
/// rank `rankRule` names ("" for any: the binding decides), then the
/// binding itself once the shape is static. `layoutMethods`: the layout
/// interface's defaulted methods the encoding defines itself.
class DLA_NvdlaEncoding<string name, string mnemonic, string rankRule = "{}",
                        list<string> layoutMethods = []>
    : DLA_Attr<name, mnemonic, [
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
        DeclareAttrInterfaceMethods<DLA_LayoutEncodingAttr, layoutMethods>]> {
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verifyEncoding(
        ::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const {
      return ::mlir::dla::detail::verifyEncodingByBinding(*this, shape, elementType, emitError,
                                                          }] # rankRule # [{);
    }
  }];
}

def DLA_FeatureAttr : DLA_NvdlaEncoding<"Feature", "feature", "{4, \"NCHW tensors\"}",
                                         ["getBatchInputs"]> {
  let summary = "NVDLA feature data (logical NCHW)";
  let description = [{
    Feature data cubes split into 1x1x32-byte atoms (32 int8 or 16
    int16 / fp16 channels), stored C' (within an atom) -> W -> H -> C
    (surfaces) -> N. Packed by default (line stride W x 32, surface stride
    H x line stride, batch stride the whole cube); unpacked with explicit
    `line_stride`, `surface_stride`, `batch_stride` in bytes, each 32-byte
    aligned and at least the packed size. Channels of the last atom and gaps
    hold zero. The element type must be the precision's: i8, i16 or f16.
    `config = nv_small` cuts the cube into nv_small's 8-byte memory atoms
    (8 int8 channels; strides 8-byte aligned); nv_full (the default) and
    nv_large have 32-byte atoms.

    ```mlir
    tensor<1x64x56x56xf16, #dla.feature<fp16>>
    tensor<1x64x56x56xi8, #dla.feature<int8, line_stride = 2048, surface_stride = 131072>>
    tensor<1x64x56x56xi8, #dla.feature<int8, config = nv_small>>
    ```
  }];
  let parameters = (ins DLA_NvPrecisionParameter:$precision,
                        DLA_OptionalBytes:$line_stride,
                        DLA_OptionalBytes:$surface_stride,
                        DLA_OptionalBytes:$batch_stride,
                        DLA_NvConfigParameter:$config);
  let firstKeyword = 1;
  let assemblyFormat = "`<` $precision (`,` " # structParams # "^)? `>`";
}

def DLA_PixelAttr : DLA_NvdlaEncoding<"Pixel", "pixel", "{4, \"NCHW images\"}"> {
  let summary = "NVDLA pitch-linear pixel (image) data (logical NCHW, N = 1)";
  let description = [{
    An image in one of the 36 pixel formats of the NVDLA pixel-format table,
    pitch linear. The tensor is NCHW with N = 1 and C = the format's channel
    count (R, G, B, A/X or Y, U, V, A order); the element type is an integer
    of the component width (8 or 16 bits, either signedness) or f16 for the
    float formats. `line_stride` (bytes, 32-byte aligned) defaults to
    roundup((W + x_offset) x bytes per pixel, 32); `x_offset` (pixels) must
    lie in the format's range. Semi-planar (N444) formats have a second
    (UV) plane with `uv_line_stride` and `uv_offset`. `config = nv_small`
    aligns line strides to its 8-byte memory atom instead of 32 bytes.

    ```mlir
    tensor<1x4x224x224xui8, #dla.pixel<T_A8B8G8R8>>
    tensor<1x3x16x16xui8, #dla.pixel<T_Y8___U8V8_N444, line_stride = 64, x_offset = 2>>
    ```
  }];
  let parameters = (ins DLA_NvPixelFormatParameter:$format,
                        DLA_OptionalBytes:$line_stride,
                        OptionalParameter<"std::optional<int64_t>", "pixels">:$x_offset,
                        DLA_OptionalBytes:$uv_line_stride,
                        DLA_OptionalBytes:$uv_offset,
                        DLA_NvConfigParameter:$config);
  let firstKeyword = 1;
  let assemblyFormat = "`<` $format (`,` " # structParams # "^)? `>`";
}

def DLA_BiasAttr : DLA_NvdlaEncoding<"Bias", "bias", "{}", ["getBatchInputs"]> {
  let summary = "NVDLA bias data";
  let description = [{
    Bias per layer (`tensor<T>`), per channel (`tensor<CxT>`) or per element
    (`tensor<CxHxWxT>` or `tensor<NxCxHxWxT>`, feature-data order). The
    precision is the SDP's processing precision; `data_size` (`one_byte` or
    `two_byte`) defaults to the precision's width; int8 data in `two_byte`
    storage is sign-extended. Per-element data take optional strides.
    `config = nv_small` (also on `#dla.prelu`, `#dla.batchnorm` and
    `#dla.eltwise`) sizes atoms and alignments by nv_small's 8-byte memory
    atom (8 int8 or 4 two-byte elements per atom).

    ```mlir
    tensor<64xi16, #dla.bias<per_channel, int16>>
    tensor<64x28x28xi8, #dla.bias<per_element, int8, data_size = two_byte>>
    ```
  }];
  let parameters = (ins DLA_NvAuxModeParameter:$mode,
                        DLA_NvPrecisionParameter:$precision,
                        DLA_OptionalDataSize:$data_size,
                        DLA_OptionalBytes:$line_stride,
                        DLA_OptionalBytes:$surface_stride,
                        DLA_OptionalBytes:$batch_stride,
                        DLA_NvConfigParameter:$config);
  let firstKeyword = 2;
  let assemblyFormat = "`<` $mode `,` $precision (`,` " # structParams # "^)? `>`";
}

def DLA_PReLUAttr : DLA_NvdlaEncoding<"PReLU", "prelu"> {
  let summary = "NVDLA PReLU data (per channel)";
  let description = [{
    One slope per channel, `tensor<CxT>`, stored as a continuous 1x1xC run.

    ```mlir
    tensor<64xi8, #dla.prelu<int8>>
    tensor<64xi8, #dla.prelu<int8, data_size = two_byte>>
    ```
  }];
  let parameters = (ins DLA_NvPrecisionParameter:$precision,
                        DLA_OptionalDataSize:$data_size,
                        DLA_NvConfigParameter:$config);
  let firstKeyword = 1;
  let assemblyFormat = "`<` $precision (`,` " # structParams # "^)? `>`";
}

def DLA_BatchNormAttr : DLA_NvdlaEncoding<"BatchNorm", "batchnorm"> {
  let summary = "NVDLA batch-normalization data";
  let description = [{
    Two components per channel, the add and the multiply operand, stored
    interleaved (add0, mul0, add1, mul1, ...): per channel `tensor<Cx2xT>`
    (`[c][0]` add, `[c][1]` mul), per layer `tensor<2xT>`.

    ```mlir
    tensor<64x2xf16, #dla.batchnorm<per_channel, fp16>>
    ```
  }];
  let parameters = (ins DLA_NvAuxModeParameter:$mode,
                        DLA_NvPrecisionParameter:$precision,
                        DLA_OptionalDataSize:$data_size,
                        DLA_NvConfigParameter:$config);
  let firstKeyword = 2;
  let assemblyFormat = "`<` $mode `,` $precision (`,` " # structParams # "^)? `>`";
}

def DLA_EltwiseAttr : DLA_NvdlaEncoding<"Eltwise", "eltwise", "{}", ["getBatchInputs"]> {
  let summary = "NVDLA element-wise data (per element)";
  let description = [{
    Per-element operand of the SDP's ALU or multiplier (`components = 1`,
    the default: `tensor<CxHxWxT>` or `tensor<NxCxHxWxT>`), or of both
    (`components = 2`: a trailing dimension of 2, ALU before MUL), in the
    feature-data order. Total size aligned to 32 bytes (the memory atom:
    8 on nv_small).

    ```mlir
    tensor<16x8x8xi8, #dla.eltwise<int8>>
    tensor<16x8x8x2xi8, #dla.eltwise<int8, components = 2>>
    ```
  }];
  let parameters = (ins DLA_NvPrecisionParameter:$precision,
                        OptionalParameter<"std::optional<int64_t>", "1 or 2">:$components,
                        DLA_OptionalDataSize:$data_size,
                        DLA_OptionalBytes:$line_stride,
                        DLA_OptionalBytes:$surface_stride,
                        DLA_OptionalBytes:$batch_stride,
                        DLA_NvConfigParameter:$config);
  let firstKeyword = 1;
  let assemblyFormat = "`<` $precision (`,` " # structParams # "^)? `>`";
  let genVerifyDecl = 1;
}

def DLA_WeightAttr : DLA_Attr<"Weight", "weight", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
    DeclareAttrInterfaceMethods<DLA_LayoutEncodingAttr, ["getConstantPacker"]>]> {
  let summary = "NVDLA convolution weights (logical KCRS)";
  let description = [{
    Weights of an NVDLA convolution, logical KCRS (kernels, channels, rows,
    columns), element type i8 / i16 / f16 for int8 / int16 / fp16:

    - `direct`: kernel groups (atomic-K, or atomic-K / 2 for 2-byte data) x
      channel blocks (atomic-C) x R x S x kernels x channels; no gaps, zero
      padding only at the end, to the weight-buffer entry width.
    - `image`: channels zero-padded to the pixel format's count
      (`channels = N`), pre-extended (K x S*C x R x 1), then direct;
      optional `post_extension = 2 | 4 | auto` (NVIDIA's selection rule,
      using `stride`).
    - `winograd`: 3x3 after channel extension (`stride = N` extends
      channels), G g G^T in fp32, converted once with `rounding`; 4x4x4
      cubes.
      int8 / int16 Winograd weights may state a `scale` (positive, finite):
      the stored taps are then `sat(round(G g G^T / scale))`, the transform
      in fp32, the quotient in double, rounded half away from zero once (the
      project's semantics: NVIDIA's compiler has no integer Winograd). An
      f32 constant may be relayouted straight into them (as into fp16
      Winograd weights); the convolution's sum is then about
      `conv(x, g) / scale`, as a direct convolution's with int8 weights
      `round(g / scale)`. Without a scale, integer taps are `round(G g G^T)`
      of the integer weights.
    - `deconv`: `stride = [sy, sx]` weight sets, each a direct stream with R
      and S reversed, each 256-byte aligned.

    `rounding` is how fp32 values become fp16 weights: `to_nearest_away`,
    the default (not printed), rounds ties away from zero as NVIDIA's
    compiler does (nvdla/sw half.h's `half(float)`, in every weight format),
    so an f32 constant packs to NVIDIA's bytes; `to_nearest_even` is IEEE's
    ties to even. It applies to fp16 weights only.

    `compressed` adds sparse compression: three surfaces (WGS, WMB, data),
    held by `dla.weight_constant` once packed. `config = nv_full` (default),
    `nv_large` or `nv_small` selects the hardware's atomic sizes.

    ```mlir
    tensor<64x32x3x3xi8, #dla.weight<direct, int8>>
    tensor<64x3x7x7xi8, #dla.weight<image, int8, channels = 4, post_extension = 2>>
    tensor<64x64x3x3xf16, #dla.weight<winograd, fp16, rounding = to_nearest_even>>
    tensor<64x64x3x3xi8, #dla.weight<winograd, int8, scale = 0.0078125>>
    tensor<32x16x4x4xf16, #dla.weight<deconv, fp16, stride = [2, 2]>>
    tensor<64x64x3x3xi8, #dla.weight<direct, int8, config = nv_small>>
    ```
  }];
  let parameters = (ins
    "::dlaformat::nvdla::WeightFormat":$format,
    "::dlaformat::nvdla::Precision":$precision,
    "bool":$compressed,
    "std::optional<int64_t>":$channels,
    "::dlaformat::nvdla::PostExtension":$post_extension,
    "int64_t":$stride_y,
    "int64_t":$stride_x,
    "::dlaformat::nvdla::HardwareKind":$config,
    "::dlaformat::Fp16Rounding":$rounding,
    APFloatParameter<"Winograd int8 / int16 taps' scale (0: none)">:$scale);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The format library's description of these weights for a KCRS shape.
    ::dlaformat::nvdla::WeightParams getParams(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

#endif // DLA_NVDLA_ATTRS_TD
