#include "txn.h"

#include "../trace.h" // parseNumber

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nvdla_trace::v1 {

static std::runtime_error located(const std::string &path, int line, const std::string &what) {
  return std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

std::vector<TxnCommand> parseTxn(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot open trace " + path);
  std::vector<TxnCommand> cmds;
  std::string raw;
  for (int lineNo = 1; std::getline(in, raw); ++lineNo) {
    std::string line = raw.substr(0, raw.find('#'));
    std::stringstream words(line);
    std::vector<std::string> w;
    for (std::string s; words >> s;)
      w.push_back(s);
    if (w.empty())
      continue;
    auto need = [&](size_t n) {
      if (w.size() != n)
        throw located(path, lineNo, w[0] + " takes " + std::to_string(n - 1) + " arguments, got: " + raw);
    };
    auto number = [&](const std::string &s) {
      try {
        return parseNumber(s);
      } catch (const std::exception &e) {
        throw located(path, lineNo, e.what());
      }
    };
    auto reg = [&](const std::string &s) {
      uint64_t v = number(s);
      if (v >> 32 || (v >> 16) != 0xffff)
        throw located(path, lineNo, "register address " + s + " is not 0xffffWWWW");
      return uint32_t(v & 0xffff) << 2; // a word address
    };
    TxnCommand c{};
    c.line = lineNo;
    if (w[0] == "write_reg") {
      need(3);
      c.kind = TxnCommand::WriteReg;
      c.reg = reg(w[1]);
      c.data = uint32_t(number(w[2]));
    } else if (w[0] == "read_reg") {
      need(4);
      c.kind = TxnCommand::ReadReg;
      c.reg = reg(w[1]);
      c.mask = uint32_t(number(w[2]));
      c.data = uint32_t(number(w[3]));
    } else if (w[0] == "wait") {
      need(1);
      c.kind = TxnCommand::Wait;
    } else if (w[0] == "load_mem" || w[0] == "dump_mem") {
      need(4);
      c.kind = w[0] == "load_mem" ? TxnCommand::LoadMem : TxnCommand::DumpMem;
      c.addr = number(w[1]);
      c.size = number(w[2]);
      c.file = w[3];
    } else {
      throw located(path, lineNo, "unknown command '" + w[0] + "'");
    }
    cmds.push_back(c);
  }
  return cmds;
}

PlusArgs parsePlusArgs(const std::string &path) {
  PlusArgs p;
  std::ifstream in(path);
  if (!in)
    return p;
  const std::string retries = "+read_reg_poll_retries=";
  for (std::string a; in >> a;) {
    if (a.compare(0, retries.size(), retries) == 0)
      p.pollRetries = parseNumber(a.substr(retries.size()));
    else if (a == "+continue_on_fail")
      p.continueOnFail = true;
    else
      throw std::runtime_error(path + ": unknown plusarg '" + a + "'");
  }
  return p;
}

static bool isByte(const std::string &w) {
  return w.size() == 4 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X') && std::isxdigit((unsigned char)w[2]) &&
         std::isxdigit((unsigned char)w[3]);
}

std::vector<uint8_t> parseByteFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> bytes;
  std::string raw;
  // A header, the data (lines of bytes only), a trailer ("=====",
  // "dump done"): bytes elsewhere, or mixed with text, are an error.
  enum { Header, Data, Trailer } part = Header;
  for (int lineNo = 1; std::getline(in, raw); ++lineNo) {
    std::stringstream words(raw);
    std::vector<std::string> w;
    for (std::string s; words >> s;)
      w.push_back(s);
    size_t n = 0;
    for (const std::string &s : w)
      n += isByte(s);
    if (w.empty() || (part == Header && n != w.size()))
      continue;
    if (n == 0) {
      part = Trailer;
      continue;
    }
    if (n != w.size())
      throw located(path, lineNo, "a line of bytes holds other text: " + raw);
    if (part == Trailer)
      throw located(path, lineNo, "bytes after the data ended");
    part = Data;
    for (const std::string &s : w)
      bytes.push_back(uint8_t(std::stoul(s, nullptr, 16)));
  }
  return bytes;
}

} // namespace nvdla_trace::v1
