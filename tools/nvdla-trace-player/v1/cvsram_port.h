// A second target socket on a Memory, for NV_nvdla's CV-SRAM initiator:
// the v1 trace player's one address space, written by CV-SRAM's byte lanes
// (cvsram_lanes.h).
#ifndef NVDLA_TRACE_PLAYER_V1_CVSRAM_PORT_H
#define NVDLA_TRACE_PLAYER_V1_CVSRAM_PORT_H

#include "../memory.h"
#include "cvsram_lanes.h"

#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

namespace nvdla_trace::v1 {

class CvsramPort : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<CvsramPort> socket;

  CvsramPort(sc_core::sc_module_name name, Memory &memory) : sc_module(name), socket("socket"), memory(memory) {
    socket.register_b_transport(this, &CvsramPort::b_transport);
  }

private:
  void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &) {
    uint64_t addr = gp.get_address();
    unsigned len = gp.get_data_length();
    uint8_t *data = gp.get_data_ptr();
    const uint8_t *be = gp.get_byte_enable_ptr();
    unsigned beLen = gp.get_byte_enable_length();
    if (gp.is_read()) {
      memory.read(addr, data, len);
    } else if (gp.is_write()) {
      uint64_t base = cvsramWriteBase(addr);
      for (unsigned i = 0; i < len; ++i)
        if (!be || !beLen || be[i % beLen] == TLM_BYTE_ENABLED)
          memory.write(base + i, data + i, 1);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  Memory &memory;
};

} // namespace nvdla_trace::v1

#endif
