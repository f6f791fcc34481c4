//===- LayerOpUtils.h - Precisions of NVDLA layer ops -----------*- C++ -*-===//
#ifndef DLA_DIALECT_DLA_IR_LAYEROPUTILS_H
#define DLA_DIALECT_DLA_IR_LAYEROPUTILS_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/NvdlaPerformance.h"
#include "dla/Format/NvdlaRegisters.h"

#include <optional>

namespace mlir::dla {

/// The NVDLA precision an element type names: i8 int8, i16 int16, f16 fp16.
std::optional<::dlaformat::nvdla::Precision> getPrecision(Type elementType);
/// The inverse: the element type that carries data of a precision.
Type getPrecisionType(MLIRContext *context, ::dlaformat::nvdla::Precision precision);

/// "<what> element type <t> is not an NVDLA precision (i8, i16 or f16)".
InFlightDiagnostic emitNotAPrecision(Operation *op, StringRef what, Type elementType);

/// The precision question of a layer that reads feature data `input` and
/// writes `output` (PDP, CDP, an offline SDP): `make` names its table.
FailureOr<::dlaformat::nvdla::ConversionQuery>
getFeatureQuery(Operation *op, Value input, Value output,
                ::dlaformat::nvdla::ConversionQuery (*make)(::dlaformat::nvdla::InputKind,
                                                            ::dlaformat::nvdla::Precision));

/// The SDP's output converter `cvt` (may be null) on a layer from `input` to
/// `output`: integer pipelines with integer results only, every register in
/// its range (dla/Format/NvdlaRegisters.h).
LogicalResult verifySdpOutputConverter(Operation *op, CvtAttr cvt, RankedTensorType input,
                                       RankedTensorType output);

/// `value` of the register `field` at IR path `path` (`bs.alu_shift`) within
/// the field's range, else the message of docs/IntegerAttributes.md
/// ("<path> = <v> is outside <lo>..<hi> (<REGISTER>: <why>)"); `registerName`
/// overrides the field's name (a stage prefix added).
LogicalResult verifyRegisterField(Operation *op, const Twine &path, int64_t value,
                                  const ::dlaformat::nvdla::RegisterField &field,
                                  StringRef registerName = {});

/// A window's kernel [h, w], strides [h, w] and padding [top, bottom,
/// left, right] within `fields` (kernel[0], stride[1], pad[2], ... in
/// verifyRegisterField's message).
LogicalResult verifyWindowRegisters(Operation *op, ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                                    const ::dlaformat::nvdla::WindowFields &fields);

/// dla.sdp's stage form (bs, bn, ew): integer pipelines, register ranges,
/// memory operands bound by name, the target's stages. Succeeds on the
/// implicit form.
LogicalResult verifySdpStages(SdpOp op);
/// dla.sdp's memory operand `mem` (null when absent).
Value getSdpMemoryOperand(SdpOp op, ::dlaformat::nvdla::SdpMemOperand mem);

/// Element-wise layers (SDP, CDP): the output has the input's shape.
LogicalResult verifyElementwiseShape(Operation *op, RankedTensorType input,
                                     RankedTensorType output);

/// What the convolution buffer needs to plan `conv` as a `mode` convolution
/// (logical shapes: encodings do not change them), or nullopt when a shape
/// is dynamic or the weights' element type names no precision.
std::optional<::dlaformat::nvdla::ConvBufferQuery>
getConvBufferQuery(ConvOp conv, ::dlaformat::nvdla::ConvMode mode);

/// The performance model's layer of `conv` (its shapes and the weight
/// banks it records; the SDP after it is not part of it), or nullopt when
/// they are not static.
std::optional<::dlaformat::nvdla::PerfLayer> getConvPerfLayer(ConvOp conv);

/// The precision `conv`'s weights compute in (int8, int16, else fp16).
::dlaformat::nvdla::Precision getConvWeightPrecision(ConvOp conv);

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_LAYEROPUTILS_H
