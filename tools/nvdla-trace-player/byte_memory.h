// A sparse, byte-addressed memory with zlib's CRC-32 of a range: what the
// C-model players (Memory, behind a TLM socket) and the RTL player
// (tools/nvdla-rtl-player, behind AXI pins) store a trace's surfaces in.
// Plain C++ and header-only: the RTL player has no SystemC.
#ifndef NVDLA_TRACE_PLAYER_BYTE_MEMORY_H
#define NVDLA_TRACE_PLAYER_BYTE_MEMORY_H

#include <zlib.h>

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace nvdla_trace {

class ByteMemory {
public:
  void write(uint64_t addr, const uint8_t *data, uint64_t size) {
    for (uint64_t i = 0; i < size; ++i) {
      uint64_t a = addr + i, off = a & kPageMask;
      Page &p = page(a);
      p.bytes[off] = data[i];
      p.written[off / 8] |= uint8_t(1u << (off % 8));
    }
  }
  void read(uint64_t addr, uint8_t *data, uint64_t size) {
    for (uint64_t i = 0; i < size; ++i) {
      uint64_t a = addr + i, off = a & kPageMask;
      Page &p = page(a);
      if (!(p.written[off / 8] & (1u << (off % 8))))
        ++uninitialized;
      data[i] = p.bytes[off];
    }
  }
  // zlib's CRC32 of [addr, addr + size), as the testbench's check_crc.
  uint32_t crc32(uint64_t addr, uint64_t size) {
    std::vector<uint8_t> bytes(size);
    read(addr, bytes.data(), size);
    return uint32_t(::crc32(0L, bytes.data(), uInt(size)));
  }
  // Reads of bytes never written (they read as 0; the testbench's default
  // is random bytes, so a test that depends on them is suspect).
  uint64_t uninitializedReads() const { return uninitialized; }

private:
  static constexpr uint64_t kPageBits = 16, kPageMask = (1u << kPageBits) - 1;
  struct Page {
    std::array<uint8_t, 1u << kPageBits> bytes{};
    std::array<uint8_t, (1u << kPageBits) / 8> written{}; // one bit per byte
  };
  Page &page(uint64_t addr) {
    auto &p = pages[addr >> kPageBits];
    if (!p)
      p = std::make_unique<Page>();
    return *p;
  }

  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages;
  uint64_t uninitialized = 0;
};

} // namespace nvdla_trace

#endif
