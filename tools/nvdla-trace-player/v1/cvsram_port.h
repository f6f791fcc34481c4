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

namespace nvdla_trace::v1 {

class CvsramPort : public sc_core::sc_module {
public:
  tlm_utils::simple_target_socket<CvsramPort> socket;

  CvsramPort(sc_core::sc_module_name name, Memory &memory) : sc_module(name), socket("socket"), memory(memory) {
    socket.register_b_transport(this, &CvsramPort::b_transport);
  }

private:
  void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &) {
    memory.access(gp, cvsramWriteBase(gp.get_address()));
  }

  Memory &memory;
};

} // namespace nvdla_trace::v1

#endif
