//===- PackThreads.cpp - Splitting one large pack across cores ------------===//

#include "dla/Format/PackThreads.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace dlaformat;

namespace {
std::atomic<int> packThreads{0};
std::atomic<bool> packAvx512{true};
/// Asked at the first pack, not in a static initializer: the CPU model may
/// not be filled in yet while a shared library's constructors run.
bool hasAvx512() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi");
  }();
  return has;
#else
  return false;
#endif
}
} // namespace

void dlaformat::setPackThreads(int threads) { packThreads = std::max(0, threads); }

int dlaformat::getPackThreads() {
  const int t = packThreads;
  if (t > 0)
    return t;
  return std::max(1u, std::thread::hardware_concurrency());
}

void dlaformat::setPackAvx512(bool enabled) { packAvx512 = enabled; }

bool dlaformat::usePackAvx512() { return packAvx512 && hasAvx512(); }

void dlaformat::parallelRanges(int64_t n, int64_t minPerThread,
                                 const std::function<void(int64_t, int64_t)> &body) {
  int64_t threads = std::min<int64_t>(getPackThreads(), n / std::max<int64_t>(1, minPerThread));
  if (threads <= 1) {
    body(0, n);
    return;
  }
  std::vector<std::thread> workers;
  for (int64_t t = 1; t < threads; ++t) {
    try {
      workers.emplace_back(body, n * t / threads, n * (t + 1) / threads);
    } catch (...) {
      // No thread to be had: this range runs here.
      body(n * t / threads, n * (t + 1) / threads);
    }
  }
  body(0, n / threads);
  for (std::thread &w : workers)
    w.join();
}
