//===- ConstantPacker.cpp - One-surface packers over a BoundLayout --------===//

#include "dla/Format/ConstantPacker.h"
#include "dla/Format/ByteBuffer.h"
#include "dla/Format/CheckedMath.h"

#include <string>

using namespace dlaformat;

ConstantPacker::~ConstantPacker() = default;

Status dlaformat::checkPackSource(const PackSource &source, int64_t numElements,
                                    int64_t elementBytes) {
  if (source.fromFp32) {
    // (transformFromFp32: a format that computes its values from the fp32
    // weights converts them itself, e.g. scaled integer Winograd taps.)
    if (elementBytes != 2 && !source.transformFromFp32)
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

  StorageSurfaces getSurfaces() const override {
    return {SurfaceHolder::TensorStorage, {"storage"}};
  }
  int64_t getSurfaceAlignment() const override { return alignment; }

  Expected<int64_t> getPeakBytes(bool fromFp32) const override {
    // The storage, the layout's own scratch, and the fp16 copy of an fp32
    // source.
    std::optional<int64_t> peak =
        checkedAdd(layout->getStorageBytes(), layout->getPackScratchBytes());
    if (peak && fromFp32) {
      if (std::optional<int64_t> halves = checkedMul(layout->getNumElements(), 2))
        peak = checkedAdd(*peak, *halves);
      else
        peak = std::nullopt;
    }
    if (!peak)
      return makeError("packing memory overflows a 64-bit integer");
    return *peak;
  }

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
    Expected<ByteBuffer> halves =
        ByteBuffer::allocate(layout->getNumElements() * 2, "the fp16 copy of fp32 data");
    if (!halves)
      return halves.takeError();
    convertFp32ToFp16(reinterpret_cast<const float *>(source.data),
                      reinterpret_cast<uint16_t *>(halves->data()), layout->getNumElements(),
                      source.rounding);
    layout->pack(halves->data(), surfaces[0]);
    return Status::success();
  }

private:
  std::unique_ptr<BoundLayout> layout;
  int64_t alignment;
};
} // namespace

std::unique_ptr<ConstantPacker>
dlaformat::makeBoundLayoutPacker(std::unique_ptr<BoundLayout> layout, int64_t alignment) {
  return std::make_unique<BoundLayoutPacker>(std::move(layout), alignment);
}
