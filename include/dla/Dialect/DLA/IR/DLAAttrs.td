//===- DLAAttrs.td - Encodings of the dla dialect ----------*- tablegen -*-===//
#ifndef DLA_ATTRS_TD
#define DLA_ATTRS_TD

include "dla/Dialect/DLA/IR/DLADialect.td"
include "dla/Dialect/DLA/IR/DLAInterfaces.td"
include "mlir/IR/TensorEncoding.td"
include "dla/Dialect/DLA/IR/DLANvdlaAttrs.td"
include "dla/Dialect/DLA/IR/DLATargetAttr.td"
include "dla/Dialect/DLA/IR/DLARegisterAttrs.td"

def DLA_ChunkedAttr : DLA_Attr<"Chunked", "chunked", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
    DeclareAttrInterfaceMethods<DLA_LayoutEncodingAttr>]> {
  let summary = "Chunked (tiled) layout in the style of Hexagon HTP";
  let description = [{
    A chunked layout is a list of `(dim, size)` pairs, outermost first. Read
    right to left, each pair takes the next more significant part of the
    index of its dimension: `size > 0` is a tile of `size` positions, and
    `size = 0` is "all the rest" of the dimension. Each dimension is padded up
    to a multiple of the product of its tiles; padding holds zero. Every
    dimension has exactly one size-0 pair; the rank is the number of
    dimensions named.

    Presets (rank 4; activations are logical NHWC, `conv_weight` is logical
    (height, width, in-channels, out-channels)):

    | name          | pairs |
    |---------------|-------|
    | `flat`        | (0,0),(1,0),(2,0),(3,0) |
    | `nchw`        | (0,0),(3,0),(1,0),(2,0) |
    | `depth32`     | (0,0),(1,0),(3,0),(2,0),(2,4),(3,32) |
    | `crouton`     | (0,0),(1,0),(2,0),(3,0),(1,8),(2,8),(3,32) |
    | `crouton4x1`  | (0,0),(1,0),(2,0),(3,0),(1,8),(2,2),(3,32),(2,4) |
    | `crouton2x2`  | (0,0),(1,0),(2,0),(3,0),(1,4),(2,4),(3,32),(1,2),(2,2) |
    | `crouton2`    | (0,0),(1,0),(2,0),(3,0),(1,8),(2,2),(3,32),(2,2) |
    | `conv_weight` | (3,0),(2,0),(0,0),(1,0),(2,8),(3,32),(2,4) |

    An explicit list equal to a preset prints as the preset's name.

    Examples:

    ```mlir
    tensor<1x3x5x30xi8, #dla.chunked<crouton>>      // padded to 1x8x8x32
    tensor<1x3x5x30xi8, #dla.chunked<[(0,0),(1,0),(2,0),(3,0),(1,8),(2,8),(3,32)]>>
    tensor<3x3x64x96xf16, #dla.chunked<conv_weight>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "dimension of each pair, outermost first">:$dims,
    ArrayRefParameter<"int64_t", "size of each pair (0: all the rest)">:$sizes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::dlaformat::ChunkedLayout &":$layout)>,
  ];
  let extraClassDeclaration = [{
    /// Rank named by the pairs (largest dimension + 1).
    int64_t getRank() const;
    /// The format-library layout. Only valid on a verified attribute.
    ::dlaformat::ChunkedLayout getLayout() const;
    /// Same pairs as a preset?
    std::optional<::dlaformat::ChunkedPreset> getPreset() const;
  }];
}

#endif // DLA_ATTRS_TD
