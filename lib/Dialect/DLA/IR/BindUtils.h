//===- BindUtils.h - Shared plumbing of encoding bind / verify --*- C++ -*-===//
#ifndef DLA_LIB_DIALECT_DLA_IR_BINDUTILS_H
#define DLA_LIB_DIALECT_DLA_IR_BINDUTILS_H

#include "dla/Dialect/DLA/IR/DLA.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::dla::detail {

using BoundPtr = std::unique_ptr<::dlaformat::BoundLayout>;

/// The interface's answer from a format-library bind result: the layout, or
/// a diagnostic naming the encoding and the tensor.
template <typename T>
FailureOr<BoundPtr> finishBind(Attribute encoding, ArrayRef<int64_t> shape, Type elementType,
                               function_ref<InFlightDiagnostic()> emitError,
                               ::dlaformat::Expected<std::unique_ptr<T>> bound) {
  if (!bound)
    return emitError() << encoding << " cannot lay out "
                       << RankedTensorType::get(shape, elementType) << ": " << bound.message();
  return BoundPtr(std::move(*bound));
}

/// The first step of every dla encoding's verifyEncoding, before anything
/// reads the element type: MLIR's tensor parser verifies the encoding before
/// it checks that an element type was parsed at all (`tensor<, #enc>` hands
/// over a null type), so the null type is stopped here, once.
inline LogicalResult verifyElementTypePresent(Attribute encoding, Type elementType,
                                              function_ref<InFlightDiagnostic()> emitError) {
  if (elementType)
    return success();
  return emitError() << "tensor with encoding " << encoding << " has no element type";
}

/// verifyEncoding for encodings whose element-type rule is `checkElement`:
/// sizes and strides are checked by binding once the shape is static.
template <typename AttrT>
LogicalResult verifyByBinding(AttrT attr, ArrayRef<int64_t> shape, Type elementType,
                              function_ref<InFlightDiagnostic()> emitError) {
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return success();
  return attr.bind(shape, elementType, emitError);
}

} // namespace mlir::dla::detail

#endif // DLA_LIB_DIALECT_DLA_IR_BINDUTILS_H
