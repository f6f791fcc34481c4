//===- DLAInterleaveOp.td - Pixel shuffle on the SDP -------*- tablegen -*-===//
#ifndef DLA_INTERLEAVE_OP_TD
#define DLA_INTERLEAVE_OP_TD

include "dla/Dialect/DLA/IR/DLALayerOps.td"

def DLA_InterleaveOp : DLA_LayerOp<"interleave"> {
  let summary = "Interleaves fy x fx phase maps into one map (a pixel shuffle) on the NVDLA SDP";
  let description = [{
    `output[n, c, y fy + py, x fx + px] = phase[py fx + px][n, c, y, x]`
    for `factors = [fy, fx]` and every output position: the inputs are the
    fy x fx phases of the output, row-major by (py, px), all of one type;
    the output's H and W are theirs times the factors, or less by up to
    a factor - 1 (the last rows and columns of some phases are then not
    written: a crop at the end), everything else equal; no precision
    conversion. A transposed convolution of stride [fy, fx] is fy x fx
    convolutions, one per output phase, and this op (the pixel shuffle
    TOSA writes as reshape, transpose, reshape; docs/Resize.md "Pixel
    shuffles").

    It runs as `dla.upsample` runs, as offline SDP passes with every stage
    bypassed, one per channel group and phase, each writing every fx-th
    pixel of every fy-th row; phase (py, px) reads its own input.

    ```mlir
    %y = dla.interleave %p0, %p1, %p2, %p3 factors [2, 2]
        : tensor<1x16x8x8xi8>, tensor<1x16x8x8xi8>, tensor<1x16x8x8xi8>, tensor<1x16x8x8xi8>
        -> tensor<1x16x16x16xi8>
    ```
  }];
  let arguments = (ins Variadic<DLA_FeatureTensor>:$inputs, DLA_PositivePair:$factors,
                       OptionalAttr<DLA_PipelinePrecisionAttr>:$pipeline_precision);
  let results = (outs DLA_FeatureTensor:$output);
  let assemblyFormat = [{
    $inputs `factors` $factors attr-dict `:` type($inputs) `->` type($output)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The input of output phase (py, px): rows py, py + fy, ... and
    /// columns px, px + fx, ... of the output.
    ::mlir::Value getPhase(int64_t py, int64_t px) {
      return getInputs()[py * getFactors()[1] + px];
    }
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      ::llvm::ArrayRef<int64_t> f = getFactors();
      const int64_t phases = f[0] * f[1];
      if (static_cast<int64_t>(getInputs().size()) != phases)
        return emitOpError() << "takes one input per output phase: factors [" << f[0] << ", "
                             << f[1] << "] need " << phases
                             << (phases == 1 ? " input" : " inputs") << ", got "
                             << getInputs().size();
      auto first = ::llvm::cast<::mlir::RankedTensorType>(getInputs()[0].getType());
      for (auto [i, v] : ::llvm::enumerate(getInputs())) {
        auto type = ::llvm::cast<::mlir::RankedTensorType>(v.getType());
        if (type.getShape() != first.getShape() ||
            type.getElementType() != first.getElementType())
          return emitOpError() << "phase " << i << " must have phase 0's shape and element "
                                  "type, got "
                               << type << " and " << first;
      }
      auto out = getOutput().getType();
      if (out.getElementType() != first.getElementType())
        return emitOpError() << "copies values: the output element type must equal the "
                                "inputs', got "
                             << first.getElementType() << " and " << out.getElementType();
      for (int d = 0; d < 4; ++d) {
        const int64_t factor = d < 2 ? 1 : f[d - 2];
        if (first.isDynamicDim(d) || out.isDynamicDim(d))
          continue;
        // Every phase writes at least its first H - 1 rows (W - 1 columns).
        const int64_t most = first.getDimSize(d) * factor, least = most - factor + 1;
        if (out.getDimSize(d) > most || out.getDimSize(d) < least) {
          auto diag = emitOpError() << "output dimension " << d << " must be ";
          if (d < 2)
            return diag << "the inputs' (" << most << "), got " << out.getDimSize(d);
          diag << "the inputs' times the factor";
          if (factor > 1)
            diag << ", less at most factor - 1";
          diag << " (" << first.getDimSize(d) << " x " << factor << " = " << most;
          if (factor > 1)
            diag << ": " << least << " to " << most;
          return diag << "), got " << out.getDimSize(d);
        }
      }
      return ::mlir::success();
    }
    ::llvm::FailureOr<::dlaformat::nvdla::ConversionQuery> $cppClass::getConversionQuery() {
      return ::mlir::dla::getFeatureQuery(*this, getInputs()[0], getOutput(),
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

#endif // DLA_INTERLEAVE_OP_TD
