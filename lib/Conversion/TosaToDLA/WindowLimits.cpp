//===- WindowLimits.cpp - Windows the PDP and CSC registers hold ----------===//
//
// The reasons of layers whose window overflows a register field, and the
// chains of PDP layers that compute a pooling window the PDP cannot hold
// (docs/IntegerAttributes.md section 9, decision 20).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

static std::string outside(StringRef what, int64_t value, const nv::RegisterField &f) {
  return (what + " " + Twine(value) + " is outside " + Twine(f.lo) + ".." + Twine(f.hi) + " (" +
          StringRef(f.name.data(), f.name.size()) + ": " + StringRef(f.why.data(), f.why.size()) +
          ")")
      .str();
}

std::string tosa_to_dla::whyNotWindow(const nv::WindowFields &w, ArrayRef<int64_t> kernel,
                                      ArrayRef<int64_t> strides, ArrayRef<int64_t> padding) {
  static const char *kernels[2] = {"kernel height", "kernel width"};
  static const char *strideNames[2] = {"stride height", "stride width"};
  static const char *pads[4] = {"top padding", "bottom padding", "left padding",
                                "right padding"};
  for (int d = 0; d < 2; ++d)
    if (!w.kernel[d].holds(kernel[d]))
      return outside(kernels[d], kernel[d], w.kernel[d]);
  for (int d = 0; d < 2; ++d)
    if (!w.stride[d].holds(strides[d]))
      return outside(strideNames[d], strides[d], w.stride[d]);
  for (int i = 0; i < 4; ++i)
    if (!w.padding[i].holds(padding[i]))
      return outside(pads[i], padding[i], w.padding[i]);
  return "";
}

std::string tosa_to_dla::whyNotConvWindow(ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                          ArrayRef<int64_t> padding,
                                          ArrayRef<int64_t> dilations) {
  if (std::string why = whyNotWindow(nv::kConvWindow, kernel, strides, padding); !why.empty())
    return "its " + why;
  const nv::RegisterField *dil[2] = {&nv::kConvDilationY, &nv::kConvDilationX};
  static const char *names[2] = {"dilation height", "dilation width"};
  for (int d = 0; d < 2; ++d)
    if (!dil[d]->holds(dilations[d]))
      return "its " + outside(names[d], dilations[d], *dil[d]);
  return "";
}

std::string tosa_to_dla::whyNotConvChannels(int64_t channels, bool channelsCut) {
  if (!channelsCut && !nv::kConvInputChannels.holds(channels))
    return "its " + outside("input channel count", channels, nv::kConvInputChannels) +
           ": cutting a layer's input channels, with the SDP adding each part's sums to the "
           "previous part's, is programmed for fp16 pipelines only";
  return "";
}

namespace {

/// One dimension of a pooling window: extent in, kernel, stride, padding.
struct Dim {
  int64_t in, kernel, stride, before, after;
};
/// One dimension of a stage.
struct DimStage {
  int64_t kernel, stride, before, after;
};

int64_t outExtent(int64_t in, const DimStage &s) {
  return (in + s.before + s.after - s.kernel) / s.stride + 1;
}

/// Max pooling: max over a window of k = max over k1 then over k2 with
/// stride 1 between, k1 + k2 - 1 = k; padded positions are ignored, so the
/// padding may be shared among the stages as long as each stays below its
/// kernel (no window all padding).
FailureOr<SmallVector<DimStage>> planMax(const Dim &d, std::string &why) {
  SmallVector<DimStage> stages;
  for (int64_t rest = d.kernel - 1; rest > 0 || stages.empty();) {
    int64_t k = std::min<int64_t>(rest, 7) + 1;
    stages.push_back({k, 1, 0, 0});
    rest -= k - 1;
  }
  int64_t before = d.before, after = d.after;
  for (DimStage &s : stages) {
    s.before = std::min({before, s.kernel - 1, int64_t(7)});
    s.after = std::min({after, s.kernel - 1, int64_t(7)});
    before -= s.before;
    after -= s.after;
  }
  if (before || after) {
    why = "its padding is not below the kernel";
    return failure();
  }
  stages.back().stride = d.stride;
  return stages;
}

/// Average pooling without padding: the mean of equal, non-overlapping
/// sub-window means (stage i's kernel = stride = a factor of k up to 8).
FailureOr<SmallVector<DimStage>> planAverage(const Dim &d, std::string &why) {
  if (d.kernel <= 8)
    return SmallVector<DimStage>{{d.kernel, d.stride, 0, 0}};
  SmallVector<int64_t> factors;
  for (int64_t rest = d.kernel; rest > 1;) {
    int64_t f = 8;
    while (f > 1 && rest % f)
      --f;
    if (f == 1) {
      why = "its window " + std::to_string(d.kernel) + " has a prime factor above 8";
      return failure();
    }
    factors.push_back(f);
    rest /= f;
  }
  SmallVector<DimStage> stages;
  int64_t covered = 1;
  for (int64_t f : ArrayRef(factors).drop_back()) {
    stages.push_back({f, f, 0, 0});
    covered *= f;
  }
  // One output needs no stride; more must start on a sub-window boundary.
  int64_t out = outExtent(d.in, {d.kernel, d.stride, 0, 0});
  if (out > 1 && d.stride % covered) {
    why = "its stride " + std::to_string(d.stride) + " does not step over whole sub-windows of " +
          std::to_string(covered);
    return failure();
  }
  stages.push_back({factors.back(), out > 1 ? d.stride / covered : 1, 0, 0});
  return stages;
}

} // namespace

