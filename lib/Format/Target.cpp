//===- Target.cpp - Accelerator targets -----------------------------------===//

#include "dla/Format/Target.h"

using namespace dlaformat;

std::string Target::toString() const {
  std::string s(enumName(accelerator));
  if (accelerator == Accelerator::Nvdla)
    s += " " + std::string(enumName(config));
  return s;
}

Expected<Target> dlaformat::parseTarget(std::string_view spelling) {
  auto error = [&] {
    return makeError("unknown target '" + std::string(spelling) +
                     "'; expected htp, nvdla, or nvdla:<config> / <config> with <config> one of " +
                     enumNameList<nvdla::HardwareKind>());
  };
  std::string_view head = spelling, tail;
  if (size_t colon = spelling.find(':'); colon != std::string_view::npos) {
    head = spelling.substr(0, colon);
    tail = spelling.substr(colon + 1);
  }
  if (std::optional<nvdla::HardwareKind> config = parseEnum<nvdla::HardwareKind>(head)) {
    if (!tail.empty())
      return error();
    return Target{Accelerator::Nvdla, *config};
  }
  std::optional<Accelerator> accelerator = parseEnum<Accelerator>(head);
  if (!accelerator)
    return error();
  Target target{*accelerator, nvdla::HardwareKind::NvFull};
  if (!tail.empty()) {
    std::optional<nvdla::HardwareKind> config = parseEnum<nvdla::HardwareKind>(tail);
    if (*accelerator != Accelerator::Nvdla || !config)
      return error();
    target.config = *config;
  }
  return target;
}
