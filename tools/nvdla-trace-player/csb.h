// One 32-bit register access through NV_nvdla's CSB host interface (a TLM-2
// target socket), as the trace player and the loadable harness
// (tools/nvdla-loadable-runner) make it. Returns whether the model answered
// OK. The CSB adaptor returns read data through one FIFO to whichever
// thread reads first: callers use the bus from one thread at a time.
#ifndef NVDLA_TRACE_PLAYER_CSB_H
#define NVDLA_TRACE_PLAYER_CSB_H

#include <systemc.h>
#include <tlm.h>

#include <cstdint>

namespace nvdla_trace {

template <class InitiatorSocket>
bool csbTransport(InitiatorSocket &csb, tlm::tlm_command kind, uint32_t addr, uint32_t &data) {
  tlm::tlm_generic_payload gp;
  gp.set_command(kind);
  gp.set_address(addr);
  gp.set_data_ptr(reinterpret_cast<unsigned char *>(&data));
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  csb->b_transport(gp, delay);
  return gp.is_response_ok();
}

} // namespace nvdla_trace

#endif
