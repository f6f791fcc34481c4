//===- NvdlaHardware.cpp - NVDLA hardware configurations -----------------===//

#include "dla/Format/NvdlaHardware.h"

#include <string>

using namespace dla::format;
using namespace dla::format::nvdla;

Expected<HardwareConfig> dla::format::nvdla::lookupHardwareConfig(std::string_view name) {
  if (std::optional<HardwareKind> kind = parseEnum<HardwareKind>(name))
    return getHardwareConfig(*kind);
  return makeError("unknown NVDLA hardware configuration '" + std::string(name) +
                   "' (known: " + enumNameList<HardwareKind>() + ")");
}
