//===- StorageTypes.cpp - Memref types of an encoding's storage -----------===//
//
// The memref types a lowered tensor has, read from the format library's
// StorageDescription (no layout formula here): what dla.on_storage verifies
// its buffers against, what --dla-lower-to-memref makes, and the views a
// backend reads through.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/StorageDescription.h"

using namespace mlir;
namespace fmt = ::dlaformat;

Type mlir::dla::getStorageViewElementType(const fmt::StorageView &view, Type logicalElement) {
  if (view.fields.empty() &&
      view.elementBytes * 8 == static_cast<int64_t>(logicalElement.getIntOrFloatBitWidth()))
    return logicalElement;
  return IntegerType::get(logicalElement.getContext(), view.elementBytes * 8);
}

MemRefType mlir::dla::getStorageViewType(const fmt::StorageView &view, Type logicalElement) {
  SmallVector<int64_t> sizes, strides;
  for (const fmt::StridedView::Dim &d : view.view.dims) {
    sizes.push_back(d.extent);
    strides.push_back(d.stride);
  }
  auto layout = StridedLayoutAttr::get(logicalElement.getContext(), view.view.offset, strides);
  return MemRefType::get(sizes, getStorageViewElementType(view, logicalElement), layout);
}

FailureOr<SmallVector<MemRefType>>
mlir::dla::getStorageMemRefTypes(RankedTensorType type,
                                 function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<MemRefType> buffer = getStorageBufferType(type, emitError);
  if (failed(buffer))
    return failure();
  if (!type.getEncoding())
    return SmallVector<MemRefType>{*buffer};
  fmt::StorageDescription desc = *cast<LayoutEncodingAttr>(type.getEncoding())
                                      .getStorageDescription(type.getShape(),
                                                             type.getElementType(), emitError);
  if (desc.views.empty())
    return SmallVector<MemRefType>{*buffer};
  SmallVector<MemRefType> types;
  for (const fmt::StorageView &v : desc.views)
    types.push_back(getStorageViewType(v, type.getElementType()));
  return types;
}

FailureOr<MemRefType>
mlir::dla::getStorageBufferType(RankedTensorType type,
                                function_ref<InFlightDiagnostic()> emitError) {
  if (!type.hasStaticShape())
    return emitError() << "storage of " << type << " needs a static shape";
  if (!type.getEncoding())
    return MemRefType::get(type.getShape(), type.getElementType());
  auto enc = dyn_cast<LayoutEncodingAttr>(type.getEncoding());
  if (!enc)
    return emitError() << type << " has an encoding that is no dla layout";
  FailureOr<fmt::StorageDescription> desc =
      enc.getStorageDescription(type.getShape(), type.getElementType(), emitError);
  if (failed(desc))
    return failure();
  if (desc->buffers.size() != 1 || desc->buffers.front().bytes < 0)
    return emitError() << type << " has no storage type (its buffers depend on the values)";
  return MemRefType::get({desc->buffers.front().bytes}, IntegerType::get(type.getContext(), 8));
}

unsigned mlir::dla::getDataDependentSurfaceCount(RankedTensorType type) {
  auto enc = dyn_cast_or_null<LayoutEncodingAttr>(type.getEncoding());
  if (!enc || !type.hasStaticShape())
    return 0;
  FailureOr<fmt::StorageDescription> desc = enc.getStorageDescription(
      type.getShape(), type.getElementType(), [] { return InFlightDiagnostic(); });
  if (failed(desc) || llvm::none_of(desc->buffers, [](auto &b) { return b.bytes < 0; }))
    return 0;
  return desc->buffers.size();
}
