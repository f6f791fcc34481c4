//===- NvdlaHardware.h - NVDLA hardware configurations ----------*- C++ -*-===//
//
// The convolution-core parameters that shape weight data, for the three
// configurations of NVIDIA's open-source NVDLA (numbers from its compiler,
// nvdla/sw):
//
//   name      atomic-C  atomic-K  weight-buffer entry
//   nv_full   64        32        128 B   (the format document's numbers)
//   nv_large  64        32         64 B
//   nv_small   8         8          8 B
//
// atomic-C is the number of elements (channels) in a direct-convolution
// channel cube; a kernel group holds atomic-K kernels for 1-byte precision and
// atomic-K / 2 for 2-byte precision. Uncompressed weight streams are
// zero-padded at the end to a whole weight-buffer entry.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAHARDWARE_H
#define DLA_FORMAT_NVDLAHARDWARE_H

#include "dla/Format/EnumTable.h"
#include "dla/Format/Expected.h"
#include "dla/Format/NvdlaPrecision.h"

#include <cstdint>
#include <string_view>

namespace dlaformat::nvdla {

enum class HardwareKind { NvFull, NvLarge, NvSmall, Last = NvSmall };

struct HardwareConfig {
  HardwareKind kind;
  std::string_view name;        ///< "nv_full", "nv_large", "nv_small"
  int64_t atomicC;              ///< elements per direct-convolution channel cube
  int64_t atomicK;              ///< kernels per group for 1-byte precision
  int64_t weightBufferEntryBytes; ///< convolution-buffer entry width in bytes
  /// The SDP's Y (element-wise) stage and its lookup table (spec/defs/*.spec
  /// SDP_EW_ENABLE / SDP_LUT_ENABLE).
  bool hasSdpEw, hasSdpLut;

  /// Kernels per kernel group: atomic-K for int8, atomic-K / 2 for int16 and
  /// fp16.
  int64_t getKernelsPerGroup(Precision precision) const {
    return getBytesPerElement(precision) == 1 ? atomicK : atomicK / 2;
  }
};

/// One row per configuration, indexed by HardwareKind; also the name table
/// (`#dla.weight<..., config = nv_small>`).
inline constexpr HardwareConfig kHardwareConfigs[] = {
    {HardwareKind::NvFull, "nv_full", 64, 32, 128, true, true},
    {HardwareKind::NvLarge, "nv_large", 64, 32, 64, true, true},
    {HardwareKind::NvSmall, "nv_small", 8, 8, 8, false, false},
};
constexpr const auto &enumEntries(HardwareKind) { return kHardwareConfigs; }
static_assert(isInDeclarationOrder(kHardwareConfigs, &HardwareConfig::kind));

/// The configuration of `kind`.
constexpr const HardwareConfig &getHardwareConfig(HardwareKind kind) {
  return kHardwareConfigs[static_cast<size_t>(kind)];
}
/// nv_full, the default everywhere.
constexpr const HardwareConfig &getDefaultHardwareConfig() {
  return getHardwareConfig(HardwareKind::NvFull);
}
/// Looks a configuration up by name; the error lists the known names.
Expected<HardwareConfig> lookupHardwareConfig(std::string_view name);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAHARDWARE_H
