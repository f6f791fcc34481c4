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

} // namespace nvdla_trace
