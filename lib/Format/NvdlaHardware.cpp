//===- NvdlaHardware.cpp - NVDLA hardware configurations -----------------===//

#include "dla/Format/NvdlaHardware.h"

#include <string>

using namespace dlaformat;
using namespace dlaformat::nvdla;

Expected<HardwareConfig> dlaformat::nvdla::lookupHardwareConfig(std::string_view name) {
  if (std::optional<HardwareKind> kind = parseEnum<HardwareKind>(name))
    return getHardwareConfig(*kind);
  return makeError("unknown NVDLA hardware configuration '" + std::string(name) +
                   "' (known: " + enumNameList<HardwareKind>() + ")");
}
