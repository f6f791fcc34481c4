// NVIDIA's nv_small RTL (Verilated NV_nvdla) with what a trace needs of
// it: the clock, reset, the CSB host port, the DBB memory model, the
// interrupt pin, and the cycle and wall-clock limits.
#ifndef NVDLA_RTL_PLAYER_RTL_H
#define NVDLA_RTL_PLAYER_RTL_H

#include "axi_memory.h"

#include "VNV_nvdla.h"
#include "verilated.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace nvdla_rtl {

// A run past its cycle or wall-clock limit.
struct Timeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Limits {
  uint64_t maxCycles = 200000000; // after reset
  double maxSeconds = 3600;       // wall clock
};

class Rtl {
public:
  Rtl(MemoryTiming timing, Limits limits);
  ~Rtl();

  // Reset as NVIDIA's harness does (verif/verilator/nvdla.cpp): 20 cycles
  // high, 20 low, then 8192 cycles for the buffers to clear. Cycles count
  // from its end.
  void reset();
  // One clock cycle: the memory's and the CSB's inputs, the edge.
  void tick();
  // Register accesses through the CSB port (byte addresses, as opendla.h
  // gives them; the port takes 32-bit word addresses). A write returns at
  // the cycle the port accepts it; a read when its data comes back.
  void csbWrite(uint32_t byteAddress, uint32_t data);
  uint32_t csbRead(uint32_t byteAddress);
  bool interrupt() const { return top->dla_intr; }
  uint64_t cycle() const { return cycles; }
  // Every cycle simulated, the reset's included (for the speed).
  uint64_t simulatedCycles() const { return edges; }
  double seconds() const;

  nvdla_trace::ByteMemory dbb;
  const MemoryTiming timing;
  const MemoryStats &memoryStatistics() const { return memory->statistics(); }

private:
  void edge();
  std::unique_ptr<VerilatedContext> context;
  std::unique_ptr<VNV_nvdla> top;
  std::unique_ptr<AxiMemory<VNV_nvdla>> memory;
  Limits limits;
  uint64_t cycles = 0, edges = 0;
  // What the last edge did on the CSB port.
  bool csbAccepted = false, csbResponded = false;
  uint32_t csbData = 0;
  std::chrono::steady_clock::time_point start;
};

} // namespace nvdla_rtl

#endif
