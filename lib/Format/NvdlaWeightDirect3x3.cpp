//===- NvdlaWeightDirect3x3.cpp - AVX-512 blocks of 3x3 direct weights ---===//
//
// For a 3x3 kernel, one kernel's channel block (cn channels x 9 positions,
// contiguous in KCRS) becomes 9 output rows, row rs holding elements rs,
// rs + 9, rs + 18, ... of the block. A stride-9 gather is two stride-3 ones
// (9 = 3 x 3), and a stride-3 gather out of three 64-byte vectors is one
// two-source permute and one masked permute per output vector (vpermt2b /
// vpermb for bytes, VBMI; vpermt2w / vpermw for 16-bit, BW): 36 permutes
// per 576 bytes, no bounce buffer, every output line written whole. On the
// 2-core EPYC: 2048x2048x3x3 fp16 on one thread 11.4 -> 4.7 ms (memcpy of
// the same 75 MB 3.9 ms); 4096x2048x3x3 int8 11.4 -> 4.2 ms.
//
//===----------------------------------------------------------------------===//

#include "NvdlaWeightImpl.h"

#include "dla/Format/PackThreads.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DLA_DIRECT3X3_AVX512 1
#endif

using namespace dlaformat;
using namespace dlaformat::nvdla::detail;

#ifdef DLA_DIRECT3X3_AVX512
namespace {

/// Permute indices of the stride-3 gather for elements of type T (64 /
/// sizeof(T) lanes): output lane m of phase i takes element 3m + i of three
/// vectors x0 x1 x2; lanes whose element lies in x0 or x1 come from the
/// two-source permute (`pair`), the others (`third`, selected by `mask`)
/// from x2.
template <typename T> struct Stride3Table {
  static constexpr int kLanes = 64 / sizeof(T);
  alignas(64) T pair[3][kLanes];
  alignas(64) T third[3][kLanes];
  uint64_t mask[3];
};

template <typename T> constexpr Stride3Table<T> makeStride3Table() {
  constexpr int lanes = Stride3Table<T>::kLanes;
  Stride3Table<T> t{};
  for (int i = 0; i < 3; ++i)
    for (int m = 0; m < lanes; ++m) {
      const int e = 3 * m + i;
      if (e < 2 * lanes) {
        t.pair[i][m] = static_cast<T>(e);
      } else {
        t.third[i][m] = static_cast<T>(e - 2 * lanes);
        t.mask[i] |= uint64_t(1) << m;
      }
    }
  return t;
}

constexpr Stride3Table<uint8_t> kStride3x8 = makeStride3Table<uint8_t>();
constexpr Stride3Table<uint16_t> kStride3x16 = makeStride3Table<uint16_t>();

#define DLA_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi")))

/// Elements 3m + i (m = 0 .. lanes - 1) of x0 x1 x2, elements of W bytes.
template <int W>
DLA_AVX512_TARGET inline __m512i stride3(__m512i x0, __m512i x1, __m512i x2, int i) {
  if constexpr (W == 1) {
    const __m512i t = _mm512_permutex2var_epi8(x0, _mm512_load_si512(kStride3x8.pair[i]), x1);
    return _mm512_mask_permutexvar_epi8(t, kStride3x8.mask[i],
                                        _mm512_load_si512(kStride3x8.third[i]), x2);
  } else {
    const __m512i t = _mm512_permutex2var_epi16(x0, _mm512_load_si512(kStride3x16.pair[i]), x1);
    return _mm512_mask_permutexvar_epi16(t, static_cast<__mmask32>(kStride3x16.mask[i]),
                                         _mm512_load_si512(kStride3x16.third[i]), x2);
  }
}

/// 64 / W channels x 9 positions at `s` (576 bytes) -> 9 rows of 64 bytes,
/// row rs at o + rs * rowBytes.
template <int W, bool Streaming>
DLA_AVX512_TARGET inline void transpose576(const char *s, char *o, int64_t rowBytes) {
  __m512i v[9];
  for (int j = 0; j < 9; ++j)
    v[j] = _mm512_loadu_si512(s + 64 * j);
  // b[j][t]: elements 3n + j of the block, n in the t-th third.
  __m512i b[3][3];
  for (int t = 0; t < 3; ++t)
    for (int j = 0; j < 3; ++j)
      b[j][t] = stride3<W>(v[3 * t], v[3 * t + 1], v[3 * t + 2], j);
  // Row 3i + j: elements 9m + 3i + j, i.e. 3m + i of b[j].
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const __m512i row = stride3<W>(b[j][0], b[j][1], b[j][2], i);
      char *d = o + (3 * i + j) * rowBytes;
      if constexpr (Streaming)
        _mm512_stream_si512(reinterpret_cast<__m512i *>(d), row);
      else
        _mm512_storeu_si512(d, row);
    }
}

template <int W, bool Streaming>
DLA_AVX512_TARGET void packBlock(const char *src, int64_t kernelStride, int64_t kn, int64_t cn,
                                 int64_t prefetchBytes, char *out) {
  const int64_t blockBytes = cn * 9 * W, rowBytes = kn * cn * W;
  for (int64_t k = 0; k < kn; ++k) {
    const char *s = src + k * kernelStride;
    // Each kernel of the group is its own read stream, more than the
    // hardware prefetcher follows: fetch its next channel block now.
    for (int64_t b = 0; b < prefetchBytes; b += 64)
      _mm_prefetch(s + blockBytes + b, _MM_HINT_T0);
    for (int64_t h = 0; h < cn * W; h += 64)
      transpose576<W, Streaming>(s + h * 9, out + k * cn * W + h, rowBytes);
  }
}

} // namespace
#endif

bool dlaformat::nvdla::detail::canPack3x3BlockAvx512(int64_t elementBytes, int64_t cn) {
#ifdef DLA_DIRECT3X3_AVX512
  return (elementBytes == 1 || elementBytes == 2) && (cn * elementBytes) % 64 == 0 &&
         usePackAvx512();
#else
  (void)elementBytes;
  (void)cn;
  return false;
#endif
}

void dlaformat::nvdla::detail::pack3x3BlockAvx512(int64_t elementBytes, const char *src,
                                                  int64_t kernelStride, int64_t kn, int64_t cn,
                                                  int64_t prefetchBytes, char *out,
                                                  bool streaming) {
#ifdef DLA_DIRECT3X3_AVX512
  // Whole 64-byte lines go to 64-byte aligned addresses when `out` is one.
  streaming = streaming && (reinterpret_cast<uintptr_t>(out) & 63) == 0;
  auto run = elementBytes == 1
                 ? (streaming ? packBlock<1, true> : packBlock<1, false>)
                 : (streaming ? packBlock<2, true> : packBlock<2, false>);
  run(src, kernelStride, kn, cn, prefetchBytes, out);
#else
  (void)elementBytes, (void)src, (void)kernelStride, (void)kn, (void)cn, (void)prefetchBytes,
      (void)out, (void)streaming;
#endif
}
