//===- DLA.h - The dla dialect: dialect, interfaces, encodings, ops -------===//
#ifndef DLA_DIALECT_DLA_IR_DLA_H
#define DLA_DIALECT_DLA_IR_DLA_H

#include "dla/Format/BoundLayout.h"
#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/ConstantPacker.h"
#include "dla/Format/NvdlaWeight.h"
#include "dla/Format/NvdlaConversion.h"
#include "dla/Format/Target.h"
#include "dla/Dialect/DLA/IR/LayoutVariant.h"
#include "dla/Dialect/DLA/IR/FormatEnums.h"
#include "dla/Dialect/DLA/IR/LayerOperandRole.h"
#include "dla/Dialect/DLA/IR/SdpOperand.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <memory>

namespace mlir::dla {
/// Records a valid conversion's real precision in the pipeline as the op's
/// `pipeline_precision` (PrecisionConversionOpInterface's default).
void recordPipelinePrecision(Operation *op, const ::dlaformat::nvdla::ConversionVerdict &verdict);
} // namespace mlir::dla

#include "dla/Dialect/DLA/IR/DLADialect.h.inc"
#include "dla/Dialect/DLA/IR/DLAEnums.h.inc"
#include "dla/Dialect/DLA/IR/DLAInterfaces.h.inc"
#include "dla/Dialect/DLA/IR/DLAOpInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dla/Dialect/DLA/IR/DLAAttrs.h.inc"

#define GET_OP_CLASSES
#include "dla/Dialect/DLA/IR/DLAOps.h.inc"

namespace mlir::dla {

/// A layer op or a channel view: an op whose result is feature data in the
/// accelerator's memory, written by a unit or shared with another's.
inline bool isLayerOrView(Operation *op) {
  return isa_and_nonnull<LayerOpInterface, ChannelViewOpInterface>(op);
}

/// Bytes one element of integer or floating-point type `type` occupies in
/// storage: ceil(bitwidth / 8). The one place that rounds bits to bytes.
int64_t getElementBytes(Type type);

/// getElementBytes, with a diagnostic for other types.
FailureOr<int64_t> getStorageElementBytes(Type type,
                                          function_ref<InFlightDiagnostic()> emitError);

/// The layout of a ranked tensor type: its encoding's, or row-major when it
/// has none. Fails with a diagnostic for foreign encodings and unbindable
/// shapes.
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>>
bindTensorLayout(RankedTensorType type, function_ref<InFlightDiagnostic()> emitError);

/// Where channel `firstChannel` of `parent` starts in its storage, in
/// bytes: the offset of a dla.channel_slice / dla.channel_concat view
/// (whole surfaces of NVDLA feature data); 0 without a feature encoding.
int64_t getChannelViewByteOffset(RankedTensorType parent, int64_t firstChannel);

/// `source` (a [1, C, H, W] map) in the feature encoding under which it is
/// the direct weight stream of H x W 1x1 kernels on `config`
/// (dla.as_weights; the format library's NvdlaWeightStream.h), or an error
/// saying why none is.
FailureOr<RankedTensorType>
getWeightStreamType(RankedTensorType source, ::dlaformat::nvdla::HardwareKind config,
                    function_ref<InFlightDiagnostic()> emitError);

/// True for no encoding or a `dla` layout encoding.
bool isLayoutEncodingOrNone(Attribute encoding);

/// The element type of storage view `view` of a tensor whose elements are
/// `logicalElement`: the logical type, or the integer storage word when the
/// view widens elements or packs bit fields.
Type getStorageViewElementType(const ::dlaformat::StorageView &view, Type logicalElement);

/// The memref type of storage view `view`: its extents, with its strides
/// and offset (in storage elements) as a strided layout.
MemRefType getStorageViewType(const ::dlaformat::StorageView &view, Type logicalElement);

/// The buffer that holds a tensor of `type` after --dla-lower-to-memref (a
/// dla.on_storage operand): memref<BYTES x i8> for an encoded tensor, the
/// row-major memref without encoding. Fails with a diagnostic for shapes
/// that do not bind and storage that depends on the data (compressed
/// weights).
FailureOr<MemRefType> getStorageBufferType(RankedTensorType type,
                                           function_ref<InFlightDiagnostic()> emitError);

/// Whether `op` relayouts f32 weights straight into Winograd fp16 weights,
/// or int8 / int16 ones with a scale (the relayouts that change the element
/// type: the stored taps are G g G^T of the f32 weights, divided by the
/// scale for integers, rounded once).
bool isF32ToWinograd(RelayoutOp op);

/// The number of surfaces that hold a tensor of `type` whose storage depends
/// on the values (compressed weights: WGS, WMB, data, each a
/// memref<BYTES x i8> sized by the data), or 0 for every other type (one
/// buffer, getStorageBufferType).
unsigned getDataDependentSurfaceCount(RankedTensorType type);

/// The typed views a backend reads a tensor of `type` through: the strided views
/// of its encoding's StorageDescription; for a layout with no strided view
/// (NVDLA weights) its storage bytes memref<BYTES x i8>; without an
/// encoding, the row-major memref. Fails with a diagnostic for shapes that
/// do not bind and storage that depends on the data (compressed weights).
FailureOr<SmallVector<MemRefType>>
getStorageMemRefTypes(RankedTensorType type, function_ref<InFlightDiagnostic()> emitError);

/// The layer ops that run as one hardware layer with `op` (a convolution and
/// the SDP fused to it through getFusedProducer), producers first; `op`
/// alone when nothing is fused to it.
SmallVector<Operation *> getHardwareLayer(LayerOpInterface op);

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_DLA_H
