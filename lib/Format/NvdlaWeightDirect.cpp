//===- NvdlaWeightDirect.cpp - Direct-convolution weight stream ----------===//
//
// The direct-convolution order (nvdla/sw, and format_dc_weight_mapping.png):
// for each kernel group, for each channel block (full blocks of atomic-C,
// then the short one), for r, for s, for each kernel of the group, the
// channels of the block.
//
// For one (group, block) the output is RS = R*S rows of kn*cn elements, row
// `rs` holding, kernel after kernel, the block's channels at position rs. For
// each kernel the source block is a contiguous cn x RS matrix (KCRS), so
// packing is a matrix transpose per kernel. The fast packer builds up to 8
// output rows at a time in a small buffer with SSE2 transposes (8x8 16-bit,
// 16x8 8-bit; de-interleaving for 16-bit kernels of 2 or 4 positions; a plain
// copy for 1x1) and writes them out in one piece, streaming past the caches
// for large outputs. A last chunk of one or two rows (3x3 kernels: 8 + 1) is
// gathered rather than transposed. Each kernel of a group is a separate read
// stream, more than the hardware prefetcher follows, so the next channel
// block of each kernel is prefetched (3x3 fp16: 17 -> 11 ms for 75 MB).
// fp32 sources are converted to fp16 one kernel block at a time first.
// 3x3 kernels take the AVX-512 blocks of NvdlaWeightDirect3x3.cpp where the
// CPU has them.
//
//===----------------------------------------------------------------------===//

#include "NvdlaWeightImpl.h"

#include "dla/Format/PackThreads.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define DLA_NVDLA_WEIGHT_SSE2 1
#endif

using namespace dlaformat;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::detail;

SurfaceProgram dlaformat::nvdla::detail::buildDirectProgram(int64_t C, int64_t R, int64_t S,
                                                              int64_t atomicC) {
  SurfaceProgram program;
  const int64_t RS = R * S;
  for (int64_t c0 = 0; c0 < C; c0 += atomicC) {
    const int64_t cn = std::min(atomicC, C - c0);
    for (int64_t r = 0; r < R; ++r)
      for (int64_t s = 0; s < S; ++s)
        program.addStep({Run{c0 * RS + r * S + s, RS, cn}});
  }
  return program;
}

namespace {

/// Output rows built at once.
constexpr int64_t kChunkRows = 8;
/// Outputs at least this large are written with non-temporal stores.
constexpr int64_t kStreamingThreshold = int64_t(8) << 20;

#ifdef DLA_NVDLA_WEIGHT_SSE2
/// Transposes 8 rows of 8 16-bit values held in registers and stores row j
/// of the result at d + j * dstride.
inline void transpose8x8x16Regs(__m128i a0, __m128i a1, __m128i a2, __m128i a3, __m128i a4,
                                __m128i a5, __m128i a6, __m128i a7, char *d, int64_t dstride) {
  __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1);
  __m128i b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3);
  __m128i b4 = _mm_unpacklo_epi16(a4, a5), b5 = _mm_unpackhi_epi16(a4, a5);
  __m128i b6 = _mm_unpacklo_epi16(a6, a7), b7 = _mm_unpackhi_epi16(a6, a7);
  __m128i c0 = _mm_unpacklo_epi32(b0, b2), c1 = _mm_unpackhi_epi32(b0, b2);
  __m128i c2 = _mm_unpacklo_epi32(b1, b3), c3 = _mm_unpackhi_epi32(b1, b3);
  __m128i c4 = _mm_unpacklo_epi32(b4, b6), c5 = _mm_unpackhi_epi32(b4, b6);
  __m128i c6 = _mm_unpacklo_epi32(b5, b7), c7 = _mm_unpackhi_epi32(b5, b7);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 0 * dstride), _mm_unpacklo_epi64(c0, c4));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 1 * dstride), _mm_unpackhi_epi64(c0, c4));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 2 * dstride), _mm_unpacklo_epi64(c1, c5));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 3 * dstride), _mm_unpackhi_epi64(c1, c5));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 4 * dstride), _mm_unpacklo_epi64(c2, c6));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 5 * dstride), _mm_unpackhi_epi64(c2, c6));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 6 * dstride), _mm_unpacklo_epi64(c3, c7));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 7 * dstride), _mm_unpackhi_epi64(c3, c7));
}

