//===- IntegerBytes.h - Integer values of raw element bytes -----*- C++ -*-===//
//
// The integers held by a constant's raw bytes (host byte order, as MLIR's
// dense and dense_resource elements store them): one decoder for every
// reader of compile-time integer constants.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_INTEGERBYTES_H
#define DLA_FORMAT_INTEGERBYTES_H

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace dlaformat {

/// The `count` integers of `width` bits (8, 16, 32 or 64) at `bytes`:
/// sign-extended, or zero-extended when `isUnsigned` (a 64-bit unsigned
/// value above INT64_MAX wraps). nullopt for another width.
inline std::optional<std::vector<int64_t>> decodeIntegers(const char *bytes, int64_t count,
                                                          unsigned width, bool isUnsigned) {
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return std::nullopt;
  const size_t n = width / 8;
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (size_t i = 0; i < values.size(); ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes + i * n, n); // little-endian hosts only, as the packers
    if (!isUnsigned && width < 64 && (raw >> (width - 1)) & 1)
      raw |= ~uint64_t(0) << width;
    values[i] = static_cast<int64_t>(raw);
  }
  return values;
}

} // namespace dlaformat

#endif // DLA_FORMAT_INTEGERBYTES_H
