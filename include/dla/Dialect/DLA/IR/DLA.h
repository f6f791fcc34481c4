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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <memory>

#include "dla/Dialect/DLA/IR/DLADialect.h.inc"
#include "dla/Dialect/DLA/IR/DLAEnums.h.inc"
#include "dla/Dialect/DLA/IR/DLAInterfaces.h.inc"
#include "dla/Dialect/DLA/IR/DLAOpInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dla/Dialect/DLA/IR/DLAAttrs.h.inc"

#define GET_OP_CLASSES
#include "dla/Dialect/DLA/IR/DLAOps.h.inc"

namespace mlir::dla {

/// Bytes one element of `type` occupies in storage: ceil(bitwidth / 8) for
/// integer and floating-point types. Fails with a diagnostic otherwise.
FailureOr<int64_t> getStorageElementBytes(Type type,
                                          function_ref<InFlightDiagnostic()> emitError);

/// The layout of a ranked tensor type: its encoding's, or row-major when it
/// has none. Fails with a diagnostic for foreign encodings and unbindable
/// shapes.
FailureOr<std::unique_ptr<::dlaformat::BoundLayout>>
bindTensorLayout(RankedTensorType type, function_ref<InFlightDiagnostic()> emitError);

/// True for no encoding or a `dla` layout encoding.
bool isLayoutEncodingOrNone(Attribute encoding);

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_DLA_H
