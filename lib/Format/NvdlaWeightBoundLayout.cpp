//===- NvdlaWeightBoundLayout.cpp - NVDLA weights as a BoundLayout -------===//

#include "NvdlaWeightImpl.h"
#include "dla/Format/NvdlaAlignment.h"

#include <algorithm>
#include <cassert>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

class NvdlaWeightBoundLayout final : public BoundLayout {
public:
  explicit NvdlaWeightBoundLayout(NvdlaWeightLayout layout)
      : BoundLayout({layout.getParams().shape.kernels, layout.getParams().shape.channels,
                     layout.getParams().shape.height, layout.getParams().shape.width},
                    layout.getElementBytes(), layout.getNumLogicalElements()),
        layout(std::move(layout)) {}

  int64_t getStorageBytes() const override { return layout.getStorageBytes(); }
  LogicalOrder getLogicalOrder() const override { return LogicalOrder::KCRS; }

  Expected<int64_t> getByteOffset(const std::vector<int64_t> &index) const override {
    if (Status s = checkIndex(index); !s)
      return s.takeError();
    return layout.getByteOffset(index[0], index[1], index[2], index[3]);
  }

  Expected<StorageLocation> locate(int64_t byteOffset) const override {
    if (Status s = checkByteOffset(byteOffset); !s)
      return s.takeError();
    return layout.locate(byteOffset);
  }

  int64_t getStorageAlignment() const override {
    return getAlignment(AlignedData::Weight).startAddress;
  }

  std::optional<StridedView> getStridedView() const override {
    const WeightParams &p = layout.getParams();
    if (p.format != WeightFormat::Direct)
      return std::nullopt;
    const WeightShape &sh = p.shape;
    const int64_t kpg = layout.getKernelsPerGroup();
    const int64_t atomicC = p.hardware.atomicC;
    // Only uniform groups and blocks form a strided array.
    if (sh.kernels > kpg && sh.kernels % kpg != 0)
      return std::nullopt;
    if (sh.channels > atomicC && sh.channels % atomicC != 0)
      return std::nullopt;
    const int64_t kn = std::min(kpg, sh.kernels);
    const int64_t cn = std::min(atomicC, sh.channels);
    const int64_t R = sh.height, S = sh.width;
    StridedView view;
    view.dims = {
        {sh.kernels / kn, kn * sh.channels * R * S, 0, kn},
        {sh.channels / cn, kn * cn * R * S, 1, cn},
        {R, S * kn * cn, 2, 1},
        {S, kn * cn, 3, 1},
        {kn, cn, 0, 1},
        {cn, 1, 1, 1},
    };
    return view;
  }

  void pack(const char *logical, char *storage) const override {
    Status s = layout.pack(logical, getNumElements() * getElementBytes(), storage,
                           getStorageBytes());
    assert(s.ok() && "validated at creation");
    (void)s;
  }

  void unpack(const char *storage, char *logical) const override {
    Status s = layout.unpack(storage, getStorageBytes(), logical,
                             getNumElements() * getElementBytes());
    assert(s.ok() && "validated at creation");
    (void)s;
  }

private:
  NvdlaWeightLayout layout;
};

} // namespace

Expected<std::unique_ptr<BoundLayout>>
dlaformat::nvdla::createNvdlaWeightBoundLayout(const WeightParams &params) {
  Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
  if (!layout)
    return layout.takeError();
  if (!layout->isInvertible())
    return makeError(detail::notInvertibleMessage(detail::WeightLayoutImpl::get(*layout),
                                                  "are not a BoundLayout") +
                     ", so no element has a byte offset");
  return std::unique_ptr<BoundLayout>(new NvdlaWeightBoundLayout(*layout));
}
