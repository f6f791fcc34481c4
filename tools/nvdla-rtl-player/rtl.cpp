#include "rtl.h"

#include <cstdio>
#include <string>

namespace nvdla_rtl {

Rtl::Rtl(MemoryTiming timing, Limits limits)
    : timing(timing), context(std::make_unique<VerilatedContext>()), limits(limits),
      start(std::chrono::steady_clock::now()) {
  // The RTL asks for plusargs ($test$plusargs): none.
  static const char *args[] = {"nvdla-rtl-player"};
  context->commandArgs(1, args);
  top = std::make_unique<VNV_nvdla>(context.get());
  memory = std::make_unique<AxiMemory<VNV_nvdla>>(*top, dbb, timing);
  top->global_clk_ovr_on = 0;
  top->tmc2slcg_disable_clock_gating = 0;
  top->test_mode = 0;
  top->nvdla_pwrbus_ram_c_pd = 0;
  top->nvdla_pwrbus_ram_ma_pd = 0;
  top->nvdla_pwrbus_ram_mb_pd = 0;
  top->nvdla_pwrbus_ram_p_pd = 0;
  top->nvdla_pwrbus_ram_o_pd = 0;
  top->nvdla_pwrbus_ram_a_pd = 0;
  top->csb2nvdla_valid = 0;
  top->csb2nvdla_nposted = 0;
}

Rtl::~Rtl() { top->final(); }

double Rtl::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void Rtl::edge() {
  ++edges;
  top->dla_core_clk = 1;
  top->dla_csb_clk = 1;
  top->eval();
  top->dla_core_clk = 0;
  top->dla_csb_clk = 0;
  top->eval();
}

void Rtl::reset() {
  auto cyclesWith = [&](int rstn, int n) {
    top->dla_reset_rstn = rstn;
    top->direct_reset_ = rstn;
    for (int i = 0; i < n; ++i) {
      memory->drive(0);
      edge();
    }
  };
  cyclesWith(1, 20);
  cyclesWith(0, 20);
  cyclesWith(1, 8192);
  cycles = 0;
}

void Rtl::tick() {
  memory->drive(cycles);
  top->eval(); // settle what depends on the inputs before sampling handshakes
  memory->sample(cycles);
  csbAccepted = top->csb2nvdla_valid && top->csb2nvdla_ready;
  edge();
  // Outputs after the edge: a read's data comes with nvdla2csb_valid.
  csbResponded = top->nvdla2csb_valid;
  csbData = top->nvdla2csb_data;
  ++cycles;
  if (cycles > limits.maxCycles)
    throw Timeout("no end after " + std::to_string(limits.maxCycles) + " cycles (--max-cycles)");
  if ((cycles & 0xffff) == 0 && seconds() > limits.maxSeconds) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "no end after %g s of wall-clock time (--timeout), at cycle %llu",
                  limits.maxSeconds, (unsigned long long)cycles);
    throw Timeout(buf);
  }
}

void Rtl::csbWrite(uint32_t byteAddress, uint32_t data) {
  top->csb2nvdla_valid = 1;
  top->csb2nvdla_addr = byteAddress >> 2;
  top->csb2nvdla_wdat = data;
  top->csb2nvdla_write = 1;
  top->csb2nvdla_nposted = 0;
  do
    tick();
  while (!csbAccepted);
  top->csb2nvdla_valid = 0;
}

uint32_t Rtl::csbRead(uint32_t byteAddress) {
  top->csb2nvdla_valid = 1;
  top->csb2nvdla_addr = byteAddress >> 2;
  top->csb2nvdla_write = 0;
  do
    tick();
  while (!csbAccepted);
  top->csb2nvdla_valid = 0;
  uint64_t asked = cycles;
  while (!csbResponded) {
    if (cycles - asked > 100000)
      throw std::runtime_error("CSB read of " + std::to_string(byteAddress) + " never answered");
    tick();
  }
  return csbData;
}

} // namespace nvdla_rtl
