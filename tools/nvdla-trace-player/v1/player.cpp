#include "player.h"

#include "../csb.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace nvdla_trace::v1 {

using namespace sc_core;

static std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

static const sc_time kPoll(10, SC_NS);          // between read_reg polls, and wait's
static constexpr uint64_t kWaitPolls = 100000; // 1 ms of simulated time (layers end within 1 us)

Player::Player(sc_module_name name, std::vector<TxnCommand> cmds, PlusArgs plusArgs,
               const RegisterMap &regs, std::string testDir, bool verbose)
    : sc_module(name), csb("csb"), intr("intr"), memory("memory"), cvsram("cvsram", memory),
      commands(std::move(cmds)), plusArgs(plusArgs), regs(regs), testDir(std::move(testDir)),
      verbose(verbose), statusReg(regs.address("NVDLA_GLB.S_INTR_STATUS_0")) {
  SC_THREAD(replay);
}

std::string Player::regName(uint32_t addr) const {
  std::string name = regs.nameOf(addr);
  return hex(0xffff0000u | addr >> 2) + (name.empty() ? "" : " (" + name + ")");
}

void Player::fail(const TxnCommand &c, const std::string &what) {
  errors.push_back("line " + std::to_string(c.line) + ": " + what);
  if (!plusArgs.continueOnFail)
    stopped = true;
}

uint32_t Player::csbRead(uint32_t addr) {
  uint32_t data = 0;
  if (!csbTransport(csb, tlm::TLM_READ_COMMAND, addr, data))
    throw std::runtime_error("CSB read of " + regName(addr) + " failed");
  return data;
}

void Player::csbWrite(uint32_t addr, uint32_t data) {
  if (!csbTransport(csb, tlm::TLM_WRITE_COMMAND, addr, data))
    throw std::runtime_error("CSB write of " + regName(addr) + " failed");
}

void Player::writeReg(const TxnCommand &c) {
  uint32_t data = c.data;
  written[c.reg] = c.data;
  if (c.reg == statusReg) {
    // On the RTL the trace's clear meets only the bit its wait saw; the
    // model has set the layer's other done bits already, which the next
    // waits expect: clear only the delivered ones.
    data &= delivered;
    delivered &= ~data;
  }
  csbWrite(c.reg, data);
}

uint32_t Player::readForTrace(const TxnCommand &c) {
  uint32_t got = csbRead(c.reg);
  if (c.reg != statusReg)
    return got;
  // The status as the RTL would show it: the bits delivered to the trace,
  // and those this read asks for (a poll without a wait).
  delivered |= got & c.data & c.mask;
  return got & delivered;
}

void Player::readReg(const TxnCommand &c) {
  uint32_t got = readForTrace(c);
  std::string name = regs.nameOf(c.reg);
  bool opEnable = name == "NVDLA_BDMA_CFG_OP_0" ||
                  (name.size() > 13 && name.compare(name.size() - 13, 13, "D_OP_ENABLE_0") == 0);
  // The model's timing, not the data (BUILDING.md): checked once, skipped.
  // An enable reads 0 once the model took it: only after the trace set it.
  auto it = written.find(c.reg);
  bool enabled = it != written.end() && (it->second & c.data & c.mask) == (c.data & c.mask);
  if ((opEnable && enabled && (c.data & c.mask) && !(got & c.mask)) ||
      (name == "NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0" && (c.data & c.mask) == 0 && (got & c.mask))) {
    ++count.skipped;
    if (verbose)
      std::printf("line %d: read_reg %s: read %s, expected %s: skipped (model timing)\n", c.line,
                  regName(c.reg).c_str(), hex(got).c_str(), hex(c.data).c_str());
    return;
  }
  for (uint64_t polls = 0; (got & c.mask) != c.data; ++polls) {
    if (polls >= plusArgs.pollRetries) {
      fail(c, "read_reg " + regName(c.reg) + ": read " + hex(got) + ", mask " + hex(c.mask) + ", expected " +
                  hex(c.data) + " (" + std::to_string(polls + 1) + " reads)");
      return;
    }
    wait(kPoll);
    got = readForTrace(c);
  }
  ++count.regChecks;
}

