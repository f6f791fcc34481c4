//===- Expected.h - Value-or-error result for the format library -*- C++ -*-===//
//
// The format library has no LLVM or MLIR dependency and is built without
// exceptions, so failures travel as values: an Expected<T> holds either a T or
// an error message meant for a human (the dialect turns it into a located
// diagnostic).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_EXPECTED_H
#define DLA_FORMAT_EXPECTED_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace dlaformat {

/// An error message. Kept as a distinct type so that `Expected<std::string>`
/// is unambiguous.
struct Error {
  std::string message;
};

inline Error makeError(std::string message) { return Error{std::move(message)}; }

template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : value(std::move(value)) {}
  Expected(Error error) : error(std::move(error.message)) {}

  explicit operator bool() const { return value.has_value(); }
  bool ok() const { return value.has_value(); }

  T &operator*() {
    assert(ok() && "dereferencing an error");
    return *value;
  }
  const T &operator*() const {
    assert(ok() && "dereferencing an error");
    return *value;
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  /// The error message; empty when this holds a value.
  const std::string &message() const { return error; }
  /// Moves the error out, for propagation: `return e.takeError();`.
  Error takeError() { return Error{std::move(error)}; }

private:
  std::optional<T> value;
  std::string error;
};

/// Success or an error message.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : error(std::move(error.message)), failed(true) {}
  static Status success() { return Status(); }

  explicit operator bool() const { return !failed; }
  bool ok() const { return !failed; }
  const std::string &message() const { return error; }
  Error takeError() { return Error{std::move(error)}; }

private:
  std::string error;
  bool failed = false;
};

} // namespace dlaformat

#endif // DLA_FORMAT_EXPECTED_H
