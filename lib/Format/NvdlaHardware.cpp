//===- NvdlaHardware.cpp - NVDLA hardware configurations -----------------===//

#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaRegisterMap.h"

#include <cctype>
#include <string>

using namespace dlaformat;
using namespace dlaformat::nvdla;

Expected<HardwareConfig> dlaformat::nvdla::lookupHardwareConfig(std::string_view name) {
  if (std::optional<HardwareKind> kind = parseEnum<HardwareKind>(name))
    return getHardwareConfig(*kind);
  return makeError("unknown NVDLA hardware configuration '" + std::string(name) +
                   "' (known: " + enumNameList<HardwareKind>() + ")");
}

std::string dlaformat::nvdla::whyNotPrecision(const HardwareConfig &c, Precision precision) {
  if (c.hasPrecision(precision))
    return "";
  std::string names, macros;
  for (Precision p : enumValues<Precision>()) {
    if (!c.hasPrecision(p))
      continue;
    std::string name(enumName(p)), upper;
    for (char ch : name)
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    names += (names.empty() ? "" : ", ") + name;
    macros += (macros.empty() ? "" : ", ") + ("FEATURE_DATA_TYPE_" + upper);
  }
  return std::string(c.name) + " computes " + names + " only (" + macros + ")";
}

std::string dlaformat::nvdla::whyNotWinograd(const HardwareConfig &c) {
  return c.caps.winograd ? ""
                         : std::string(c.name) + " has no Winograd convolution (WINOGRAD_DISABLE)";
}

const char *const dlaformat::nvdla::kWinogradInputConverterReason =
    "NVDLA's Winograd input path has none (the v1 C model's CDMA converts direct and image "
    "input only)";

std::string dlaformat::nvdla::whyNotBatch(const HardwareConfig &c, int64_t inputs) {
  if (!c.caps.batch)
    return std::string(c.name) + " has no batch mode (BATCH_DISABLE)";
  // BATCH_NUMBER holds the inputs less one (CDMA / CSC / CACC D_BATCH_NUMBER,
  // SDP D_FEATURE_MODE_CFG: the same width).
  const int64_t most = int64_t(1) << csb::CDMA_D_BATCH_NUMBER_BATCHES.width;
  if (inputs > most)
    return "a batch of " + std::to_string(inputs) + " inputs: BATCH_NUMBER counts at most " +
           std::to_string(most);
  return "";
}

std::string dlaformat::nvdla::whyNotCvsram(const HardwareConfig &c) {
  return c.caps.cvsram ? "" : std::string(c.name) + " has no CV-SRAM (SECONDARY_MEMIF_DISABLE)";
}

std::string dlaformat::nvdla::whyNotWeightCompression(const HardwareConfig &c) {
  return c.caps.weightCompression
             ? ""
             : std::string(c.name) + " has no weight compression (WEIGHT_COMPRESSION_DISABLE)";
}
