//===- NvdlaAddressPlan.h - Surfaces placed in DRAM with reuse --*- C++ -*-===//
//
// Every surface of a program gets an address: aligned as the format library
// states for its data, live from the layer that writes it (inputs: from the
// start) to the last layer that reads it (results: to the end). A surface
// takes the lowest aligned gap left by surfaces no longer live.
//
// Sizes come from layouts of arbitrary shapes, so every sum and rounding is
// checked: a plan that would overflow, leave the configuration's address
// space or exceed what the runtime allocates is refused, naming the surface
// that does not fit, never wrapped into overlapping addresses.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TARGET_NVDLAADDRESSPLAN_H
#define DLA_TARGET_NVDLAADDRESSPLAN_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dlaformat::nvdla {
struct HardwareConfig;
}

namespace mlir::dla::regplan {

struct PlannedSurface {
  std::string name;
  int64_t bytes = 0, alignment = 1;
  /// Layers [first, last] during which the surface holds live data; -1 is
  /// before the first layer, a large value after the last.
  int64_t first = -1, last = -1;
  /// Set by planAddresses: offset from the plan's base.
  int64_t offset = 0;
};

/// Where a plan may go: from `base`, every byte at or below `lastAddress`,
/// at most `maxBytes` in all (one allocation).
struct AddressSpace {
  uint64_t base = 0;
  uint64_t lastAddress = UINT64_MAX;
  int64_t maxBytes = INT64_MAX;
  /// Names the bounds in errors: "nv_small's 32-bit address space".
  std::string spaceName = "the address space";
  std::string allocatorName = "the allocator";
};

/// `config`'s DMA address space from `base`, at most what NVIDIA's runtime
/// allocates (NvdlaHardware.h: one source of truth for both bounds).
AddressSpace getNvdlaAddressSpace(const ::dlaformat::nvdla::HardwareConfig &config, uint64_t base);

/// A plan, or the surface that cannot be placed and why.
struct AddressPlanResult {
  /// The plan's extent in bytes (valid when `error` is empty).
  int64_t extent = 0;
  /// Index into the surfaces of the one that does not fit.
  std::optional<size_t> surface;
  std::string error;
  bool ok() const { return error.empty(); }
};

/// Places the surfaces within `space`. On failure the offsets are
/// meaningless.
AddressPlanResult planAddresses(std::vector<PlannedSurface> &surfaces,
                                const AddressSpace &space = {});

} // namespace mlir::dla::regplan

#endif
