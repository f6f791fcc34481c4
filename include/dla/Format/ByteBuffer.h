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

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

namespace dla::format {

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
    void *p = std::malloc(bytes ? static_cast<size_t>(bytes) : 1);
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

} // namespace dla::format

#endif // DLA_FORMAT_BYTEBUFFER_H
