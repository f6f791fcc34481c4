#include "trace.h"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nvdla_trace {

static std::string trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace((unsigned char)s[b])) ++b;
  while (e > b && std::isspace((unsigned char)s[e - 1])) --e;
  return s.substr(b, e - b);
}

uint64_t parseNumber(const std::string &text) {
  std::string t = trim(text);
  char *end = nullptr;
  uint64_t v = std::strtoull(t.c_str(), &end, 0);
  if (t.empty() || *end)
    throw std::runtime_error("not a number: '" + text + "'");
  return v;
}

std::vector<Command> parseTrace(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot open trace " + path);
  std::vector<Command> cmds;
  std::string raw;
  for (int lineNo = 1; std::getline(in, raw); ++lineNo) {
    std::string line = raw;
    if (size_t c = line.find("//"); c != std::string::npos)
      line.resize(c);
    line = trim(line);
    if (line.empty())
      continue;
    size_t open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open ||
        trim(line.substr(close + 1)) != ";")
      throw std::runtime_error(path + ":" + std::to_string(lineNo) +
                               ": expected 'command(args);', got: " + raw);
    Command cmd;
    cmd.name = trim(line.substr(0, open));
    cmd.line = lineNo;
    std::stringstream args(line.substr(open + 1, close - open - 1));
    for (std::string a; std::getline(args, a, ',');) {
      a = trim(a);
      if (a.size() >= 2 && a.front() == '"' && a.back() == '"')
        a = a.substr(1, a.size() - 2);
      cmd.args.push_back(a);
    }
    cmds.push_back(std::move(cmd));
  }
  return cmds;
}

std::vector<SurfaceChunk> parseSurfaceFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot open surface file " + path);
  std::vector<SurfaceChunk> chunks;
  std::string raw;
  for (int lineNo = 1; std::getline(in, raw); ++lineNo) {
    size_t b = raw.find('{'), e = raw.find('}');
    if (b == std::string::npos || e == std::string::npos)
      continue; // a lone "{" / "}" or a "# CRC" trailer
    std::string body = raw.substr(b + 1, e - b - 1);
    if (trim(body).empty())
      continue;
    auto field = [&](const char *key) {
      size_t k = body.find(key);
      if (k == std::string::npos)
        throw std::runtime_error(path + ":" + std::to_string(lineNo) + ": no '" + key + "'");
      size_t v = k + std::string(key).size();
      size_t comma = body.find(',', v);
      return body.substr(v, comma == std::string::npos ? std::string::npos : comma - v);
    };
    SurfaceChunk chunk;
    chunk.offset = parseNumber(field("offset:"));
    uint64_t size = parseNumber(field("size:"));
    std::stringstream payload(field("payload:"));
    for (std::string byte; payload >> byte;)
      chunk.bytes.push_back(uint8_t(parseNumber(byte)));
    if (chunk.bytes.size() != size)
      throw std::runtime_error(path + ":" + std::to_string(lineNo) + ": size " +
                               std::to_string(size) + " but " +
                               std::to_string(chunk.bytes.size()) + " payload bytes");
    chunks.push_back(std::move(chunk));
  }
  return chunks;
}

static std::runtime_error lineError(const Command &cmd, const std::string &what) {
  return std::runtime_error("line " + std::to_string(cmd.line) + ": " + what);
}

std::string memoryOf(const Command &cmd) {
  if (cmd.args.empty())
    throw lineError(cmd, cmd.name + " names no memory");
  return cmd.args[0];
}

std::vector<MemoryRun> memoryRuns(const Command &cmd, const std::string &testDir) {
  if (cmd.name == "mem_init") { // (memory, base, size, pattern)
    if (cmd.args.size() != 4)
      throw lineError(cmd, "mem_init takes 4 arguments");
    MemoryRun run;
    run.address = parseNumber(cmd.args[1]);
    uint64_t size = parseNumber(cmd.args[2]);
    const std::string &pattern = cmd.args[3];
    run.bytes.resize(size);
    for (uint64_t i = 0; i < size; ++i) {
      if (pattern == "ALL_ZERO") run.bytes[i] = 0x00;
      else if (pattern == "ONES") run.bytes[i] = 0xff;
      else if (pattern == "AFIVE") run.bytes[i] = 0xa5;
      else if (pattern == "FIVEA") run.bytes[i] = 0x5a;
      else if (pattern == "ADDR") run.bytes[i] = uint8_t(run.address + i);
      else throw lineError(cmd, "unsupported pattern " + pattern);
    }
    return {std::move(run)};
  }
  if (cmd.name != "mem_load")
    throw lineError(cmd, cmd.name + " is not a memory command");
  if (cmd.args.size() != 3) // (memory, base, file)
    throw lineError(cmd, "mem_load takes 3 arguments");
  uint64_t base = parseNumber(cmd.args[1]);
  std::vector<MemoryRun> runs;
  for (SurfaceChunk &c : parseSurfaceFile(testDir + "/" + cmd.args[2]))
    runs.push_back({base + c.offset, std::move(c.bytes)});
  return runs;
}

ExpectedInterrupt parseIntrNotify(const Command &cmd) {
  // "SDP_0": block SDP, register group 0.
  if (cmd.args.size() != 2 || cmd.args[0].size() < 3 || cmd.args[0][cmd.args[0].size() - 2] != '_' ||
      (cmd.args[0].back() != '0' && cmd.args[0].back() != '1'))
    throw lineError(cmd, "bad intr_notify");
  const std::string &id = cmd.args[0];
  std::string block = id.substr(0, id.size() - 2);
  for (char &c : block)
    c = char(std::toupper((unsigned char)c));
  return {block, id.back() - '0', cmd.args[1], cmd.line};
}

} // namespace nvdla_trace
