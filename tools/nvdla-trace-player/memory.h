// The memory behind one of NV_nvdla's AXI initiator sockets (DBB or
// CV-SRAM): sparse, byte addressed, TLM-2 blocking target.
#ifndef NVDLA_TRACE_PLAYER_MEMORY_H
#define NVDLA_TRACE_PLAYER_MEMORY_H

#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace nvdla_trace {

class Memory : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<Memory> socket;

  explicit Memory(sc_core::sc_module_name name);

  void write(uint64_t addr, const uint8_t *data, uint64_t size);
  void read(uint64_t addr, uint8_t *data, uint64_t size);
  // zlib's CRC32 of [addr, addr + size), as the testbench's check_crc.
  uint32_t crc32(uint64_t addr, uint64_t size);
  // One TLM access, its write's data byte 0 placed at `writeAddress` (the
  // payload's address but for v1's CV-SRAM lanes, v1/cvsram_port.h); write
  // strobes honoured.
  void access(tlm::tlm_generic_payload &gp, uint64_t writeAddress);
  // Reads of bytes never written (they read as 0; the testbench's default
  // is random bytes, so a test that depends on them is suspect).
  uint64_t uninitializedReads() const { return uninitialized; }

private:
  static constexpr uint64_t kPageBits = 16;
  struct Page {
    std::array<uint8_t, 1u << kPageBits> bytes{};
    std::array<uint8_t, (1u << kPageBits) / 8> written{}; // one bit per byte
  };
  Page &page(uint64_t addr);
  void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages;
  uint64_t uninitialized = 0;
};

} // namespace nvdla_trace

#endif
