//===- ConstantPacker.cpp - One-surface packers over a BoundLayout --------===//

#include "dla/Format/ConstantPacker.h"

#include <string>

using namespace dla::format;

ConstantPacker::~ConstantPacker() = default;

Status dla::format::checkPackSource(const PackSource &source, int64_t numElements,
                                    int64_t elementBytes) {
  if (source.fromFp32) {
    if (elementBytes != 2)
      return makeError("fp32 source data converts only to fp16 storage, not to " +
                       std::to_string(elementBytes) + "-byte elements");
    if (source.bytes != numElements * 4)
      return makeError("fp32 source holds " + std::to_string(source.bytes) + " bytes, expected " +
                       std::to_string(numElements * 4));
    return Status::success();
  }
  if (source.bytes != numElements * elementBytes)
    return makeError("source holds " + std::to_string(source.bytes) + " bytes, expected " +
                     std::to_string(numElements * elementBytes));
  return Status::success();
}

namespace {
class BoundLayoutPacker final : public ConstantPacker {
public:
  BoundLayoutPacker(std::unique_ptr<BoundLayout> layout, int64_t alignment)
      : layout(std::move(layout)), alignment(alignment) {}

  std::vector<std::string> getSurfaceNames() const override { return {"storage"}; }
  int64_t getSurfaceAlignment() const override { return alignment; }

  Expected<std::vector<int64_t>> planSurfaces(const PackSource &source) override {
    Status s = checkPackSource(source, layout->getNumElements(), layout->getElementBytes());
    if (!s)
      return s.takeError();
    return std::vector<int64_t>{layout->getStorageBytes()};
  }

  Status pack(const PackSource &source, const std::vector<char *> &surfaces) override {
    if (!source.fromFp32) {
      layout->pack(source.data, surfaces[0]);
      return Status::success();
    }
    // Layouts move whole elements, so the conversion is a separate pass.
    std::vector<uint16_t> halves(static_cast<size_t>(layout->getNumElements()));
    convertFp32ToFp16(reinterpret_cast<const float *>(source.data), halves.data(),
                      layout->getNumElements(), source.rounding);
    layout->pack(reinterpret_cast<const char *>(halves.data()), surfaces[0]);
    return Status::success();
  }

private:
  std::unique_ptr<BoundLayout> layout;
  int64_t alignment;
};
} // namespace

std::unique_ptr<ConstantPacker>
dla::format::makeBoundLayoutPacker(std::unique_ptr<BoundLayout> layout, int64_t alignment) {
  return std::make_unique<BoundLayoutPacker>(std::move(layout), alignment);
}
