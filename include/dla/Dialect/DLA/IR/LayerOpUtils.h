//===- LayerOpUtils.h - Precisions of NVDLA layer ops -----------*- C++ -*-===//
#ifndef DLA_DIALECT_DLA_IR_LAYEROPUTILS_H
#define DLA_DIALECT_DLA_IR_LAYEROPUTILS_H

#include "dla/Dialect/DLA/IR/DLA.h"

#include <optional>

namespace mlir::dla {

/// The NVDLA precision an element type names: i8 int8, i16 int16, f16 fp16.
std::optional<::dlaformat::nvdla::Precision> getPrecision(Type elementType);
/// The inverse: the element type that carries data of a precision.
Type getPrecisionType(MLIRContext *context, ::dlaformat::nvdla::Precision precision);

/// "<what> element type <t> is not an NVDLA precision (i8, i16 or f16)".
InFlightDiagnostic emitNotAPrecision(Operation *op, StringRef what, Type elementType);

/// The verifiers of the layer ops on their logical tensor types (a null
/// type: the operand is absent), shared by the tensor form (dla.conv, ...)
/// and the storage-view form (dla.buffer.conv, ...).
LogicalResult verifyConvTypes(Operation *op, ::dlaformat::nvdla::ConvMode mode,
                              RankedTensorType input, RankedTensorType weight,
                              RankedTensorType bias, RankedTensorType output,
                              ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                              ArrayRef<int64_t> dilations);
LogicalResult verifySdpTypes(Operation *op, RankedTensorType input, RankedTensorType bias,
                             RankedTensorType batchnorm, RankedTensorType eltwise,
                             RankedTensorType prelu, RankedTensorType output, bool relu);
LogicalResult verifyPoolTypes(Operation *op, RankedTensorType input, RankedTensorType output,
                              ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> padding);
LogicalResult verifyLrnTypes(Operation *op, RankedTensorType input, RankedTensorType output,
                             int64_t size);

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_LAYEROPUTILS_H