/// d[j * dstride + i] = s[i * sstride + j] for an 8x8 block of 16-bit values.
inline void transpose8x8x16(const char *s, int64_t sstride, char *d, int64_t dstride) {
  auto row = [&](int i) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i * sstride));
  };
  transpose8x8x16Regs(row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7), d,
                      dstride);
}

/// d[j * dstride + i] = s[i * sstride + j] for a 16x8 block of bytes
/// (16 source rows of 8 bytes -> 8 destination rows of 16 bytes).
inline void transpose16x8x8(const char *s, int64_t sstride, char *d, int64_t dstride) {
  // Interleave bytes of row pairs (0,1), (2,3), ...: 8 rows of 8 16-bit
  // pairs (column j of rows 2i, 2i+1), then transpose those as 8x8x16.
  auto pair = [&](int i) {
    return _mm_unpacklo_epi8(
        _mm_loadl_epi64(reinterpret_cast<const __m128i *>(s + 2 * i * sstride)),
        _mm_loadl_epi64(reinterpret_cast<const __m128i *>(s + (2 * i + 1) * sstride)));
  };
  transpose8x8x16Regs(pair(0), pair(1), pair(2), pair(3), pair(4), pair(5), pair(6), pair(7),
                      d, dstride);
}
#endif

#ifdef DLA_NVDLA_WEIGHT_SSE2
/// Splits 16 16-bit values (a then b) into the even and the odd ones.
inline void deinterleave16(__m128i a, __m128i b, __m128i &even, __m128i &odd) {
  // Sign-extend each half so that the signed saturating pack is exact.
  even = _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(a, 16), 16),
                         _mm_srai_epi32(_mm_slli_epi32(b, 16), 16));
  odd = _mm_packs_epi32(_mm_srai_epi32(a, 16), _mm_srai_epi32(b, 16));
}

inline __m128i load16(const char *p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
}
inline void store16(char *p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i *>(p), v);
}

/// 8 channels of a 16-bit block with RS = 2 or 4: out row r gets the 8
/// values at position r (rows `rowBytes` apart).
inline void splitPositions(const char *s, int64_t RS, char *out, int64_t rowBytes) {
  if (RS == 2) {
    __m128i r0, r1;
    deinterleave16(load16(s), load16(s + 16), r0, r1);
    store16(out, r0);
    store16(out + rowBytes, r1);
    return;
  }
  __m128i e01, o01, e23, o23, r0, r1, r2, r3;
  deinterleave16(load16(s), load16(s + 16), e01, o01);      // positions 0,2 / 1,3
  deinterleave16(load16(s + 32), load16(s + 48), e23, o23);
  deinterleave16(e01, e23, r0, r2);
  deinterleave16(o01, o23, r1, r3);
  store16(out, r0);
  store16(out + rowBytes, r1);
  store16(out + 2 * rowBytes, r2);
  store16(out + 3 * rowBytes, r3);
}
#endif

