// The memory behind one of NV_nvdla's AXI initiator sockets (DBB or
// CV-SRAM): a ByteMemory as a TLM-2 blocking target.
#ifndef NVDLA_TRACE_PLAYER_MEMORY_H
#define NVDLA_TRACE_PLAYER_MEMORY_H

#include "byte_memory.h"

#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

namespace nvdla_trace {

class Memory : public sc_core::sc_module, public ByteMemory {
public:
  tlm_utils::simple_target_socket<Memory> socket;

  explicit Memory(sc_core::sc_module_name name);

  // One TLM access, its write's data byte 0 placed at `writeAddress` (the
  // payload's address but for v1's CV-SRAM lanes, v1/cvsram_port.h); write
  // strobes honoured.
  void access(tlm::tlm_generic_payload &gp, uint64_t writeAddress);

  // Where the socket's writes put data byte 0, from the payload's address
  // (v1/cvsram_lanes.h for v1's CV-SRAM interface); the address itself
  // when null.
  uint64_t (*writeBase)(uint64_t) = nullptr;

private:
  void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
};

} // namespace nvdla_trace

#endif
