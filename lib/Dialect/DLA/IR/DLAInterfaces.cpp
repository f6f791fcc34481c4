//===- DLAInterfaces.cpp - The layout encoding interface -----------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/CheckedMath.h"

using namespace mlir;
using namespace mlir::dla;

#include "dla/Dialect/DLA/IR/DLAInterfaces.cpp.inc"
#include "dla/Dialect/DLA/IR/DLAOpInterfaces.cpp.inc"

FailureOr<int64_t> LayoutEncodingAttr::getByteOffset(
    ArrayRef<int64_t> shape, Type elementType, ArrayRef<int64_t> index,
    function_ref<InFlightDiagnostic()> emitError) const {
  auto bound = bind(shape, elementType, emitError);
  if (failed(bound))
    return failure();
  auto offset = (*bound)->getByteOffset(index.vec());
  if (!offset)
    return emitError() << offset.message();
  return *offset;
}

FailureOr<::dlaformat::StorageDescription> LayoutEncodingAttr::getStorageDescription(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  // Storage that is not a layout (compressed weights, Winograd weights) is
  // known by its packer's surfaces; everything else by its bound layout.
  auto packer = getConstantPacker(shape, elementType, emitError);
  if (failed(packer))
    return failure();
  ::dlaformat::StorageSurfaces surfaces = (*packer)->getSurfaces();
  if (surfaces.holder == ::dlaformat::SurfaceHolder::CompressedWeights) {
    ::dlaformat::StorageDescription d;
    for (const std::string &name : surfaces.names)
      d.buffers.push_back({name, -1, (*packer)->getSurfaceAlignment()});
    return d;
  }
  if (std::optional<::dlaformat::StorageDescription> unbound =
          (*packer)->describeUnboundStorage())
    return *unbound;
  auto bound = bind(shape, elementType, emitError);
  if (failed(bound))
    return failure();
  return (*bound)->describeStorage();
}

FailureOr<::dlaformat::StridedView>
LayoutEncodingAttr::getStridedView(ArrayRef<int64_t> shape, Type elementType,
                                   function_ref<InFlightDiagnostic()> emitError) const {
  auto bound = bind(shape, elementType, emitError);
  if (failed(bound))
    return failure();
  std::optional<::dlaformat::StridedView> view = (*bound)->getStridedView();
  if (!view)
    return emitError() << "layout " << *this << " is not a strided view";
  return *view;
}

int64_t mlir::dla::getElementBytes(Type type) {
  assert(type.isIntOrFloat() && "an integer or floating-point element type");
  return ::dlaformat::getStorageBytesOfBits(type.getIntOrFloatBitWidth());
}

FailureOr<int64_t> mlir::dla::getStorageElementBytes(
    Type type, function_ref<InFlightDiagnostic()> emitError) {
  if (!type.isIntOrFloat())
    return emitError() << "element type " << type
                       << " has no storage width; expected an integer or floating-point type";
  return getElementBytes(type);
}

bool mlir::dla::isLayoutEncodingOrNone(Attribute encoding) {
  return !encoding || isa<LayoutEncodingAttr>(encoding);
}

FailureOr<std::unique_ptr<::dlaformat::BoundLayout>>
mlir::dla::bindTensorLayout(RankedTensorType type, function_ref<InFlightDiagnostic()> emitError) {
  Attribute encoding = type.getEncoding();
  if (auto layout = dyn_cast_or_null<LayoutEncodingAttr>(encoding))
    return layout.bind(type.getShape(), type.getElementType(), emitError);
  if (encoding)
    return emitError() << "encoding " << encoding << " is not a DLA layout encoding";
  // No encoding: row-major, i.e. the chunked layout with one rest pair per
  // dimension in order.
  FailureOr<int64_t> width = getStorageElementBytes(type.getElementType(), emitError);
  if (failed(width))
    return failure();
  std::vector<::dlaformat::ChunkPair> pairs;
  for (int64_t d = 0; d < type.getRank(); ++d)
    pairs.push_back({d, 0});
  auto layout = ::dlaformat::ChunkedLayout::get(type.getRank(), std::move(pairs));
  auto bound = layout->bind(type.getShape().vec(), *width);
  if (!bound)
    return emitError() << bound.message();
  return std::unique_ptr<::dlaformat::BoundLayout>(std::move(*bound));
}
