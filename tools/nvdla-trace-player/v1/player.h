// Replays one of NVIDIA's v1 trace tests (input.txn) on the v1 C model:
// registers through the CSB host interface, one memory behind both AXI
// sockets (CV-SRAM writes by byte lane, cvsram_port.h), dump_mem compared
// with NVIDIA's golden bytes. The model's timing differs from the RTL the
// traces were recorded on in three ways the replay handles explicitly
// (../shared/nvdla-hw-v1/BUILDING.md; docs/NvdlaCModelV1.md):
//  - every done interrupt of a layer is set before the trace's first wait:
//    each wait waits for the status bit the trace checks next (or takes one
//    bit), the trace reads GLB.S_INTR_STATUS as the bits handed to it, and
//    its write-all-ones clear clears only those (the others are the next
//    waits');
//  - the model clears an op-enable bit (D_OP_ENABLE, BDMA CFG_OP) as soon as
//    it takes the configuration: a read_reg expecting it set that reads 0,
//    after the trace wrote it set, is skipped, and counted;
//  - CDMA S_CBUF_FLUSH_STATUS reads 1 where the trace expects 0: skipped,
//    and counted.
#ifndef NVDLA_TRACE_PLAYER_V1_PLAYER_H
#define NVDLA_TRACE_PLAYER_V1_PLAYER_H

#include "../memory.h"
#include "../register_map.h"
#include "cvsram_port.h"
#include "txn.h"

#include <systemc.h>
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <map>
#include <string>
#include <vector>

namespace nvdla_trace::v1 {

struct ReplayCounts {
  int regChecks = 0;      // read_reg checks that matched (not counting skipped)
  int skipped = 0;        // read_reg checks skipped as model timing
  int dumps = 0;          // dump_mem compared
  uint64_t dumpBytes = 0; // bytes compared
};

class Player : public sc_core::sc_module {
public:
  tlm_utils::simple_initiator_socket<Player> csb; // to NV_nvdla's host interface
  sc_core::sc_in<bool> intr;
  Memory memory;     // DBB's socket
  CvsramPort cvsram; // the same bytes for CV-SRAM

  SC_HAS_PROCESS(Player);
  Player(sc_core::sc_module_name name, std::vector<TxnCommand> commands, PlusArgs plusArgs,
         const RegisterMap &regs, std::string testDir, bool verbose);

  bool finished() const { return done; }
  const std::vector<std::string> &failures() const { return errors; }
  const ReplayCounts &counts() const { return count; }
  std::string dumpDir; // when set, each dump_mem region to <dumpDir>/dump_<line>.bin

private:
  void replay(); // SC_THREAD
  void readReg(const TxnCommand &c);
  uint32_t readForTrace(const TxnCommand &c);
  void writeReg(const TxnCommand &c);
  void waitInterrupt(size_t index);
  void loadMem(const TxnCommand &c);
  void dumpMem(const TxnCommand &c);
  uint32_t csbRead(uint32_t addr);
  void csbWrite(uint32_t addr, uint32_t data);
  std::string regName(uint32_t addr) const;
  void fail(const TxnCommand &c, const std::string &what);

  std::vector<TxnCommand> commands;
  PlusArgs plusArgs;
  const RegisterMap &regs;
  std::string testDir;
  bool verbose;
  uint32_t statusReg;     // GLB.S_INTR_STATUS_0
  uint32_t delivered = 0; // its bits handed to the trace (by a wait or a poll)
  std::map<uint32_t, uint32_t> written; // register -> what the trace last wrote
  ReplayCounts count;
  std::vector<std::string> errors;
  bool done = false, stopped = false;
};

} // namespace nvdla_trace::v1

#endif
