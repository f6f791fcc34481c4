//===- Target.h - The accelerator a module is compiled for ------*- C++ -*-===//
//
// A target is an accelerator (NVDLA or Hexagon HTP) and, for NVDLA, one of
// its hardware configurations (NvdlaHardware.h). Layout assignment reads it
// to know which formats each layer accepts; encodings that name a
// configuration (`#dla.weight<..., config = nv_small>`) must agree with it.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_TARGET_H
#define DLA_FORMAT_TARGET_H

#include "dla/Format/EnumTable.h"
#include "dla/Format/NvdlaHardware.h"

#include <optional>
#include <string>

namespace dlaformat {

enum class Accelerator { Nvdla, Htp, Last = Htp };

inline constexpr EnumEntry<Accelerator> kAcceleratorNames[] = {
    {Accelerator::Nvdla, "nvdla", "NVDLA"}, {Accelerator::Htp, "htp", "Hexagon HTP"}};
constexpr const auto &enumEntries(Accelerator) { return kAcceleratorNames; }
static_assert(isInDeclarationOrder(kAcceleratorNames, &EnumEntry<Accelerator>::value));

struct Target {
  Accelerator accelerator = Accelerator::Nvdla;
  /// NVDLA only.
  nvdla::HardwareKind config = nvdla::HardwareKind::NvFull;

  bool operator==(const Target &o) const {
    return accelerator == o.accelerator &&
           (accelerator != Accelerator::Nvdla || config == o.config);
  }
  /// "nvdla nv_full", "htp".
  std::string toString() const;
};

/// The target of a module that names none: NVDLA nv_full, the default of
/// every encoding that names a configuration.
constexpr Target getDefaultTarget() { return Target{}; }

/// Parses "nvdla", "nvdla:nv_small", "nv_small" (NVDLA implied) or "htp";
/// the message lists the valid spellings.
Expected<Target> parseTarget(std::string_view spelling);

} // namespace dlaformat

#endif // DLA_FORMAT_TARGET_H
