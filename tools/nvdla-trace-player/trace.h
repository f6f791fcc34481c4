// The commands of an NVDLA trace test (.cfg), as verif/testbench's trace
// parser reads them. Parsing only: the player gives them their meaning.
#ifndef NVDLA_TRACE_PLAYER_TRACE_H
#define NVDLA_TRACE_PLAYER_TRACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace nvdla_trace {

struct Command {
  std::string name;              // reg_write, mem_load, check_crc, ...
  std::vector<std::string> args; // trimmed, string literals unquoted
  int line = 0;
};

// Reads a .cfg file: one `name(arg, ...);` per line, `//` comments ignored.
// Throws std::runtime_error naming the file and line on a malformed line.
std::vector<Command> parseTrace(const std::string &path);

// One `{offset:0x.., size:N, payload:0x.. 0x.. ...}` record of a mem_load
// surface file (verif/vip/mem_model's format).
struct SurfaceChunk {
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};
std::vector<SurfaceChunk> parseSurfaceFile(const std::string &path);

// strtoull with base detection; throws on junk.
uint64_t parseNumber(const std::string &text);

// What a mem_init(memory, base, size, pattern) or mem_load(memory, base,
// file) command writes: runs of bytes into its memory (pri_mem, sec_mem),
// `file` read from testDir. Throws naming the line on a bad command.
struct MemoryRun {
  uint64_t address = 0;
  std::vector<uint8_t> bytes;
};
std::string memoryOf(const Command &memCommand);
std::vector<MemoryRun> memoryRuns(const Command &memCommand, const std::string &testDir);

// An intr_notify(BLOCK_G, sync_id): the interrupt of BLOCK's (SDP,
// CDMA_DAT; upper case) register group G the trace expects, the event its
// checks wait for.
struct ExpectedInterrupt {
  std::string block;
  int group = 0;
  std::string syncId;
  int line = 0;
};
ExpectedInterrupt parseIntrNotify(const Command &intrNotify);

} // namespace nvdla_trace

#endif
