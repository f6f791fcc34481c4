//===- AddressPlan.cpp - Surfaces placed in DRAM with reuse ---------------===//
//
// Plain C++ (no MLIR): the unit test drives it with random and extreme
// surfaces. Every offset is computed with CheckedMath, so a plan either
// holds (no two live surfaces share a byte, each aligned, all within the
// space) or names the surface that does not fit.
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaAddressPlan.h"

#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaHardware.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

using namespace mlir::dla::regplan;
using dlaformat::checkedAdd;
using dlaformat::checkedRoundUp;

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string describe(const PlannedSurface &s) {
  return "surface '" + s.name + "' (" + std::to_string(s.bytes) + " bytes, aligned " +
         std::to_string(s.alignment) + ")";
}

using Range = std::pair<int64_t, int64_t>; // [lo, hi)

/// The lowest aligned offset where `s` ends at or before the next busy
/// range (`busy` sorted by lo), or nullopt when no int64_t offset holds it.
std::optional<int64_t> lowestGap(const PlannedSurface &s, const std::vector<Range> &busy) {
  int64_t at = 0; // every byte below is busy or skipped
  for (auto [lo, hi] : busy) {
    std::optional<int64_t> start = checkedRoundUp(at, s.alignment);
    std::optional<int64_t> end = start ? checkedAdd(*start, s.bytes) : std::nullopt;
    if (!end)
      return std::nullopt; // every later gap starts higher still
    if (*end <= lo)
      return start;
    at = std::max(at, hi);
  }
  std::optional<int64_t> start = checkedRoundUp(at, s.alignment);
  if (!start || !checkedAdd(*start, s.bytes))
    return std::nullopt;
  return start;
}
} // namespace

AddressSpace mlir::dla::regplan::getNvdlaAddressSpace(const dlaformat::nvdla::HardwareConfig &c,
                                                      uint64_t base) {
  AddressSpace space;
  space.base = base;
  space.lastAddress = dlaformat::nvdla::getLastMemoryAddress(c);
  space.maxBytes = dlaformat::nvdla::kRuntimeMaxAllocationBytes;
  space.spaceName =
      std::string(c.name) + "'s " + std::to_string(c.caps.memoryAddressBits) + "-bit address space";
  space.allocatorName = "NVIDIA's runtime (NvDlaAllocMem, umd/port/linux)";
  return space;
}

AddressPlanResult mlir::dla::regplan::planAddresses(std::vector<PlannedSurface> &surfaces,
                                                    const AddressSpace &space) {
  AddressPlanResult result;
  auto fail = [&](std::optional<size_t> i, std::string why) {
    result.surface = i;
    result.error = std::move(why);
    return result;
  };
  if (space.base > space.lastAddress)
    return fail(std::nullopt, "the plan's base " + hex(space.base) + " is beyond " +
                                  space.spaceName + " (last address " + hex(space.lastAddress) +
                                  ")");
  // Bytes from base to the last address, capped where int64_t offsets end.
  const uint64_t room = space.lastAddress - space.base;
  const int64_t addressable =
      room >= static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(room) + 1;

  for (size_t i = 0; i < surfaces.size(); ++i)
    if (surfaces[i].bytes < 0 || surfaces[i].alignment <= 0)
      return fail(i, describe(surfaces[i]) +
                         ": a size must be non-negative and an alignment positive");

  // Largest first (fewer holes), ties in program order.
  std::vector<size_t> order(surfaces.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return surfaces[a].bytes > surfaces[b].bytes; });
  std::vector<size_t> placed;
  for (size_t i : order) {
    PlannedSurface &s = surfaces[i];
    // Busy ranges of the placed surfaces whose lifetime overlaps this one;
    // each ends within the space, so their sums cannot overflow.
    std::vector<Range> busy;
    for (size_t j : placed) {
      const PlannedSurface &o = surfaces[j];
      if (o.first <= s.last && s.first <= o.last)
        busy.push_back({o.offset, o.offset + o.bytes});
    }
    std::sort(busy.begin(), busy.end());
    std::optional<int64_t> offset = lowestGap(s, busy);
    if (!offset)
      return fail(i, "no 64-bit offset holds " + describe(s) +
                         " beside the surfaces live at the same time");
    const int64_t end = *offset + s.bytes; // checked by lowestGap
    if (end > addressable)
      return fail(i, describe(s) + " would occupy bytes [" + std::to_string(*offset) + ", " +
                         std::to_string(end) + ") from " + hex(space.base) + ", beyond " +
                         space.spaceName + " (last address " + hex(space.lastAddress) + ")");
    if (end > space.maxBytes)
      return fail(i, describe(s) + " would make the plan " + std::to_string(end) +
                         " bytes, beyond the " + std::to_string(space.maxBytes) + " bytes " +
                         space.allocatorName + " allocates");
    s.offset = *offset;
    result.extent = std::max(result.extent, end);
    placed.push_back(i);
  }
  return result;
}
