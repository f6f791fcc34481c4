// Register addresses and the interrupt status layout of one NVDLA
// configuration, read from the opendla.h that tmake writes for it
// (outdir/<config>/spec/manual/opendla.h).
#ifndef NVDLA_TRACE_PLAYER_REGISTER_MAP_H
#define NVDLA_TRACE_PLAYER_REGISTER_MAP_H

#include <cstdint>
#include <map>
#include <string>

namespace nvdla_trace {

struct InterruptSource {
  std::string block; // as in the trace's intr_notify ids, upper case: SDP, CDMA_DAT
  int group = 0;     // ping-pong register group, 0 or 1
};

class RegisterMap {
public:
  explicit RegisterMap(const std::string &openDlaHeader);
  // "NVDLA_CDP.D_OP_ENABLE_0" (the trace's spelling) -> CSB byte address.
  uint32_t address(const std::string &traceName) const;
  // CSB byte address -> the header's name (NVDLA_CDP_D_OP_ENABLE_0), or "".
  std::string nameOf(uint32_t address) const;
  // Bit of GLB.S_INTR_STATUS_0 -> its block and group.
  const std::map<int, InterruptSource> &interruptBits() const { return intrBits; }

private:
  std::map<std::string, uint32_t> addresses; // opendla.h names
  std::map<int, InterruptSource> intrBits;
};

} // namespace nvdla_trace

#endif
