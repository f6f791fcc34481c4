//===- PackThreads.h - Splitting one large pack across cores ----*- C++ -*-===//
//
// A single large constant packs on every core: its packer splits the work
// into contiguous ranges (kernel groups for direct weights) written by
// separate threads. Callers that already pack several constants at once
// still win: only packs above a size threshold split. Also the switch for
// the packers' AVX-512 kernels.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_PACKTHREADS_H
#define DLA_FORMAT_PACKTHREADS_H

#include <cstdint>
#include <functional>

namespace dlaformat {

/// Threads one pack may use, the caller's included; 0 (the default) means
/// the hardware's concurrency, 1 disables splitting.
void setPackThreads(int threads);
int getPackThreads();

/// Calls body(begin, end) over [0, n) split into up to getPackThreads()
/// contiguous ranges, on that many threads (the caller runs the first);
/// returns when all are done. `minPerThread` items at least per range.
void parallelRanges(int64_t n, int64_t minPerThread,
                    const std::function<void(int64_t begin, int64_t end)> &body);

/// Lets packers use AVX-512 kernels where the CPU has them (the default).
/// Turned off, they take their SSE2 / scalar paths, which give the same
/// bytes: tests check both on one machine.
void setPackAvx512(bool enabled);
/// True when AVX-512 kernels are enabled and the CPU has AVX-512 BW, VL and VBMI.
bool usePackAvx512();

} // namespace dlaformat

#endif // DLA_FORMAT_PACKTHREADS_H