/// Fills `nr` output rows r0 .. r0+nr-1 of one kernel's block:
/// out[(r - r0) * rowStride + c] = src[c * RS + r] (elements of W bytes).
template <int64_t W> struct RowFiller {
  static void fill(const char *src, int64_t cn, int64_t RS, int64_t r0, int64_t nr,
                   const char *srcEnd, char *out, int64_t rowStride) {
    if (RS == 1) {
      std::memcpy(out, src, static_cast<size_t>(cn * W));
      return;
    }
#ifdef DLA_NVDLA_WEIGHT_SSE2
    constexpr int64_t lanes = W == 2 ? 8 : 16; // channels per SIMD tile
    if (W == 2 && (RS == 2 || RS == 4) && cn >= 8) {
      // Whole kernels of 2 or 4 positions: de-interleave 8 channels at a time.
      for (int64_t c0 = 0;; c0 += 8) {
        if (c0 > cn - 8)
          c0 = cn - 8;
        splitPositions(src + c0 * RS * 2, RS, out + c0 * 2, rowStride * 2);
        if (c0 == cn - 8)
          break;
      }
      return;
    }
    if (nr <= 2 && nr < RS && cn >= 8) {
      // A short last chunk (RS = 9: one row after a full chunk of 8): a
      // gather per row costs less than a whole transpose for one row.
      for (int64_t j = 0; j < nr; ++j) {
        const char *s = src + (r0 + j) * W;
        char *o = out + j * rowStride * W;
        for (int64_t c0 = 0;; c0 += 8) {
          if (c0 > cn - 8)
            c0 = cn - 8; // the last 8 overlap the previous ones
          const char *t = s + c0 * RS * W;
          if (W == 2) {
            auto at = [&](int64_t c) {
              uint16_t v;
              std::memcpy(&v, t + c * RS * 2, 2);
              return static_cast<int>(v);
            };
            __m128i v = _mm_cvtsi32_si128(at(0));
            v = _mm_insert_epi16(v, at(1), 1);
            v = _mm_insert_epi16(v, at(2), 2);
            v = _mm_insert_epi16(v, at(3), 3);
            v = _mm_insert_epi16(v, at(4), 4);
            v = _mm_insert_epi16(v, at(5), 5);
            v = _mm_insert_epi16(v, at(6), 6);
            v = _mm_insert_epi16(v, at(7), 7);
            store16(o + c0 * 2, v);
          } else {
            uint64_t v = 0;
            for (int64_t c = 0; c < 8; ++c)
              v |= static_cast<uint64_t>(static_cast<unsigned char>(t[c * RS])) << (8 * c);
            std::memcpy(o + c0, &v, 8);
          }
          if (c0 == cn - 8)
            break;
        }
      }
      return;
    }
    if (cn >= lanes) {
      // A full tile reads 8 elements of each source row from r0; for short
      // kernels (RS < 8) that runs into the next rows, which must exist.
      const bool fullRows = nr == kChunkRows;
      const bool overReadOk =
          fullRows || src + ((cn - 1) * RS + r0 + kChunkRows) * W <= srcEnd;
      if (overReadOk) {
        alignas(16) char tile[kChunkRows * 16];
        for (int64_t c0 = 0;; c0 += lanes) {
          if (c0 > cn - lanes)
            c0 = cn - lanes; // the last tile overlaps the previous one
          const char *s = src + (c0 * RS + r0) * W;
          if (fullRows) {
            if (W == 2)
              transpose8x8x16(s, RS * W, out + c0 * W, rowStride * W);
            else
              transpose16x8x8(s, RS * W, out + c0 * W, rowStride * W);
          } else {
            if (W == 2)
              transpose8x8x16(s, RS * W, tile, 16);
            else
              transpose16x8x8(s, RS * W, tile, 16);
            for (int64_t j = 0; j < nr; ++j)
              std::memcpy(out + (j * rowStride + c0) * W, tile + j * 16, 16);
          }
          if (c0 == cn - lanes)
            break;
        }
        return;
      }
    }
#else
    (void)srcEnd;
#endif
    for (int64_t j = 0; j < nr; ++j) {
      const char *s = src + (r0 + j) * W;
      char *o = out + j * rowStride * W;
      for (int64_t c = 0; c < cn; ++c)
        std::memcpy(o + c * W, s + c * RS * W, W);
    }
  }
};

/// Copies `bytes` from `from` to `to`, with non-temporal stores if asked.
inline void emit(char *to, const char *from, int64_t bytes, bool streaming) {
#ifdef DLA_NVDLA_WEIGHT_SSE2
  if (streaming && bytes >= 64) {
    const int64_t head = static_cast<int64_t>((16 - (reinterpret_cast<uintptr_t>(to) & 15)) & 15);
    std::memcpy(to, from, static_cast<size_t>(head));
    int64_t i = head;
    for (; i + 16 <= bytes; i += 16)
      _mm_stream_si128(reinterpret_cast<__m128i *>(to + i),
                       _mm_loadu_si128(reinterpret_cast<const __m128i *>(from + i)));
    std::memcpy(to + i, from + i, static_cast<size_t>(bytes - i));
    return;
  }
#else
  (void)streaming;
#endif
  std::memcpy(to, from, static_cast<size_t>(bytes));
}

