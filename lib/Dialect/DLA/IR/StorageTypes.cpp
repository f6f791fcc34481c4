//===- StorageTypes.cpp - Memref types of an encoding's storage -----------===//
//
// The memref types a lowered tensor has, read from the format library's
// StorageDescription (no layout formula here): what the storage-view layer
// ops verify their operands against and what --dla-lower-to-memref makes.
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
  if (!type.hasStaticShape())
    return emitError() << "storage of " << type << " needs a static shape";
  Type elem = type.getElementType();
  if (!type.getEncoding())
    return SmallVector<MemRefType>{MemRefType::get(type.getShape(), elem)};
  auto enc = dyn_cast<LayoutEncodingAttr>(type.getEncoding());
  if (!enc)
    return emitError() << type << " has an encoding that is no dla layout";
  FailureOr<fmt::StorageDescription> described =
      enc.getStorageDescription(type.getShape(), elem, emitError);
  if (failed(described))
    return failure();
  const fmt::StorageDescription &desc = *described;
  if (desc.buffers.size() != 1 || desc.buffers.front().bytes < 0)
    return emitError() << type << " has no storage type (its buffers depend on the values)";
  SmallVector<MemRefType> types;
  if (desc.views.empty()) {
    types.push_back(
        MemRefType::get({desc.buffers.front().bytes}, IntegerType::get(type.getContext(), 8)));
    return types;
  }
  for (const fmt::StorageView &v : desc.views)
    types.push_back(getStorageViewType(v, elem));
  return types;
}
