//===- pack_ratios_bench.cpp - Every packing ratio of issue 13, one run ----===//
//
// For every case of issue 13's table: the median time of the packer over the
// median time of a memcpy of the larger side (logical or storage bytes),
// both measured alternately in this process (operations under 0.2 ms in
// batches of calls), and a byte-equality check of
// the packer's output against an independent result (the previous scalar
// kernels of PreviousPackers.h, numpy, or an unpack round trip). The
// crouton / depth32 rows also run numpy's pad + reshape + transpose in a
// python3 child (its own ratio against its own memcpy, np.copyto of the
// same bytes) and compare numpy's bytes with ours.
//
// Usage: dla-bench-ratios [runs] [--no-numpy] [--only SUBSTRING]
// (--only runs the cases whose name contains SUBSTRING: "direct", "winograd",
// "compress", "crouton", "depth32", "conv_weight").
//
//===----------------------------------------------------------------------===//

#include "PreviousPackers.h"

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/NvdlaWeight.h"
#include "dla/Format/NvdlaWeightCompression.h"
#include "dla/Format/NvdlaWeightPacker.h"
#include "dla/Format/PackThreads.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {
int runs = 7;
bool allOk = true;
std::string only;
bool selected(const std::string &name) { return only.empty() || name.find(only) != std::string::npos; }

