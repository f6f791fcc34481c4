//===- NvdlaHardware.cpp - NVDLA hardware configurations -----------------===//

#include "dla/Format/NvdlaHardware.h"

#include <string>

using namespace dla::format;
using namespace dla::format::nvdla;

const std::vector<HardwareConfig> &dla::format::nvdla::getHardwareConfigs() {
  static const std::vector<HardwareConfig> configs = {
      {HardwareKind::NvFull, "nv_full", 64, 32, 128},
      {HardwareKind::NvLarge, "nv_large", 64, 32, 64},
      {HardwareKind::NvSmall, "nv_small", 8, 8, 8},
  };
  return configs;
}

const HardwareConfig &dla::format::nvdla::getHardwareConfig(HardwareKind kind) {
  return getHardwareConfigs()[static_cast<size_t>(kind)];
}

Expected<HardwareConfig> dla::format::nvdla::lookupHardwareConfig(std::string_view name) {
  std::string known;
  for (const HardwareConfig &config : getHardwareConfigs()) {
    if (config.name == name)
      return config;
    known += known.empty() ? "" : ", ";
    known += config.name;
  }
  return makeError("unknown NVDLA hardware configuration '" + std::string(name) +
                   "' (known: " + known + ")");
}
