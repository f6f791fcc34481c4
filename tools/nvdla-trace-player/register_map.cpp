#include "register_map.h"

#include "trace.h"

#include <fstream>
#include <regex>
#include <stdexcept>

namespace nvdla_trace {

RegisterMap::RegisterMap(const std::string &openDlaHeader) {
  std::ifstream in(openDlaHeader);
  if (!in)
    throw std::runtime_error("cannot open register map " + openDlaHeader);
  const std::regex addr(R"(#define\s+(NVDLA_\w+_0)\s+_MK_ADDR_CONST\((\w+)\))");
  const std::regex intr(
      R"(#define\s+NVDLA_GLB_S_INTR_STATUS_0_(\w+)_DONE_STATUS([01])_SHIFT\s+_MK_SHIFT_CONST\((\d+)\))");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, addr))
      addresses[m[1]] = uint32_t(parseNumber(m[2]));
    else if (std::regex_search(line, m, intr))
      intrBits[std::stoi(m[3])] = {m[1], std::stoi(m[2])};
  }
  if (addresses.empty() || intrBits.empty())
    throw std::runtime_error(openDlaHeader + " holds no NVDLA register or interrupt definitions");
}

uint32_t RegisterMap::address(const std::string &traceName) const {
  // The trace writes BLOCK.REGISTER; opendla.h BLOCK_REGISTER.
  std::string name = traceName;
  if (size_t dot = name.find('.'); dot != std::string::npos)
    name[dot] = '_';
  auto it = addresses.find(name);
  if (it == addresses.end())
    throw std::runtime_error("unknown register " + traceName);
  return it->second;
}

std::string RegisterMap::nameOf(uint32_t address) const {
  for (const auto &[name, addr] : addresses)
    if (addr == address)
      return name;
  return "";
}

} // namespace nvdla_trace
