#include "player.h"

#include "csb.h"
#ifdef NVDLA_V1
#include "v1/cvsram_lanes.h"
#endif

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace nvdla_trace {

using namespace sc_core;

static std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

Player::Player(sc_module_name name, std::vector<Command> cmds, const RegisterMap &regs,
               std::string testDir, bool verbose)
    : sc_module(name), csb("csb"), intr("intr"), dbb("dbb"), cvsram("cvsram"),
      commands(std::move(cmds)), regs(regs), testDir(std::move(testDir)), verbose(verbose) {
#ifdef NVDLA_V1
  // v1's CV-SRAM interface sends an unaligned write's data from the 64-byte
  // boundary below its address: sec_mem places it by byte lane, as the v1
  // player's one memory does (v1/cvsram_lanes.h).
  cvsram.writeBase = v1::cvsramWriteBase;
#endif
  // The testbench hands every intr_notify to its interrupt handler before
  // the simulation starts: "SDP_0" is block SDP, register group 0.
  for (const Command &cmd : commands) {
    if (cmd.name != "intr_notify")
      continue;
    ExpectedInterrupt e = parseIntrNotify(cmd);
    expected[e.block].push_back(e);
  }
  SC_THREAD(replay);
  SC_THREAD(interrupts);
}

void Player::fail(const Command &cmd, const std::string &what) {
  errors.push_back("line " + std::to_string(cmd.line) + ": " + cmd.name + ": " + what);
}

void Player::fatal(const std::string &what) {
  errors.push_back(what);
  sc_stop();
  wait(); // never resumes: the simulation is over
}

void Player::csbAccess(tlm::tlm_command kind, uint32_t addr, uint32_t &data) {
  // One transaction at a time: both threads use the bus, and the CSB
  // adaptor returns read data through one FIFO, first come first served.
  csbLock.lock();
  bool ok = csbTransport(csb, kind, addr, data);
  csbLock.unlock();
  if (!ok)
    fatal("CSB " + std::string(kind == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
          hex(addr) + " failed");
}

uint32_t Player::csbRead(uint32_t addr) {
  uint32_t data = 0;
  csbAccess(tlm::TLM_READ_COMMAND, addr, data);
  return data;
}

void Player::csbWrite(uint32_t addr, uint32_t data) { csbAccess(tlm::TLM_WRITE_COMMAND, addr, data); }

Memory &Player::memory(const Command &cmd, const std::string &which) {
  // check_crc writes the primary memory as "1" in some generated traces.
  if (which == "pri_mem" || which == "1")
    return dbb;
  if (which == "sec_mem" || which == "2")
    return cvsram;
  throw std::runtime_error("line " + std::to_string(cmd.line) + ": unknown memory '" + which + "'");
}

void Player::loadMemory(const Command &cmd) {
  Memory &mem = memory(cmd, memoryOf(cmd));
  for (const MemoryRun &run : memoryRuns(cmd, testDir))
    mem.write(run.address, run.bytes.data(), run.bytes.size());
}

void Player::waitFor(const std::string &syncId) {
  waitingFor = syncId;
  while (!fired.count(syncId))
    wait(firedEvent);
  waitingFor.clear();
}

void Player::replay() {
  // Start after every model thread has run to its first wait: replayed in
  // the very first delta, a CDP layer was enabled but never started.
  wait(SC_ZERO_TIME);
  try {
    // The testbench's memory model takes every memory command before the
    // simulation starts, whatever their place in the trace.
    for (const Command &cmd : commands)
      if (cmd.name == "mem_init" || cmd.name == "mem_load")
        loadMemory(cmd);
    for (const Command &cmd : commands) {
      const auto &a = cmd.args;
      auto need = [&](size_t n) {
        if (a.size() != n)
          throw std::runtime_error("line " + std::to_string(cmd.line) + ": " + cmd.name + " takes " +
                                   std::to_string(n) + " arguments");
      };
      if (cmd.name == "mem_init" || cmd.name == "mem_load" || cmd.name == "intr_notify") {
        // done above / registered at construction
      } else if (cmd.name == "reg_write") {
        need(2);
        csbWrite(regs.address(a[0]), uint32_t(parseNumber(a[1])));
      } else if (cmd.name == "poll_reg_equal") {
        need(2);
        uint32_t addr = regs.address(a[0]), want = uint32_t(parseNumber(a[1]));
        int polls = 0;
        while (csbRead(addr) != want) {
          if (++polls > 100000) // 1 ms of simulated time
            throw std::runtime_error("line " + std::to_string(cmd.line) + ": " + a[0] +
                                     " never reads " + a[1]);
          wait(10, SC_NS);
        }
      } else if (cmd.name == "sync_notify") {
        need(2);
        notified.insert(a[1]);
      } else if (cmd.name == "sync_wait") {
        // The trace orders each block's commands; replayed in one thread,
        // a wait is met when its notify came earlier in the file.
        need(2);
        if (!notified.count(a[1]))
          fail(cmd, a[1] + " is not notified before it is waited for");
      } else if (cmd.name == "check_crc") { // (sync_id, memory, base, size, golden)
        need(5);
        waitFor(a[0]);
        uint64_t base = parseNumber(a[2]), size = parseNumber(a[3]);
        uint32_t golden = uint32_t(parseNumber(a[4]));
        uint32_t got = memory(cmd, a[1]).crc32(base, size);
        if (!dumpDir.empty()) {
          std::vector<uint8_t> bytes(size);
          memory(cmd, a[1]).read(base, bytes.data(), size);
          std::string path = dumpDir + "/check_" + std::to_string(cmd.line) + ".bin";
          if (FILE *f = std::fopen(path.c_str(), "wb")) {
            std::fwrite(bytes.data(), 1, bytes.size(), f);
            std::fclose(f);
          } else {
            fail(cmd, "cannot write " + path);
          }
        }
        ++crcCount;
        std::string what = a[1] + " [" + hex(base) + ", +" + hex(size) + "): crc " + hex(got) +
                           ", golden " + hex(golden);
        if (got != golden)
          fail(cmd, "MISMATCH " + what);
        else if (verbose)
          std::printf("check_crc %s: ok %s\n", a[0].c_str(), what.c_str());
      } else if (cmd.name == "check_nothing") {
        need(1);
        waitFor(a[0]);
      } else {
        throw std::runtime_error("line " + std::to_string(cmd.line) + ": unknown command " + cmd.name);
      }
    }
    // Like the testbench, the test ends when every expected interrupt came.
    for (auto &[block, queue] : expected)
      for (const ExpectedInterrupt &e : std::deque<ExpectedInterrupt>(queue))
        waitFor(e.syncId);
    done = true;
    sc_stop();
  } catch (const std::exception &e) {
    errors.push_back(e.what()); // no wait() in a handler: end the thread
    sc_stop();
  }
}

void Player::interrupts() {
  const uint32_t statusReg = regs.address("NVDLA_GLB.S_INTR_STATUS_0");
  const uint32_t maskReg = regs.address("NVDLA_GLB.S_INTR_MASK_0");
  int idle = 0;
  while (true) {
    // The line is only a hint: several model processes write it in the same
    // delta (a source's "true" and GLB's "false" after a clear), and the
    // last one wins. So the status is read again on every change of the
    // line, and polled while the line is high with nothing unmasked.
    uint32_t status = csbRead(statusReg), mask = csbRead(maskReg);
    uint32_t bits = status & ~mask;
    if (!bits) {
      if (!intr.read()) {
        idle = 0;
        wait(intr.value_changed_event());
      } else if (++idle > 1000) {
        fatal("the interrupt line stays high with no unmasked status bit");
      } else {
        wait(1, SC_NS);
      }
      continue;
    }
    for (int bit = 0; bit < 32; ++bit) {
      if (!(bits >> bit & 1))
        continue;
      auto src = regs.interruptBits().find(bit);
      if (src == regs.interruptBits().end())
        fatal("interrupt status bit " + std::to_string(bit) + " names no block");
      const InterruptSource &s = src->second;
      auto &queue = expected[s.block];
      auto it = std::find_if(queue.begin(), queue.end(),
                             [&](const ExpectedInterrupt &e) { return e.group == s.group; });
      if (it == queue.end())
        fatal("unexpected interrupt: " + s.block + " done, group " + std::to_string(s.group) +
              " (no intr_notify left for it)");
      if (verbose)
        std::printf("interrupt %s_%d -> %s at %s\n", s.block.c_str(), s.group, it->syncId.c_str(),
                    sc_time_stamp().to_string().c_str());
      fired.insert(it->syncId);
      queue.erase(it);
    }
    firedEvent.notify(SC_ZERO_TIME);
    csbWrite(statusReg, bits); // write 1 to clear
  }
}

} // namespace nvdla_trace
