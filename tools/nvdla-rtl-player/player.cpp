#include "player.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace nvdla_rtl {

using nvdla_trace::Command;
using nvdla_trace::ExpectedInterrupt;
using nvdla_trace::parseNumber;

static std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

uint64_t Layer::cycles() const {
  uint64_t last = 0;
  for (const auto &[id, at] : raised)
    last = std::max(last, at);
  return raised.size() == interrupts.size() && last >= lastWrite ? last - lastWrite : 0;
}

std::vector<Layer> findLayers(const std::vector<Command> &commands, const std::string &tracePath) {
  std::vector<Layer> layers(1);
  std::vector<int> firstLine(1, 0);
  for (const Command &cmd : commands) {
    if (cmd.name == "reg_write") {
      if (!layers.back().interrupts.empty()) {
        layers.emplace_back();
        firstLine.push_back(0);
      }
      if (!layers.back().writes)
        firstLine.back() = cmd.line;
      ++layers.back().writes;
      layers.back().lastWriteLine = cmd.line;
    } else if (cmd.name == "intr_notify") {
      layers.back().interrupts.push_back(nvdla_trace::parseIntrNotify(cmd));
    }
  }
  if (layers.back().interrupts.empty() && layers.size() > 1)
    layers.pop_back(); // writes after the last interrupt wait: no layer
  // dla-translate's comments, "// layer 3: dla.conv + dla.sdp loc(...)":
  // the last one between the previous layer's writes and this one's first.
  std::ifstream in(tracePath);
  std::string text;
  std::vector<std::pair<int, std::string>> comments;
  for (int line = 1; std::getline(in, text); ++line)
    if (text.rfind("// layer", 0) == 0)
      comments.push_back({line, text.substr(3)});
  for (size_t k = 0; k < layers.size(); ++k) {
    int after = k ? layers[k - 1].lastWriteLine : 0;
    for (const auto &[line, name] : comments)
      if (line > after && line < firstLine[k])
        layers[k].name = name;
  }
  return layers;
}

Player::Player(Rtl &rtl, std::vector<Command> cmds, std::vector<Layer> layers,
               const nvdla_trace::RegisterMap &regs, std::string testDir, bool verbose)
    : rtl(rtl), commands(std::move(cmds)), layerList(std::move(layers)), regs(regs),
      testDir(std::move(testDir)), verbose(verbose),
      statusReg(regs.address("NVDLA_GLB.S_INTR_STATUS_0")), maskReg(regs.address("NVDLA_GLB.S_INTR_MASK_0")) {
  // The same walk as findLayers: each command's layer.
  int layer = 0;
  for (const Command &cmd : commands) {
    if (cmd.name == "reg_write" && layer < int(layerList.size()) && cmd.line > layerList[layer].lastWriteLine)
      ++layer;
    layerOf.push_back(layer < int(layerList.size()) ? layer : -1);
    if (cmd.name == "intr_notify") {
      ExpectedInterrupt e = nvdla_trace::parseIntrNotify(cmd);
      expected[e.block].push_back(e);
      layerOfSync[e.syncId] = layerOf.back();
    }
  }
}

void Player::fail(const Command &cmd, const std::string &what) {
  errors.push_back("line " + std::to_string(cmd.line) + ": " + cmd.name + ": " + what);
}

void Player::loadMemory(const Command &cmd) {
  const std::string which = nvdla_trace::memoryOf(cmd);
  // check_crc writes the primary memory as "1" in some generated traces.
  if (which != "pri_mem" && which != "1")
    throw std::runtime_error("line " + std::to_string(cmd.line) + ": memory '" + which +
                             "': nv_small's RTL has only the primary memory (DBB, pri_mem)");
  for (const nvdla_trace::MemoryRun &run : nvdla_trace::memoryRuns(cmd, testDir))
    rtl.dbb.write(run.address, run.bytes.data(), run.bytes.size());
}

