// The memory behind NV_nvdla's DBB AXI port on the RTL: a ByteMemory with
// a simple timing model whose two parameters are stated beside every cycle
// count the player prints (docs/NvdlaRtl.md, "The memory model"):
//  - latency: cycles from a read request's acceptance to its first data
//    beat, and from a write's last data beat to its response;
//  - bandwidth: bytes per cycle moved, read and write beats together (a
//    beat is the port's width, 8 bytes on nv_small; credit accrues at
//    `bandwidth` per cycle, at most two beats' worth banked).
// Requests are accepted at once (up to kMaxPending outstanding) and
// answered in order; read data is taken from memory at acceptance.
#ifndef NVDLA_RTL_PLAYER_AXI_MEMORY_H
#define NVDLA_RTL_PLAYER_AXI_MEMORY_H

#include "../nvdla-trace-player/byte_memory.h"

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>

namespace nvdla_rtl {

struct MemoryTiming {
  unsigned latency = 32;  // NVIDIA's Verilator harness's read latency
  double bandwidth = 8.0; // bytes per cycle: one 64-bit beat per cycle
  std::string describe() const {
    char buf[96];
    std::snprintf(buf, sizeof buf, "memory: latency %u cycles, %g B/cycle", latency, bandwidth);
    return buf;
  }
};

struct MemoryStats {
  uint64_t readBeats = 0, writeBeats = 0, readRequests = 0, writeRequests = 0;
};

// Top: the Verilated NV_nvdla (its nvdla_core2dbb_* pins).
template <class Top> class AxiMemory {
  static constexpr unsigned kBeat = sizeof(Top::nvdla_core2dbb_r_rdata); // bytes per beat
  static_assert(kBeat == 8, "the RTL player models a 64-bit DBB port (nv_small)");
  static constexpr size_t kMaxPending = 256;

public:
  AxiMemory(Top &top, nvdla_trace::ByteMemory &memory, MemoryTiming timing)
      : top(top), memory(memory), timing(timing) {}

  // Before the clock edge: the memory's outputs for this cycle.
  void drive(uint64_t cycle) {
    credit = std::min(credit + timing.bandwidth, 2.0 * kBeat);
    top.nvdla_core2dbb_ar_arready = reads.size() < kMaxPending;
    top.nvdla_core2dbb_aw_awready = addresses.size() < kMaxPending;
    bool r = !reads.empty() && reads.front().due <= cycle && credit >= kBeat;
    top.nvdla_core2dbb_r_rvalid = r;
    if (r) {
      const ReadBeat &b = reads.front();
      top.nvdla_core2dbb_r_rid = b.id;
      top.nvdla_core2dbb_r_rlast = b.last;
      top.nvdla_core2dbb_r_rdata = b.data;
    }
    top.nvdla_core2dbb_w_wready = credit - (r ? kBeat : 0) >= kBeat && beats.size() < kMaxPending;
    bool b = !responses.empty() && responses.front().due <= cycle;
    top.nvdla_core2dbb_b_bvalid = b;
    if (b)
      top.nvdla_core2dbb_b_bid = responses.front().id;
  }

  // Before the edge, inputs settled: the transfers this edge makes.
  void sample(uint64_t cycle) {
    if (top.nvdla_core2dbb_r_rvalid && top.nvdla_core2dbb_r_rready) {
      reads.pop_front();
      credit -= kBeat;
      ++stats.readBeats;
    }
    if (top.nvdla_core2dbb_ar_arvalid && top.nvdla_core2dbb_ar_arready) {
      uint64_t addr = uint64_t(top.nvdla_core2dbb_ar_araddr) & ~uint64_t(kBeat - 1);
      unsigned len = top.nvdla_core2dbb_ar_arlen;
      for (unsigned i = 0; i <= len; ++i) {
        ReadBeat beat;
        uint8_t bytes[kBeat];
        memory.read(addr + i * kBeat, bytes, kBeat);
        for (unsigned k = 0; k < kBeat; ++k)
          beat.data |= uint64_t(bytes[k]) << (8 * k);
        beat.id = top.nvdla_core2dbb_ar_arid;
        beat.last = i == len;
        beat.due = cycle + timing.latency; // presented at the edge `latency` cycles later
        reads.push_back(beat);
      }
      ++stats.readRequests;
    }
    if (top.nvdla_core2dbb_aw_awvalid && top.nvdla_core2dbb_aw_awready) {
      addresses.push_back({uint64_t(top.nvdla_core2dbb_aw_awaddr) & ~uint64_t(kBeat - 1),
                           unsigned(top.nvdla_core2dbb_aw_awlen), uint8_t(top.nvdla_core2dbb_aw_awid)});
      ++stats.writeRequests;
    }
    if (top.nvdla_core2dbb_w_wvalid && top.nvdla_core2dbb_w_wready) {
      beats.push_back({uint64_t(top.nvdla_core2dbb_w_wdata), uint8_t(top.nvdla_core2dbb_w_wstrb),
                       bool(top.nvdla_core2dbb_w_wlast)});
      credit -= kBeat;
      ++stats.writeBeats;
    }
    while (!addresses.empty() && !beats.empty()) {
      WriteAddress &aw = addresses.front();
      const WriteBeat &w = beats.front();
      if (w.last != (aw.len == 0))
        throw std::runtime_error("AXI write: wlast does not match awlen (protocol error)");
      for (unsigned k = 0; k < kBeat; ++k)
        if (w.strobe >> k & 1) {
          uint8_t byte = uint8_t(w.data >> (8 * k));
          memory.write(aw.addr + k, &byte, 1);
        }
      if (w.last) {
        responses.push_back({aw.id, cycle + timing.latency});
        addresses.pop_front();
      } else {
        --aw.len;
        aw.addr += kBeat;
      }
      beats.pop_front();
    }
    if (top.nvdla_core2dbb_b_bvalid && top.nvdla_core2dbb_b_bready)
      responses.pop_front();
  }

  const MemoryStats &statistics() const { return stats; }
  bool idle() const { return reads.empty() && addresses.empty() && beats.empty() && responses.empty(); }

private:
  struct ReadBeat {
    uint64_t data = 0, due = 0;
    uint8_t id = 0;
    bool last = false;
  };
  struct WriteAddress {
    uint64_t addr;
    unsigned len;
    uint8_t id;
  };
  struct WriteBeat {
    uint64_t data;
    uint8_t strobe;
    bool last;
  };
  struct Response {
    uint8_t id;
    uint64_t due;
  };

  Top &top;
  nvdla_trace::ByteMemory &memory;
  MemoryTiming timing;
  double credit = 0;
  std::deque<ReadBeat> reads;
  std::deque<WriteAddress> addresses;
  std::deque<WriteBeat> beats;
  std::deque<Response> responses;
  MemoryStats stats;
};

} // namespace nvdla_rtl

#endif
