//===- pack_direct_bench.cpp - Weight packing vs memcpy, in one process ---===//
//
// Packs a 64M-element fp16 direct-convolution weight set (several KCRS
// shapes) and copies the same number of bytes with memcpy, alternating, and
// prints the median time of each and their ratio. Also the fused fp32 ->
// fp16 path and the chunked conv_weight layout, for reference. Buffers are
// touched before timing so page faults are not measured.
//
// Usage: dla-bench-pack [runs]     (target: direct fp16 pack <= 3x memcpy)
//
//===----------------------------------------------------------------------===//

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/NvdlaWeight.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {
double seconds(const std::function<void()> &f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median times of `a` and `b` run alternately `runs` times after a warm-up.
std::pair<double, double> race(int runs, const std::function<void()> &a,
                               const std::function<void()> &b) {
  a();
  b();
  std::vector<double> ta, tb;
  for (int i = 0; i < runs; ++i) {
    ta.push_back(seconds(a));
    tb.push_back(seconds(b));
  }
  return {median(ta), median(tb)};
}
} // namespace

int main(int argc, char **argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 7;
  struct Case {
    const char *what;
    WeightShape shape;
  };
  // 64M elements each (2048x3641x3x3 is 67.1M).
  const Case cases[] = {
      {"K=2048 C=3641 3x3", {2048, 3641, 3, 3}},
      {"K=1024 C=1024 8x8", {1024, 1024, 8, 8}},
      {"K=8192 C=8192 1x1", {8192, 8192, 1, 1}},
  };
  std::printf("dla weight packing vs memcpy of the same bytes, %d runs, medians\n", runs);
  double worst = 0;
  for (const Case &c : cases) {
    WeightParams params;
    params.format = WeightFormat::Direct;
    params.precision = Precision::Fp16;
    params.shape = c.shape;
    Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
    if (!layout) {
      std::fprintf(stderr, "%s\n", layout.message().c_str());
      return 1;
    }
    const int64_t n = layout->getNumLogicalElements();
    std::vector<uint16_t> src(static_cast<size_t>(n));
    std::mt19937 rng(1);
    for (auto &v : src)
      v = static_cast<uint16_t>(rng());
    std::vector<char> dst(static_cast<size_t>(layout->getStorageBytes()), 1);
    std::vector<char> copy(static_cast<size_t>(n * 2), 1);
    auto [pack, memcpyTime] = race(
        runs,
        [&] {
          Status s = layout->pack(src.data(), n * 2, dst.data(), static_cast<int64_t>(dst.size()));
          if (!s)
            std::abort();
        },
        [&] { std::memcpy(copy.data(), src.data(), copy.size()); });
    worst = std::max(worst, pack / memcpyTime);
    std::printf("  direct fp16 %-18s %5.1fM elements: pack %7.2f ms  memcpy %7.2f ms  ratio %.2f\n",
                c.what, n / 1e6, pack * 1e3, memcpyTime * 1e3, pack / memcpyTime);
    if (&c == &cases[0]) {
      std::vector<float> f32(static_cast<size_t>(n));
      for (auto &v : f32)
        v = static_cast<float>(rng() % 4096) / 64.0f;
      auto [fused, memcpy32] = race(
          runs,
          [&] {
            Status s = layout->packFp32(f32.data(), n, dst.data(), static_cast<int64_t>(dst.size()),
                                        Fp16Rounding::TiesToEven);
            if (!s)
              std::abort();
          },
          [&] { std::memcpy(copy.data(), src.data(), copy.size()); });
      std::printf("  fused fp32->fp16 + pack (same shape):    pack %7.2f ms  memcpy %7.2f ms  "
                  "ratio %.2f (reads 2x the bytes)\n",
                  fused * 1e3, memcpy32 * 1e3, fused / memcpy32);
    }
  }
  // The HTP conv_weight chunked layout through the generic strided copy.
  {
    auto bound = ChunkedLayout::getPreset(ChunkedPreset::ConvWeight).bind({3, 3, 2048, 3641}, 2);
    if (!bound)
      return 1;
    const int64_t n = (*bound)->getNumElements();
    std::vector<char> src(static_cast<size_t>(n * 2), 3);
    std::vector<char> dst(static_cast<size_t>((*bound)->getStorageBytes()), 1);
    std::vector<char> copy(src.size(), 1);
    auto [pack, memcpyTime] =
        race(runs, [&] { (*bound)->pack(src.data(), dst.data()); },
             [&] { std::memcpy(copy.data(), src.data(), copy.size()); });
    std::printf("  HTP conv_weight 3x3x2048x3641 fp16:      pack %7.2f ms  memcpy %7.2f ms  ratio %.2f\n",
                pack * 1e3, memcpyTime * 1e3, pack / memcpyTime);
  }
  std::printf("worst direct fp16 ratio: %.2f (target <= 3.00)\n", worst);
  return 0;
}
