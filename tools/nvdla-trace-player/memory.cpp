#include "memory.h"

#include <zlib.h>

namespace nvdla_trace {

Memory::Memory(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
  socket.register_b_transport(this, &Memory::b_transport);
}

Memory::Page &Memory::page(uint64_t addr) {
  auto &p = pages[addr >> kPageBits];
  if (!p)
    p = std::make_unique<Page>();
  return *p;
}

void Memory::write(uint64_t addr, const uint8_t *data, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i) {
    uint64_t a = addr + i, off = a & ((1u << kPageBits) - 1);
    Page &p = page(a);
    p.bytes[off] = data[i];
    p.written[off / 8] |= uint8_t(1u << (off % 8));
  }
}

void Memory::read(uint64_t addr, uint8_t *data, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i) {
    uint64_t a = addr + i, off = a & ((1u << kPageBits) - 1);
    Page &p = page(a);
    if (!(p.written[off / 8] & (1u << (off % 8))))
      ++uninitialized;
    data[i] = p.bytes[off];
  }
}

uint32_t Memory::crc32(uint64_t addr, uint64_t size) {
  std::vector<uint8_t> bytes(size);
  read(addr, bytes.data(), size);
  return uint32_t(::crc32(0L, bytes.data(), uInt(size)));
}

void Memory::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &) { access(gp, gp.get_address()); }

void Memory::access(tlm::tlm_generic_payload &gp, uint64_t writeAddress) {
  unsigned len = gp.get_data_length();
  uint8_t *data = gp.get_data_ptr();
  const uint8_t *be = gp.get_byte_enable_ptr();
  unsigned beLen = gp.get_byte_enable_length();
  if (gp.is_read()) {
    read(gp.get_address(), data, len);
  } else if (gp.is_write()) {
    // AXI write strobes: the byte-enable pattern repeats over the data.
    for (unsigned i = 0; i < len; ++i)
      if (!be || !beLen || be[i % beLen] == TLM_BYTE_ENABLED)
        write(writeAddress + i, data + i, 1);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace nvdla_trace
