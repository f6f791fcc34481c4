//===- CheckedMath.h - 64-bit arithmetic that reports overflow --*- C++ -*-===//
//
// Every size and offset in the format library is computed in int64_t. A
// layout applied to a huge shape must be reported, never wrapped, so each
// helper returns std::nullopt on overflow and callers turn that into an Error.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_CHECKEDMATH_H
#define DLA_FORMAT_CHECKEDMATH_H

#include <cstdint>
#include <optional>

namespace dlaformat {

inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// ceil(a / b) for a >= 0, b > 0. Cannot overflow.
inline int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/// Bytes one element of `bits` bits occupies in storage: ceil(bits / 8).
inline int64_t getStorageBytesOfBits(int64_t bits) { return ceilDiv(bits, 8); }

/// Smallest multiple of `b` that is >= `a`, for a >= 0, b > 0.
inline std::optional<int64_t> checkedRoundUp(int64_t a, int64_t b) {
  return checkedMul(ceilDiv(a, b), b);
}

} // namespace dlaformat

#endif // DLA_FORMAT_CHECKEDMATH_H
