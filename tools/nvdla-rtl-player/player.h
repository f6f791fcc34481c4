// Replays one trace test (.cfg, the format tools/nvdla-trace-player reads:
// NVIDIA's nv_small traces and dla-translate --dla-to-nvdla-trace's) on the
// RTL, with the C-model player's meaning of every command: memory loaded
// first, registers written in order, interrupts matched to the trace's
// intr_notify and cleared (write 1 to clear), checks after their event.
// The trace's waits (check_nothing / check_crc) are its sync between
// layers: a register write after a wait is made once the wait is met.
//
// A hardware layer here is a run of register writes and the intr_notify
// commands that follow it; its cycles run from the cycle its last register
// write is accepted to the cycle its last expected interrupt is raised.
#ifndef NVDLA_RTL_PLAYER_PLAYER_H
#define NVDLA_RTL_PLAYER_PLAYER_H

#include "rtl.h"

#include "../nvdla-trace-player/register_map.h"
#include "../nvdla-trace-player/trace.h"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace nvdla_rtl {

struct Layer {
  std::string name;   // the trace's "// layer N: ..." comment, if any
  int writes = 0;     // register writes
  int lastWriteLine = 0;
  uint64_t lastWrite = 0; // cycle its last register write was accepted
  std::vector<nvdla_trace::ExpectedInterrupt> interrupts;
  std::map<std::string, uint64_t> raised; // sync id -> cycle its interrupt was seen
  // Cycles from the last register write to the last interrupt (0 until it came).
  uint64_t cycles() const;
};

class Player {
public:
  Player(Rtl &rtl, std::vector<nvdla_trace::Command> commands, std::vector<Layer> layers,
         const nvdla_trace::RegisterMap &regs, std::string testDir, bool verbose);
  // Runs the trace; false on any failure (failures() says which).
  bool run();
  const std::vector<std::string> &failures() const { return errors; }
  const std::vector<Layer> &layers() const { return layerList; }
  int crcChecks() const { return crcCount; }

private:
  void loadMemory(const nvdla_trace::Command &cmd);
  void waitFor(const std::string &syncId);
  void serviceInterrupts();
  void fail(const nvdla_trace::Command &cmd, const std::string &what);

  Rtl &rtl;
  std::vector<nvdla_trace::Command> commands;
  std::vector<Layer> layerList;
  std::vector<int> layerOf; // command index -> layer index
  const nvdla_trace::RegisterMap &regs;
  std::string testDir;
  bool verbose;
  uint32_t statusReg, maskReg;
  std::map<std::string, std::deque<nvdla_trace::ExpectedInterrupt>> expected; // block -> in trace order
  std::map<std::string, int> layerOfSync;
  std::set<std::string> fired, notified;
  std::vector<std::string> errors;
  int crcCount = 0;
};

// The trace's hardware layers (see above), named by its "// layer" comments.
std::vector<Layer> findLayers(const std::vector<nvdla_trace::Command> &commands,
                              const std::string &tracePath);

} // namespace nvdla_rtl

#endif
