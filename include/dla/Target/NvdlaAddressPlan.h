//===- NvdlaAddressPlan.h - Surfaces placed in DRAM with reuse --*- C++ -*-===//
//
// Every surface of a program gets an address: aligned as the format library
// states for its data, live from the layer that writes it (inputs: from the
// start) to the last layer that reads it (results: to the end). A surface
// takes the lowest aligned gap left by surfaces no longer live.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_TARGET_NVDLAADDRESSPLAN_H
#define DLA_TARGET_NVDLAADDRESSPLAN_H

#include <cstdint>
#include <string>
#include <vector>

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

/// Places the surfaces; returns the plan's extent in bytes.
int64_t planAddresses(std::vector<PlannedSurface> &surfaces);

} // namespace mlir::dla::regplan

#endif