FailureOr<SmallVector<PoolStage>>
tosa_to_dla::planPoolChain(bool max, ArrayRef<int64_t> inHW,
                           ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                           ArrayRef<int64_t> padding, std::string &why) {
  std::string limit = whyNotWindow(nv::kPdpWindow, kernel, strides, padding);
  if (limit.empty())
    return SmallVector<PoolStage>{{{kernel[0], kernel[1]},
                                   {strides[0], strides[1]},
                                   {padding[0], padding[1], padding[2], padding[3]}}};
  auto fail = [&](const std::string &reason) {
    why = "its " + limit + " and " + reason;
    return failure();
  };
  if (llvm::any_of(strides, [](int64_t s) { return !nv::kPdpStrideHeight.holds(s); }))
    return fail("a chain of pooling layers does not split strides");
  if (ShapedType::isDynamic(inHW[0]) || ShapedType::isDynamic(inHW[1]))
    return fail("a chain of pooling layers needs static extents");
  SmallVector<DimStage> dims[2];
  for (int d = 0; d < 2; ++d) {
    Dim dim{inHW[d], kernel[d], strides[d], padding[2 * d], padding[2 * d + 1]};
    std::string reason;
    FailureOr<SmallVector<DimStage>> plan = max ? planMax(dim, reason) : planAverage(dim, reason);
    if (failed(plan))
      return fail(reason);
    dims[d] = std::move(*plan);
    // The chain must give the original's extent (it does; checked, not assumed).
    int64_t extent = inHW[d];
    for (const DimStage &s : dims[d])
      extent = outExtent(extent, s);
    if (extent != outExtent(inHW[d], {kernel[d], strides[d], dim.before, dim.after}))
      return fail("a chain of pooling layers changes its output extent");
  }
  // The shorter dimension gets identity stages in front (its stride stays last).
  size_t n = std::max(dims[0].size(), dims[1].size());
  for (auto &stages : dims)
    stages.insert(stages.begin(), n - stages.size(), DimStage{1, 1, 0, 0});
  SmallVector<PoolStage> chain;
  for (size_t i = 0; i < n; ++i) {
    const DimStage &h = dims[0][i], &w = dims[1][i];
    chain.push_back({{h.kernel, w.kernel},
                     {h.stride, w.stride},
                     {h.before, h.after, w.before, w.after}});
  }
  return chain;
}

std::string tosa_to_dla::averageChainError(size_t stages) {
  // A stage with the firmware's table, floor(2^16 / k) per dimension, on a
  // window sum S (|S| <= 128 kh kw <= 8192): the width step is S / kw off
  // by 1/2 (rounding) + 1/8 (|S| 2^-16, the floored reciprocal), the height
  // step divides that by kh, is off by 1/64 more (its reciprocal) and
  // rounds (1/2; nothing when kh = 1): within 53/64 of the stage's exact
  // mean. A mean of such outputs carries their mean error on, so the last
  // is within 53/64 a layer of the exact mean, and the mean rounded once
  // within 1/2 of it.
  const size_t fromOne = (53 * stages + 32) / 64;
  return "integers round each of the " + std::to_string(stages) +
         " layers twice, with the firmware's reciprocals floor(2^16 / k): within 53/64 a "
         "layer of the exact mean, at most " +
         std::to_string(fromOne) + " from the mean rounded once";
}
