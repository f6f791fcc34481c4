//===- DLAUpsampleOp.td - Nearest upsampling on the SDP ----*- tablegen -*-===//
#ifndef DLA_UPSAMPLE_OP_TD
#define DLA_UPSAMPLE_OP_TD

include "dla/Dialect/DLA/IR/DLALayerOps.td"

def DLA_UpsampleOp : DLA_LayerOp<"upsample"> {
  let summary = "Nearest upsampling by integer factors, with a replicated border, on the NVDLA SDP";
  let description = [{
    `output[n, c, y, x] = input[n, c, y / fy, x / fx]` (integer division):
    each input pixel repeated `factors = [fy, fx]` times down and across,
    ONNX's Resize in `nearest` mode with integer scales (asymmetric
    coordinates, floor). Logical NCHW; the output's H and W are the
    input's times the factors, everything else equal; no precision
    conversion.

    With `border [by, bx]` the output has `by` more rows above and below
    and `bx` more columns left and right, each reading the clamped source
    index: `output[n, c, y, x] = input[n, c, clamp((y - by) floordiv fy),
    clamp((x - bx) floordiv fx)]`, output H = H fy + 2 by, W = W fx + 2 bx.
    The edge replication a bilinear resize needs before its depthwise
    convolution (docs/Resize.md "Bilinear").

    It runs as offline SDP passes with every stage bypassed, one per
    channel group and output phase (py, px), each reading the input with
    its pixels as lines and its rows as surfaces and writing every fx-th
    pixel of every fy-th row (docs/Resize.md).

    ```mlir
    %y = dla.upsample %x factors [2, 2] : tensor<1x16x8x8xi8> -> tensor<1x16x16x16xi8>
    %z = dla.upsample %x factors [2, 2] border [1, 1] : tensor<1x16x8x8xi8> -> tensor<1x16x18x18xi8>
    ```
  }];
  let arguments = (ins DLA_FeatureTensor:$input, DLA_PositivePair:$factors,
                       OptionalAttr<DLA_NonNegativePair>:$border,
                       OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let results = (outs DLA_FeatureTensor:$output);
  let assemblyFormat = [{
    $input `factors` $factors (`border` $border^)? attr-dict `:` type($input) `->` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Rows (index 0) or columns (1) added on each side; 0 without `border`.
    int64_t getBorderAt(unsigned axis) {
      return getBorder() ? (*getBorder())[axis] : 0;
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      auto in = getInput().getType(), out = getOutput().getType();
      if (in.getElementType() != out.getElementType())
        return emitOpError() << "copies values: the output element type must equal the "
                                "input's, got "
                             << in.getElementType() << " and " << out.getElementType();
      ::llvm::ArrayRef<int64_t> f = getFactors();
      for (int d = 0; d < 4; ++d) {
        int64_t factor = d < 2 ? 1 : f[d - 2];
        int64_t border = d < 2 ? 0 : getBorderAt(d - 2);
        if (in.isDynamicDim(d) || out.isDynamicDim(d))
          continue;
        if (out.getDimSize(d) != in.getDimSize(d) * factor + 2 * border) {
          auto diag = emitOpError() << "output dimension " << d << " must be "
                                    << (d < 2 ? "the input's"
                                              : border ? "the input's times the factor plus "
                                                         "twice the border"
                                                       : "the input's times the factor")
                                    << " (" << in.getDimSize(d) << " x " << factor;
          if (border)
            diag << " + 2 x " << border;
          return diag << " = " << in.getDimSize(d) * factor + 2 * border << "), got "
                      << out.getDimSize(d);
        }
      }
      return ::mlir::success();
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

#endif // DLA_UPSAMPLE_OP_TD