double seconds(const std::function<void()> &f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median times of `a` and `b`, run alternately after a warm-up. Operations
/// of a few microseconds (the 0.2 MB chunked images) are timed in batches of
/// at least 0.2 ms each, the same count for both, so that the clock and one
/// interruption do not decide the ratio.
std::pair<double, double> race(const std::function<void()> &a, const std::function<void()> &b) {
  const double once = std::min(seconds(a), seconds(b));
  const int batch = static_cast<int>(std::clamp(2e-4 / std::max(once, 1e-9), 1.0, 1000.0));
  auto timed = [batch](const std::function<void()> &f) {
    return seconds([&] {
             for (int k = 0; k < batch; ++k)
               f();
           }) /
           batch;
  };
  std::vector<double> ta, tb;
  for (int i = 0; i < runs; ++i) {
    ta.push_back(timed(a));
    tb.push_back(timed(b));
  }
  return {median(ta), median(tb)};
}

/// Times `pack` against a memcpy of `bytes` (buffers touched first).
double ratioAgainstMemcpy(int64_t bytes, const std::function<void()> &pack, double *packTime,
                          double *copyTime) {
  std::vector<char> a(static_cast<size_t>(bytes), 1), b(static_cast<size_t>(bytes), 2);
  auto [p, c] = race(pack, [&] { std::memcpy(b.data(), a.data(), a.size()); });
  *packTime = p;
  *copyTime = c;
  return p / c;
}

void row(const std::string &name, int64_t bytes, double pack, double copy, bool same,
         double target, const std::string &extra = "") {
  const double ratio = pack / copy;
  std::printf("  %-44s %8.2f MB  pack %8.3f ms  memcpy %7.3f ms  ratio %6.2f  (target <= %.1f)%s  "
              "bytes %s%s\n",
              name.c_str(), bytes / 1e6, pack * 1e3, copy * 1e3, ratio, target,
              ratio <= target ? "" : " MISSED", same ? "identical" : "DIFFER", extra.c_str());
  std::fflush(stdout);
  allOk &= same;
}

std::vector<char> randomBytes(int64_t n, unsigned seed, int zeroPercent = 0) {
  std::mt19937 rng(seed);
  std::vector<char> v(static_cast<size_t>(n));
  for (auto &x : v)
    x = static_cast<char>(rng());
  if (zeroPercent)
    for (auto &x : v)
      if (static_cast<int>(rng() % 100) < zeroPercent)
        x = 0;
  return v;
}

/// Random fp16 weights of modest magnitude (no inf / NaN), `zeroPercent`
/// of them +0.
std::vector<char> randomFp16(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<char> v(static_cast<size_t>(n * 2));
  for (int64_t i = 0; i < n; ++i) {
    const uint16_t h = fp32ToFp16(static_cast<float>(static_cast<int>(rng() % 20001) - 10000) /
                                  4096.0f);
    std::memcpy(&v[static_cast<size_t>(2 * i)], &h, 2);
  }
  return v;
}

NvdlaWeightLayout makeLayout(WeightFormat format, Precision precision, WeightShape shape) {
  WeightParams params;
  params.format = format;
  params.precision = precision;
  params.shape = shape;
  Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
  if (!layout) {
    std::fprintf(stderr, "%s\n", layout.message().c_str());
    std::exit(1);
  }
  return *layout;
}

void benchDirect(Precision precision, WeightShape shape) {
  if (!selected("direct"))
    return;
  NvdlaWeightLayout layout = makeLayout(WeightFormat::Direct, precision, shape);
  const int64_t eb = layout.getElementBytes();
  const int64_t n = layout.getNumLogicalElements();
  std::vector<char> src = randomBytes(n * eb, 1);
  std::vector<char> dst(static_cast<size_t>(layout.getStorageBytes()), 1);
  const int64_t larger = std::max<int64_t>(src.size(), dst.size());
  // One large constant: on one thread, then split across two.
  for (int threads : {1, 2}) {
    setPackThreads(threads);
    double p, c;
    ratioAgainstMemcpy(larger, [&] {
      if (!layout.pack(src.data(), n * eb, dst.data(), dst.size()))
        std::abort();
    }, &p, &c);
    std::vector<char> back(src.size());
    const bool same =
        layout.unpack(dst.data(), dst.size(), back.data(), back.size()) && back == src;
    row(std::string("direct ") + (eb == 1 ? "int8 " : "fp16 ") + std::to_string(shape.kernels) +
            "x" + std::to_string(shape.channels) + "x3x3, " + std::to_string(threads) +
            " thread" + (threads > 1 ? "s" : ""),
        larger, p, c, same, 1.5, " (unpack round trip)");
  }
  setPackThreads(0);
}

void benchWinograd(WeightShape shape) {
  if (!selected("winograd"))
    return;
  NvdlaWeightLayout layout = makeLayout(WeightFormat::Winograd, Precision::Fp16, shape);
  const int64_t n = layout.getNumLogicalElements();
  std::vector<char> src = randomFp16(n, 2);
  std::vector<char> dst(static_cast<size_t>(layout.getStorageBytes()), 1);
  const int64_t larger = std::max<int64_t>(src.size(), dst.size());
  double p, c;
  ratioAgainstMemcpy(larger, [&] {
    if (!layout.pack(src.data(), n * 2, dst.data(), dst.size()))
      std::abort();
  }, &p, &c);
  const bool same = previous::winograd(layout, src.data(), kDefaultWeightRounding) == dst;
  row("winograd fp16 " + std::to_string(shape.kernels) + "x" + std::to_string(shape.channels) +
          "x3x3",
      larger, p, c, same, 4.0, " (previous scalar kernel)");
}

void benchCompressed(WeightShape shape) {
  if (!selected("compress"))
    return;
  NvdlaWeightLayout layout = makeLayout(WeightFormat::Direct, Precision::Int8, shape);
  const int64_t n = layout.getNumLogicalElements();
  std::vector<char> src = randomBytes(n, 3, 50);
  const int64_t streamBytes = layout.getStorageBytes();
  // The kernel alone: uncompressed image -> compressed image.
  std::vector<char> image(static_cast<size_t>(streamBytes));
  if (!layout.pack(src.data(), n, image.data(), streamBytes))
    std::abort();
  CompressedWeightLayout bound = getCompressedWeightLayoutBound(layout);
  std::vector<char> out(static_cast<size_t>(bound.storageBytes), 1);
  int64_t used = 0;
  double p, c;
  ratioAgainstMemcpy(streamBytes, [&] {
    auto r = compressWeights(layout, image.data(), streamBytes, out.data(), out.size());
    if (!r)
      std::abort();
    used = r->storageBytes;
  }, &p, &c);
  std::vector<unsigned char> ref =
      previous::compress(layout, reinterpret_cast<const unsigned char *>(image.data()));
  bool same = static_cast<int64_t>(ref.size()) == used &&
              std::memcmp(ref.data(), out.data(), ref.size()) == 0;
  const std::string name = std::to_string(shape.kernels) + "x" + std::to_string(shape.channels) +
                           "x3x3 50% zeros";
  row("compress int8 image " + name, streamBytes, p, c, same, 4.0, " (previous scalar kernel)");

  // What the pass runs: logical -> stream -> plan -> three surfaces.
  std::vector<std::vector<char>> surfaces;
  auto runPacker = [&] {
    // A packer plans once: a fresh one per run, as the pass makes.
    auto packer = makeNvdlaWeightPacker(layout.getParams(), /*compressed=*/true);
    if (!packer)
      std::abort();
    PackSource source;
    source.data = src.data();
    source.bytes = n;
    auto sizes = (*packer)->planSurfaces(source);
    if (!sizes)
      std::abort();
    surfaces.resize(sizes->size());
    std::vector<char *> ptrs;
    for (size_t i = 0; i < sizes->size(); ++i) {
      surfaces[i].resize(static_cast<size_t>((*sizes)[i]));
      ptrs.push_back(surfaces[i].data());
    }
    if (!(*packer)->pack(source, ptrs))
      std::abort();
  };
  ratioAgainstMemcpy(streamBytes, runPacker, &p, &c);
  // The surfaces hold the reference image's WGS / WMB / data pieces.
  int64_t total = 0;
  for (auto &s : surfaces)
    total += s.size();
  same = surfaces.size() == 3 && total > 0;
  if (same) {
    const auto &cs = bound.surfaces[0];
    const int64_t from[3] = {cs.wgsOffset, cs.wmbOffset, cs.dataOffset};
    for (int k = 0; k < 3; ++k)
      if (from[k] + static_cast<int64_t>(surfaces[k].size()) > static_cast<int64_t>(ref.size()) ||
          std::memcmp(surfaces[k].data(), ref.data() + from[k], surfaces[k].size()) != 0) {
        std::printf("    surface %d (%zu bytes at %lld) differs\n", k, surfaces[k].size(),
                    static_cast<long long>(from[k]));
        same = false;
      }
  }
  row("compressed packer (logical->3 surfaces) " + name, streamBytes, p, c, same, 4.0,
      " (previous scalar kernel)");
}

/// numpy's pad + reshape + transpose of the same input in a python3 child:
/// numpy's median time and that of np.copyto of the larger side there, and
/// whether its bytes are ours.
bool numpyRatio(const std::string &preset, const std::vector<int64_t> &shape, int64_t eb,
                const std::vector<char> &logical, const std::vector<char> &ours, double *packTime,
                double *copyTime) {
  char inPath[] = "/tmp/dla-bench-in-XXXXXX";
  char outPath[] = "/tmp/dla-bench-out-XXXXXX";
  int fi = mkstemp(inPath), fo = mkstemp(outPath);
  if (fi < 0 || fo < 0)
    return false;
  close(fo);
  if (write(fi, logical.data(), logical.size()) != static_cast<ssize_t>(logical.size()))
    return false;
  close(fi);
  std::string script = R"PY(
import sys, time, numpy as np
preset, n, h, w, c, eb, runs, src, dst = sys.argv[1:]
n, h, w, c, eb, runs = map(int, (n, h, w, c, eb, runs))
x = np.fromfile(src, dtype=np.int8 if eb == 1 else np.int16).reshape(n, h, w, c)
up = lambda v, m: -(-v // m) * m
def pack(x):
    if preset == "crouton":
        H, W, C = up(h, 8), up(w, 8), up(c, 32)
        p = np.pad(x, ((0, 0), (0, H - h), (0, W - w), (0, C - c)))
        return np.ascontiguousarray(p.reshape(n, H // 8, 8, W // 8, 8, C // 32, 32)
                                     .transpose(0, 1, 3, 5, 2, 4, 6))
    W, C = up(w, 4), up(c, 32)
    p = np.pad(x, ((0, 0), (0, 0), (0, W - w), (0, C - c)))
    return np.ascontiguousarray(p.reshape(n, h, W // 4, 4, C // 32, 32).transpose(0, 1, 4, 2, 3, 5))
out = pack(x)
a = np.ones(max(out.nbytes, x.nbytes), np.int8); b = np.empty_like(a)
tp, tc = [], []
for _ in range(runs):
    t = time.perf_counter(); pack(x); tp.append(time.perf_counter() - t)
    t = time.perf_counter(); np.copyto(b, a); tc.append(time.perf_counter() - t)
tp.sort(); tc.sort()
out.tofile(dst)
print(tp[len(tp) // 2], tc[len(tc) // 2])
)PY";
  std::string cmd = "/usr/bin/python3 -c '" + script + "' " + preset;
  for (int64_t d : shape)
    cmd += " " + std::to_string(d);
  cmd += " " + std::to_string(eb) + " " + std::to_string(runs) + " " + inPath + " " + outPath;
  FILE *pipe = popen(cmd.c_str(), "r");
  bool ok = pipe && std::fscanf(pipe, "%lf %lf", packTime, copyTime) == 2;
  if (pipe)
    pclose(pipe);
  if (ok) {
    FILE *f = std::fopen(outPath, "rb");
    std::vector<char> theirs(ours.size() + 1);
    size_t got = f ? std::fread(theirs.data(), 1, theirs.size(), f) : 0;
    if (f)
      std::fclose(f);
    ok = got == ours.size() && std::memcmp(theirs.data(), ours.data(), got) == 0;
  }
  unlink(inPath);
  unlink(outPath);
  return ok;
}

bool withNumpy = true;

void benchChunked(ChunkedPreset preset, const std::vector<int64_t> &shape, int64_t eb,
                  double target) {
  if (!selected(std::string(enumName(preset))))
    return;
  auto bound = ChunkedLayout::getPreset(preset).bind(shape, eb);
  if (!bound)
    std::abort();
  const ChunkedBoundLayout &layout = **bound;
  std::vector<char> src = randomBytes(layout.getNumElements() * eb, 4);
  std::vector<char> dst(static_cast<size_t>(layout.getStorageBytes()), 1);
  const int64_t larger = std::max<int64_t>(src.size(), dst.size());
  double p, c;
  ratioAgainstMemcpy(larger, [&] { layout.pack(src.data(), dst.data()); }, &p, &c);
  bool same = previous::chunked(layout, src.data()) == dst;
  std::vector<char> back(src.size());
  layout.unpack(dst.data(), back.data());
  same &= back == src;
  std::string name(enumName(preset));
  std::string shapeText;
  for (int64_t d : shape)
    shapeText += (shapeText.empty() ? "" : "x") + std::to_string(d);
  std::string extra = " (per-element reference, unpack)";
  if (withNumpy && (preset == ChunkedPreset::Crouton || preset == ChunkedPreset::Depth32)) {
    double np = 0, npCopy = 1;
    bool npSame = numpyRatio(name, shape, eb, src, dst, &np, &npCopy);
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "; numpy %.3f ms, ratio %.2f to its own memcpy: we are %.1fx %s, numpy bytes %s",
                  np * 1e3, np / npCopy, p < np ? np / p : p / np, p < np ? "faster" : "SLOWER",
                  npSame ? "identical" : "DIFFER");
    extra += buf;
    same &= npSame;
  }
  row(name + (eb == 1 ? " i8 " : " f16 ") + shapeText, larger, p, c, same, target, extra);
}

} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--no-numpy")
      withNumpy = false;
    else if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else
      runs = std::atoi(argv[i]);
  }
  std::printf("dla packing / memcpy of the larger side, medians of %d alternating runs\n", runs);
  benchDirect(Precision::Fp16, {2048, 2048, 3, 3});
  benchDirect(Precision::Int8, {4096, 2048, 3, 3});
  benchWinograd({512, 1024, 3, 3});
  benchCompressed({1024, 1024, 3, 3});
  for (ChunkedPreset preset : {ChunkedPreset::Crouton, ChunkedPreset::Depth32})
    for (std::vector<int64_t> shape : std::vector<std::vector<int64_t>>{
             {1, 56, 56, 64}, {1, 112, 112, 128}, {1, 224, 224, 256}, {1, 55, 55, 60}})
      benchChunked(preset, shape, 1, 2.0);
  benchChunked(ChunkedPreset::ConvWeight, {3, 3, 1024, 2048}, 2, 2.0);
  benchChunked(ChunkedPreset::ConvWeight, {3, 3, 1024, 2048}, 1, 2.0);
  benchChunked(ChunkedPreset::ConvWeight, {3, 3, 1000, 1001}, 2, 2.0);
  std::printf("%s\n", allOk ? "all outputs byte-identical" : "SOME OUTPUTS DIFFER");
  return allOk ? 0 : 1;
}
