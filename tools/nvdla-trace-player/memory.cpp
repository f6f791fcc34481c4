#include "memory.h"

namespace nvdla_trace {

Memory::Memory(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
  socket.register_b_transport(this, &Memory::b_transport);
}

void Memory::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &) {
  access(gp, writeBase ? writeBase(gp.get_address()) : gp.get_address());
}

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
