// The v1 trace tests' files (nvdla/hw branch nvdlav1, verif/traces/
// traceplayer/<test>): input.txn, plusargs.txt and the byte files that
// load_mem reads and dump_mem compares. Parsing only: v1/player.cpp gives
// the commands their meaning (../shared/nvdla-hw-v1/BUILDING.md, "The trace
// format").
#ifndef NVDLA_TRACE_PLAYER_V1_TXN_H
#define NVDLA_TRACE_PLAYER_V1_TXN_H

#include <cstdint>
#include <string>
#include <vector>

namespace nvdla_trace::v1 {

struct TxnCommand {
  enum Kind { WriteReg, ReadReg, Wait, LoadMem, DumpMem } kind;
  int line = 0;
  uint32_t reg = 0;                   // write_reg / read_reg: CSB byte address
  uint32_t data = 0, mask = 0;        // write_reg: data; read_reg: mask, expected (data)
  uint64_t addr = 0, size = 0;        // load_mem / dump_mem
  std::string file;                   // load_mem / dump_mem, relative to the test
};

// input.txn: `write_reg 0xffffWWWW DATA`, `read_reg 0xffffWWWW MASK EXP`,
// `wait`, `load_mem ADDR LEN FILE`, `dump_mem ADDR LEN FILE`; `#` starts a
// comment. WWWW is the CSB word address. Throws naming path:line.
std::vector<TxnCommand> parseTxn(const std::string &path);

// plusargs.txt (optional): +read_reg_poll_retries=N, +continue_on_fail.
struct PlusArgs {
  uint64_t pollRetries = 50000; // verif's input_txn_to_verilator.pl default
  bool continueOnFail = false;
};
PlusArgs parsePlusArgs(const std::string &path); // defaults when absent

// A load_mem / dump_mem byte file: a text header (`Key = value` lines and
// others), lines of ` 0xNN` bytes only, then a text trailer. Throws naming
// path:line on a data line that holds other text, or bytes after the
// trailer began.
std::vector<uint8_t> parseByteFile(const std::string &path);

} // namespace nvdla_trace::v1

#endif
