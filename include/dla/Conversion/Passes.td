//===- Passes.td - Conversions into the dla dialect --------*- tablegen -*-===//
#ifndef DLA_CONVERSION_PASSES_TD
#define DLA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def DLAConvertTosa : Pass<"dla-convert-tosa", "::mlir::ModuleOp"> {
  let summary = "Offload the TOSA operations an NVDLA target runs to dla layer ops";
  let description = [{
    Rewrites the TOSA operations of a network that the NVDLA target can run
    into `dla` layer ops and leaves everything else in TOSA for the host:

    | TOSA | dla |
    |---|---|
    | `tosa.conv2d` (constant weight) | `dla.conv direct` (bias included) |
    | `tosa.depthwise_conv2d` (constant weight) | one `dla.conv direct` per channel group |
    | `tosa.max_pool2d`, `tosa.avg_pool2d` (no padding) | `dla.pool max` / `average`; a window the PDP cannot hold (kernel above 8, padding above 7) as a chain of them, with a remark |
    | `tosa.clamp` to [0, +inf) (ReLU) | `dla.sdp ... relu` |
    | `tosa.clamp` to other bounds (ReLU6, hard-sigmoid, integer clamps) | `dla.clamp` |
    | `tosa.rescale` of an integer convolution or of a sum of two rescaled maps | the SDP's stage program (below) |
    | `tosa.add` of two feature maps | `dla.sdp ... eltwise` |
    | `tosa.add` of a per-channel constant | `dla.sdp ... bias` |
    | `tosa.mul` by a per-channel constant, optionally followed by `tosa.add` of one | `dla.sdp ... batchnorm` |

    TOSA is NHWC with OHWI weights; the layer ops are NCHW with KCRS weights.
    Constant weights are transposed at compile time (a `dense_resource` blob,
    then `arith.truncf` to the target precision, which `--dla-pack-weights`
    fuses into packing). Activations get an explicit `tosa.transpose` and
    `tosa.cast` on each side of every layer op; the pass cancels the pairs
    that meet between two offloaded layers, so the transposes that survive
    mark the partition boundary, where layout assignment puts its
    relayouts. An SDP layer that reads a convolution's only result runs
    `on_the_fly`, and consecutive SDP stages merge into one layer.

    Quantized (integer) TOSA runs on an integer target: a `tosa.rescale` of
    a convolution's accumulator becomes its on-the-fly SDP program, of a sum
    of two rescaled maps an offline SDP; integer clamps `dla.clamp`
    (`docs/IntegerAttributes.md` decision 19).

    With `summary=true` a remark on the module counts the layers on the
    accelerator and on the host and the share of multiply-accumulates
    offloaded: `remark: dla-convert-tosa: 52 of 60 layers on nv_small int8
    (99.1% of the multiply-accumulates); 8 stay on the host`.

    What the target cannot run stays in TOSA with a remark that says why,
    e.g. `remark: stays on the host: no NVDLA layer computes tosa.exp`.
    No layer it writes exceeds a register field
    (`dla/Format/NvdlaRegisters.h`; docs/IntegerAttributes.md decision 20).
    Legality comes from the precision-conversion tables of the format
    library (`dla/Format/NvdlaConversion.h`).

    ```mlir
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>,
        pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>)
        -> tensor<1x8x8x4xf32>
    // becomes
    %t = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : ... -> tensor<1x3x8x8xf32>
    %h = tosa.cast %t : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf16>
    %c = dla.conv direct %h, %wk, %bk stride [1, 1] pad [1, 1, 1, 1]
        : tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>, tensor<4xf16> -> tensor<1x4x8x8xf16>
    %f = tosa.cast %c : (tensor<1x4x8x8xf16>) -> tensor<1x4x8x8xf32>
    %y = tosa.transpose %f {perms = array<i32: 0, 2, 3, 1>} : ... -> tensor<1x8x8x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::dla::DLADialect",
    "::mlir::tosa::TosaDialect",
  ];
  let options = [
    Option<"targetOption", "target", "std::string", /*default=*/"\"\"",
           "NVDLA target (nv_full, nv_large, nv_small or nvdla:<config>); default: "
           "the module's dla.target, else nv_full. Recorded on the module as dla.target">,
    Option<"config", "config", "std::string", /*default=*/"\"\"",
           "Deprecated alias of target (warns)">,
    Option<"precision", "precision", "::dlaformat::nvdla::Precision",
           /*default=*/"::dlaformat::nvdla::Precision::Fp16",
           "Precision the offloaded layers compute in; floating-point networks "
           "offload only in fp16",
           "::mlir::dla::EnumTableValues<::dlaformat::nvdla::Precision>()">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Remark, on the module, how many layers (and what share of the "
           "multiply-accumulates) run on the accelerator">,
  ];
}

#endif // DLA_CONVERSION_PASSES_TD
