//===- ByteBuffer.h - Heap buffers whose allocation may fail ----*- C++ -*-===//
//
// The project builds without exceptions, so a std::vector that cannot get
// its memory terminates the process (LLVM reports "out of memory" and
// aborts). Packing buffers are sized by untrusted IR, so they come from
// here: a failed allocation is an Error the caller turns into a diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_BYTEBUFFER_H
#define DLA_FORMAT_BYTEBUFFER_H

#include "dla/Format/Expected.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <memory>
#include <string>

namespace dlaformat {

/// malloc for a buffer about to be written in full: at least `alignment`
/// aligned; a large one (>= 2 MiB: VGG-16's 1.2-2.4 MB weights included) is
/// 2 MiB aligned and asks for
/// transparent huge pages, so that filling a fresh buffer takes one page
/// fault per 2 MiB rather than per 4 KiB (a third of `dla-opt
/// --dla-pack-weights` was page faults on fresh output), and is faulted in
/// up front in one call. Release with
/// std::free. Null when out of memory.
inline void *allocateForWriting(size_t bytes, size_t alignment = alignof(std::max_align_t)) {
  constexpr size_t kHuge = size_t(2) << 20;
  if (bytes >= kHuge) {
    void *p = nullptr;
    if (posix_memalign(&p, std::max(kHuge, alignment), bytes) != 0)
      return nullptr;
#ifdef MADV_HUGEPAGE
    // Only the whole huge pages inside the buffer: a huge page across its
    // end would add up to 2 MiB of untouched bytes to the RSS.
    madvise(p, bytes / kHuge * kHuge, MADV_HUGEPAGE); // advice: failure is harmless
#endif
#if defined(__linux__)
    // Fault the pages in with one call (Linux 5.14+; older kernels refuse,
    // harmlessly): in a VM, faulting 147 MB page by page as the packer
    // writes took 80-130 ms, populating it in one call 7-65 ms.
    constexpr int kMadvPopulateWrite = 23; // MADV_POPULATE_WRITE, not in every libc header
    madvise(p, bytes / 4096 * 4096, kMadvPopulateWrite);
#endif
    return p;
  }
  if (alignment <= alignof(std::max_align_t))
    return std::malloc(bytes ? bytes : 1);
  const size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded ? rounded : alignment);
}

class ByteBuffer {
public:
  ByteBuffer() = default;

  /// `bytes` uninitialized bytes, or an error naming `what` when the
  /// allocation fails.
  static Expected<ByteBuffer> allocate(int64_t bytes, const std::string &what) {
    if (bytes < 0)
      return makeError("cannot allocate a negative size (" + std::to_string(bytes) +
                       " bytes) for " + what);
    // malloc(0) may return null; one byte keeps null meaning failure.
    void *p = allocateForWriting(static_cast<size_t>(bytes));
    if (!p)
      return makeError("out of memory allocating " + std::to_string(bytes) + " bytes for " + what);
    ByteBuffer buffer;
    buffer.storage.reset(static_cast<char *>(p));
    buffer.bytes = bytes;
    return buffer;
  }

  char *data() const { return storage.get(); }
  int64_t size() const { return bytes; }

private:
  struct Free {
    void operator()(char *p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> storage;
  int64_t bytes = 0;
};

} // namespace dlaformat

#endif // DLA_FORMAT_BYTEBUFFER_H