/// SB: source element bytes (1, 2, or 4 for fp32 converted to fp16 with
/// `rounding`); DB: storage element bytes.
/// Kernel groups [g0, g1) (every group before the last is full, so group g
/// starts at g * kpg kernels in both source and stream) into `out`, where
/// group g0 starts. `streaming`: non-temporal stores (a large output that
/// nothing reads soon).
template <int64_t SB, int64_t DB>
void packDirectGroups(const char *src, int64_t K, int64_t C, int64_t RS, int64_t kpg,
                      int64_t atomicC, char *out, Fp16Rounding rounding, int64_t g0,
                      int64_t g1, bool streaming) {
  using Filler = RowFiller<DB>;
  const int64_t kernelElems = C * RS;
  const int64_t chunkRows = std::min(RS, kChunkRows);
  std::vector<char> buffer(static_cast<size_t>(chunkRows * kpg * atomicC * DB));
  char *tmp = buffer.data();
  // fp32 sources: each kernel's block (contiguous cn x RS floats) is first
  // converted as a whole into `staging`, then transposed like fp16 data.
  std::vector<char> staging(SB == DB ? 0 : static_cast<size_t>(kpg * atomicC * RS * DB));
  for (int64_t k0 = g0 * kpg; k0 < std::min(K, g1 * kpg); k0 += kpg) {
    const int64_t kn = std::min(kpg, K - k0);
    for (int64_t c0 = 0; c0 < C; c0 += atomicC) {
      const int64_t cn = std::min(atomicC, C - c0);
      const int64_t rowElems = kn * cn;
      const char *blockSrc = src + (k0 * kernelElems + c0 * RS) * SB;
      int64_t kernelStride = kernelElems * DB;
      const char *blockEnd = src + K * kernelElems * SB; // over-reads stay below
      if (SB != DB) {
        for (int64_t k = 0; k < kn; ++k)
          convertFp32ToFp16(reinterpret_cast<const float *>(blockSrc + k * kernelElems * SB),
                            reinterpret_cast<uint16_t *>(staging.data() + k * cn * RS * DB),
                            cn * RS, rounding);
        blockSrc = staging.data();
        kernelStride = cn * RS * DB;
        blockEnd = staging.data() + kn * cn * RS * DB;
      }
      if (RS == 9 && canPack3x3BlockAvx512(DB, cn)) {
        const int64_t nextBytes =
            SB == DB && c0 + atomicC < C ? std::min(atomicC, C - c0 - atomicC) * RS * SB : 0;
        pack3x3BlockAvx512(DB, blockSrc, kernelStride, kn, cn, nextBytes, out, streaming);
        out += RS * rowElems * DB;
        continue;
      }
      // Chunks of chunkRows rows, the last one possibly shorter.
      for (int64_t r0 = 0; r0 < RS; r0 += chunkRows) {
        const int64_t nr = std::min(chunkRows, RS - r0);
        const char *kernelSrc = blockSrc;
        for (int64_t k = 0; k < kn; ++k, kernelSrc += kernelStride) {
          if (SB == DB && r0 == 0 && c0 + atomicC < C) {
            // Each kernel of the group is its own read stream, more than
            // the hardware prefetcher follows: fetch this kernel's next
            // channel block while this one is transposed.
            const char *next = kernelSrc + cn * RS * SB;
            const int64_t nextBytes = std::min(atomicC, C - c0 - atomicC) * RS * SB;
            for (int64_t b = 0; b < nextBytes; b += 64)
              __builtin_prefetch(next + b);
          }
          Filler::fill(kernelSrc, cn, RS, r0, nr, blockEnd, tmp + k * cn * DB, rowElems);
        }
        emit(out + r0 * rowElems * DB, tmp, nr * rowElems * DB, streaming);
      }
      out += RS * rowElems * DB;
    }
  }
#ifdef DLA_NVDLA_WEIGHT_SSE2
  if (streaming)
    _mm_sfence();
#endif
}

/// Outputs of at least this many bytes per thread are split across threads.
constexpr int64_t kBytesPerThread = int64_t(8) << 20;