void Player::waitInterrupt(size_t index) {
  // The bits the trace checks next, before its next wait; else (a trace
  // that clears all and expects 0) one bit not delivered yet, the lowest.
  uint32_t want = 0;
  for (size_t i = index + 1; i < commands.size() && commands[i].kind != TxnCommand::Wait && !want; ++i)
    if (commands[i].kind == TxnCommand::ReadReg && commands[i].reg == statusReg)
      want = commands[i].data & commands[i].mask;
  std::string what = "line " + std::to_string(commands[index].line) + ": wait for GLB.S_INTR_STATUS_0 " +
                     (want ? hex(want) : "any bit");
  for (uint64_t polls = 0;; ++polls) {
    uint32_t status = csbRead(statusReg), fresh = status & ~delivered;
    if (want ? status & want : fresh) {
      delivered |= want ? status & want : fresh & -fresh;
      break;
    }
    if (polls >= kWaitPolls)
      throw std::runtime_error(what + ": not set after 1 ms of simulated time (status " + hex(status) + ")");
    // The line is a hint (several model processes drive it): poll too.
    wait(kPoll, intr.value_changed_event());
  }
  if (verbose)
    std::printf("line %d: wait: %s at %s\n", commands[index].line, want ? hex(want).c_str() : "interrupt",
                sc_time_stamp().to_string().c_str());
}

void Player::loadMem(const TxnCommand &c) {
  // LEN bounds the load, as the testbench's $readmemh end address: the
  // sanity traces' files hold 16 KB where the trace loads 4 KB; weight
  // files hold less than the LEN they are loaded with.
  std::vector<uint8_t> bytes = parseByteFile(testDir + "/" + c.file);
  memory.write(c.addr, bytes.data(), std::min<uint64_t>(bytes.size(), c.size));
}

void Player::dumpMem(const TxnCommand &c) {
  std::vector<uint8_t> golden = parseByteFile(testDir + "/" + c.file);
  if (golden.size() != c.size)
    throw std::runtime_error("line " + std::to_string(c.line) + ": dump_mem: " + c.file + " holds " +
                             std::to_string(golden.size()) + " bytes, not " + hex(c.size));
  std::vector<uint8_t> got(c.size);
  memory.read(c.addr, got.data(), got.size());
  if (!dumpDir.empty()) {
    std::string path = dumpDir + "/dump_" + std::to_string(c.line) + ".bin";
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(got.data(), 1, got.size(), f) != got.size())
      fail(c, "cannot write " + path);
    if (f)
      std::fclose(f);
  }
  ++count.dumps;
  count.dumpBytes += got.size();
  uint64_t wrong = 0, first = 0;
  for (uint64_t i = 0; i < got.size(); ++i)
    if (got[i] != golden[i] && !wrong++)
      first = i;
  if (wrong)
    fail(c, "dump_mem MISMATCH: " + std::to_string(wrong) + " of " + std::to_string(got.size()) +
                " bytes differ from " + c.file + ", first at " + hex(c.addr + first) + ": " +
                hex(got[first]) + ", golden " + hex(golden[first]));
}

void Player::replay() {
  // Start after every model thread has run to its first wait (as the
  // master player does).
  wait(SC_ZERO_TIME);
  try {
    for (size_t i = 0; i < commands.size() && !stopped; ++i) {
      const TxnCommand &c = commands[i];
      switch (c.kind) {
      case TxnCommand::WriteReg: writeReg(c); break;
      case TxnCommand::ReadReg: readReg(c); break;
      case TxnCommand::Wait: waitInterrupt(i); break;
      case TxnCommand::LoadMem: loadMem(c); break;
      case TxnCommand::DumpMem: dumpMem(c); break;
      }
    }
    done = !stopped;
  } catch (const std::exception &e) {
    errors.push_back(e.what());
  }
  sc_stop();
}

} // namespace nvdla_trace::v1
