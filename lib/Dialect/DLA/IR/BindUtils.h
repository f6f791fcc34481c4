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

/// The rank an encoding lays out, and how messages name such tensors.
struct RankRule {
  int64_t rank = -1; ///< any: the binding decides
  StringRef what;
};

/// The verifier of every NVDLA encoding (DLA_NvdlaEncoding): an element
/// type, the rank, then the binding once the shape is static (sizes,
/// strides and element types are the format library's to check).
template <typename AttrT>
LogicalResult verifyEncodingByBinding(AttrT attr, ArrayRef<int64_t> shape, Type elementType,
                                      function_ref<InFlightDiagnostic()> emitError,
                                      RankRule rank) {
  if (failed(verifyElementTypePresent(attr, elementType, emitError)))
    return failure();
  if (rank.rank >= 0 && static_cast<int64_t>(shape.size()) != rank.rank)
    return emitError() << attr << " encodes rank-" << rank.rank << " " << rank.what
                       << ", got rank " << shape.size();
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return success();
  return attr.bind(shape, elementType, emitError);
}

} // namespace mlir::dla::detail

#endif // DLA_LIB_DIALECT_DLA_IR_BINDUTILS_H