void Player::serviceInterrupts() {
  // As the C-model player's handler: the unmasked status bits, each to the
  // next intr_notify of its block and group, then written back to clear.
  uint64_t raisedAt = rtl.cycle();
  uint32_t bits = rtl.csbRead(statusReg) & ~rtl.csbRead(maskReg);
  if (!bits) {
    rtl.tick(); // the line drops a few cycles after a clear
    return;
  }
  for (int bit = 0; bit < 32; ++bit) {
    if (!(bits >> bit & 1))
      continue;
    auto src = regs.interruptBits().find(bit);
    if (src == regs.interruptBits().end())
      throw std::runtime_error("interrupt status bit " + std::to_string(bit) + " names no block");
    const nvdla_trace::InterruptSource &s = src->second;
    auto &queue = expected[s.block];
    auto it = std::find_if(queue.begin(), queue.end(),
                           [&](const ExpectedInterrupt &e) { return e.group == s.group; });
    if (it == queue.end())
      throw std::runtime_error("unexpected interrupt: " + s.block + " done, group " +
                               std::to_string(s.group) + " (no intr_notify left for it), at cycle " +
                               std::to_string(raisedAt));
    if (verbose)
      std::printf("interrupt %s_%d -> %s at cycle %llu\n", s.block.c_str(), s.group, it->syncId.c_str(),
                  (unsigned long long)raisedAt);
    fired.insert(it->syncId);
    if (int k = layerOfSync[it->syncId]; k >= 0)
      layerList[k].raised[it->syncId] = raisedAt;
    queue.erase(it);
  }
  rtl.csbWrite(statusReg, bits); // write 1 to clear
}

void Player::waitFor(const std::string &syncId) {
  while (!fired.count(syncId)) {
    if (rtl.interrupt())
      serviceInterrupts();
    else
      rtl.tick();
  }
}

bool Player::run() {
  try {
    // The testbench's memory model takes every memory command before the
    // simulation starts, whatever their place in the trace.
    for (const Command &cmd : commands)
      if (cmd.name == "mem_init" || cmd.name == "mem_load")
        loadMemory(cmd);
    rtl.reset();
    for (size_t i = 0; i < commands.size(); ++i) {
      const Command &cmd = commands[i];
      const auto &a = cmd.args;
      auto need = [&](size_t n) {
        if (a.size() != n)
          throw std::runtime_error("line " + std::to_string(cmd.line) + ": " + cmd.name + " takes " +
                                   std::to_string(n) + " arguments");
      };
      if (cmd.name == "mem_init" || cmd.name == "mem_load" || cmd.name == "intr_notify") {
        // done above / at construction
      } else if (cmd.name == "reg_write") {
        need(2);
        rtl.csbWrite(regs.address(a[0]), uint32_t(parseNumber(a[1])));
        if (layerOf[i] >= 0)
          layerList[layerOf[i]].lastWrite = rtl.cycle();
      } else if (cmd.name == "poll_reg_equal") {
        need(2);
        uint32_t addr = regs.address(a[0]), want = uint32_t(parseNumber(a[1]));
        while (rtl.csbRead(addr) != want) {
          if (rtl.interrupt())
            serviceInterrupts();
          for (int k = 0; k < 10; ++k)
            rtl.tick();
        }
      } else if (cmd.name == "sync_notify") {
        need(2);
        notified.insert(a[1]);
      } else if (cmd.name == "sync_wait") {
        need(2);
        if (!notified.count(a[1]))
          fail(cmd, a[1] + " is not notified before it is waited for");
      } else if (cmd.name == "check_crc") { // (sync_id, memory, base, size, golden)
        need(5);
        waitFor(a[0]);
        if (a[1] != "pri_mem" && a[1] != "1")
          throw std::runtime_error("line " + std::to_string(cmd.line) + ": memory '" + a[1] +
                                   "': nv_small's RTL has only the primary memory (DBB, pri_mem)");
        uint64_t base = parseNumber(a[2]), size = parseNumber(a[3]);
        uint32_t golden = uint32_t(parseNumber(a[4]));
        uint32_t got = rtl.dbb.crc32(base, size);
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
  } catch (const std::exception &e) {
    errors.push_back(e.what());
    return false;
  }
  return errors.empty();
}

} // namespace nvdla_rtl
