//===- BoundLayout.cpp - Shared checks of bound layouts -------------------===//

#include "dla/Format/BoundLayout.h"
#include "dla/Format/CheckedMath.h"

using namespace dlaformat;

BoundLayout::~BoundLayout() = default;

std::string dlaformat::formatShape(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += 'x';
    s += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return s;
}

Expected<int64_t> dlaformat::checkShape(const std::vector<int64_t> &shape,
                                          int64_t elementBytes) {
  if (elementBytes <= 0)
    return makeError("element width must be positive, got " + std::to_string(elementBytes) +
                     " bytes");
  int64_t n = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0)
      return makeError("dimension " + std::to_string(i) +
                       " is dynamic or negative; a layout needs a static shape");
    auto m = checkedMul(n, shape[i]);
    if (!m)
      return makeError("number of elements of shape " + formatShape(shape) +
                       " overflows a 64-bit integer");
    n = *m;
  }
  if (!checkedMul(n, elementBytes))
    return makeError("size in bytes of shape " + formatShape(shape) +
                     " overflows a 64-bit integer");
  return n;
}

Status BoundLayout::checkIndex(const std::vector<int64_t> &index) const {
  if (index.size() != shape.size())
    return makeError("index has rank " + std::to_string(index.size()) + ", shape " +
                     formatShape(shape) + " has rank " + std::to_string(shape.size()));
  for (size_t i = 0; i < index.size(); ++i)
    if (index[i] < 0 || index[i] >= shape[i])
      return makeError("index " + std::to_string(index[i]) + " of dimension " +
                       std::to_string(i) + " is out of bounds [0, " +
                       std::to_string(shape[i]) + ")");
  return Status::success();
}

Status BoundLayout::checkByteOffset(int64_t byteOffset) const {
  if (byteOffset < 0 || byteOffset >= getStorageBytes())
    return makeError("byte offset " + std::to_string(byteOffset) +
                     " is outside the storage [0, " + std::to_string(getStorageBytes()) + ")");
  return Status::success();
}

StorageDescription BoundLayout::describeStorage() const {
  StorageDescription d;
  d.buffers.push_back({"storage", getStorageBytes(), getStorageAlignment()});
  if (std::optional<StridedView> view = getStridedView()) {
    StorageView v;
    v.name = "storage";
    v.elementBytes = getElementBytes();
    v.view = *view;
    d.views.push_back(std::move(v));
  }
  return d;
}
