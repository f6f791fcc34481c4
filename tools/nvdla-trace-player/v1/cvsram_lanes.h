// Where v1's CV-SRAM interface (cmod/cvif) puts a write's bytes. A write
// whose first 32-byte atom is disabled (an unaligned start) comes with the
// address of the second atom but its data starting at the 64-byte
// boundary ("Use unaligned address as required by DBB_PV",
// cmod/cvif/gen/NV_NVDLA_cvif.cpp); an AXI slave places bytes by lane, so
// data byte i goes to (addr & ~63) + i, where enabled. Reads are plain.
// ../shared/nvdla-hw-v1/BUILDING.md, "Memory behind the CV-SRAM port".
// Used by the v1 trace player (cvsram_port.h) and the loadable harness.
#ifndef NVDLA_TRACE_PLAYER_V1_CVSRAM_LANES_H
#define NVDLA_TRACE_PLAYER_V1_CVSRAM_LANES_H

#include <cstdint>

namespace nvdla_trace::v1 {

// The address of data byte 0 of a write the CV-SRAM interface sends to `addr`.
inline uint64_t cvsramWriteBase(uint64_t addr) { return addr & ~uint64_t(63); }

} // namespace nvdla_trace::v1

#endif