template <int64_t SB, int64_t DB>
void packDirect(const char *src, int64_t K, int64_t C, int64_t RS, int64_t kpg,
                int64_t atomicC, char *dst, Fp16Rounding rounding) {
  const int64_t groups = (K + kpg - 1) / kpg;
  const int64_t groupBytes = std::max<int64_t>(1, kpg * C * RS * DB);
  parallelRanges(groups, (kBytesPerThread + groupBytes - 1) / groupBytes,
                 [&](int64_t g0, int64_t g1) {
                   packDirectGroups<SB, DB>(src, K, C, RS, kpg, atomicC,
                                            dst + g0 * kpg * C * RS * DB, rounding, g0, g1,
                                            K * C * RS * DB >= kStreamingThreshold);
                 });
}

} // namespace

void dlaformat::nvdla::detail::packDirectStream(const WeightLayoutImpl &impl, SourceKind kind,
                                                  const char *src, char *dst) {
  const WeightShape &shape = impl.params.shape;
  const int64_t K = shape.kernels, C = shape.channels, RS = shape.height * shape.width;
  const int64_t kpg = impl.kernelsPerGroup, aC = impl.params.hardware.atomicC;
  switch (kind) {
  case SourceKind::Raw1:
    return packDirect<1, 1>(src, K, C, RS, kpg, aC, dst, Fp16Rounding::TiesToEven);
  case SourceKind::Raw2:
    return packDirect<2, 2>(src, K, C, RS, kpg, aC, dst, Fp16Rounding::TiesToEven);
  case SourceKind::Fp32ToFp16TE:
    return packDirect<4, 2>(src, K, C, RS, kpg, aC, dst, Fp16Rounding::TiesToEven);
  case SourceKind::Fp32ToFp16TA:
    return packDirect<4, 2>(src, K, C, RS, kpg, aC, dst, Fp16Rounding::TiesAwayFromZero);
  }
}

void dlaformat::nvdla::detail::packDirectGroupRange(const WeightLayoutImpl &impl,
                                                      SourceKind kind, const char *src,
                                                      int64_t g0, int64_t g1, char *out) {
  const WeightShape &shape = impl.params.shape;
  const int64_t K = shape.kernels, C = shape.channels, RS = shape.height * shape.width;
  const int64_t kpg = impl.kernelsPerGroup, aC = impl.params.hardware.atomicC;
  // A piece is read right after it is written: no streaming stores.
  switch (kind) {
  case SourceKind::Raw1:
    return packDirectGroups<1, 1>(src, K, C, RS, kpg, aC, out, Fp16Rounding::TiesToEven, g0, g1,
                                  false);
  case SourceKind::Raw2:
    return packDirectGroups<2, 2>(src, K, C, RS, kpg, aC, out, Fp16Rounding::TiesToEven, g0, g1,
                                  false);
  case SourceKind::Fp32ToFp16TE:
    return packDirectGroups<4, 2>(src, K, C, RS, kpg, aC, out, Fp16Rounding::TiesToEven, g0, g1,
                                  false);
  case SourceKind::Fp32ToFp16TA:
    return packDirectGroups<4, 2>(src, K, C, RS, kpg, aC, out, Fp16Rounding::TiesAwayFromZero,
                                  g0, g1, false);
  }
}

//===----------------------------------------------------------------------===//
// Registration (the direct row of weightFormatTable)
//===----------------------------------------------------------------------===//

namespace {
Expected<WeightGeometry> planDirect(const WeightParams &params, WeightLayoutImpl &impl) {
  WeightGeometry geometry;
  geometry.kernelElements = impl.numLogicalElements / params.shape.kernels;
  return geometry;
}

SurfaceProgram directProgram(const WeightLayoutImpl &impl, const WeightSurface &) {
  const WeightShape &s = impl.params.shape;
  return buildDirectProgram(s.channels, s.height, s.width, impl.params.hardware.atomicC);
}

void packDirect(const WeightLayoutImpl &impl, SourceKind kind, const char *src, char *dst,
                Fp16Rounding) {
  packDirectStream(impl, kind, src, dst);
}
} // namespace

const WeightFormatOps dlaformat::nvdla::detail::kDirectWeightOps = {
    /*imageParams=*/false, /*usesStride=*/false, /*notInvertible=*/{}, /*checkOptions=*/nullptr,
    planDirect, directProgram, packDirect};
