// Replays one trace test against NVIDIA's C model: registers through the
// CSB host interface, memory behind the DBB and CV-SRAM sockets, interrupts
// handled as verif/testbench's trace player does (read GLB.S_INTR_STATUS,
// match each unmasked bit to the next intr_notify of its block, write the
// bits back to clear them).
#ifndef NVDLA_TRACE_PLAYER_PLAYER_H
#define NVDLA_TRACE_PLAYER_PLAYER_H

#include "memory.h"
#include "register_map.h"
#include "trace.h"

#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace nvdla_trace {

class Player : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<Player> csb; // to NV_nvdla's host interface
  sc_core::sc_in<bool> intr;
  Memory dbb, cvsram; // pri_mem, sec_mem

  SC_HAS_PROCESS(Player);
  Player(sc_core::sc_module_name name, std::vector<Command> commands,
         const RegisterMap &regs, std::string testDir, bool verbose);

  // After sc_start returns: did every command run, every check pass?
  bool finished() const { return done; }
  const std::vector<std::string> &failures() const { return errors; }
  int crcChecks() const { return crcCount; }
  // What the replay was blocked on when the model stopped (starvation).
  std::string blockedOn() const { return waitingFor; }

private:
  void replay();     // SC_THREAD: the trace, in order
  void interrupts(); // SC_THREAD: the testbench's interrupt handler
  void loadMemory(const Command &cmd);
  void waitFor(const std::string &syncId);
  Memory &memory(const Command &cmd, const std::string &which);
  uint32_t csbRead(uint32_t addr);
  void csbWrite(uint32_t addr, uint32_t data);
  void csbAccess(tlm::tlm_command kind, uint32_t addr, uint32_t &data);
  void fail(const Command &cmd, const std::string &what);
  void fatal(const std::string &what);

  std::vector<Command> commands;
  const RegisterMap &regs;
  std::string testDir;
  bool verbose;

public:
  /// When set, each check_crc region is written to <dumpDir>/check_<line>.bin.
  std::string dumpDir;

private:
  sc_core::sc_mutex csbLock;
  std::map<std::string, std::deque<ExpectedInterrupt>> expected; // block -> intr_notify in trace order
  std::set<std::string> fired, notified;
  sc_core::sc_event firedEvent;
  std::vector<std::string> errors;
  std::string waitingFor;
  int crcCount = 0;
  bool done = false;
};

} // namespace nvdla_trace

#endif
