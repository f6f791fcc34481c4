//===- FieldFit.h - A value in a descriptor field of NVIDIA's structs ----===//
//
// The firmware's and the emulator's descriptors (FirmwareDescriptors.cpp,
// EmulatorDescriptors.cpp) take each value into a field of NVIDIA's own
// width; a value the field cannot hold is an error, never a wrap.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_TARGET_NVDLALOADABLE_FIELDFIT_H
#define DLA_LIB_TARGET_NVDLALOADABLE_FIELDFIT_H

#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace mlir::dla::loadable {

/// `value` as field type F, or nullopt when F cannot hold it.
template <class F, class V> std::optional<F> fitField(V value) {
  static_assert(std::is_integral_v<F> && std::is_integral_v<V>, "integer fields");
  __int128 v = value;
  if (v >= static_cast<__int128>(std::numeric_limits<F>::min()) &&
      v <= static_cast<__int128>(std::numeric_limits<F>::max()))
    return static_cast<F>(value);
  return std::nullopt;
}

/// "<name> = <value> does not fit the <whose> field (<bits>-bit signed)".
template <class F, class V> std::string fieldMisfit(const std::string &name, V value,
                                                    const char *whose) {
  return name + " = " + std::to_string(static_cast<long long>(value)) + " does not fit the " +
         whose + " field (" + std::to_string(sizeof(F) * 8) +
         (std::is_signed_v<F> ? "-bit signed)" : "-bit unsigned)");
}

} // namespace mlir::dla::loadable

#endif // DLA_LIB_TARGET_NVDLALOADABLE_FIELDFIT_H
