//===- Status.h - DlaStatus and DlaBoundLayout wrapping -----------*- C++ -*-===//
//
// Private to lib/CAPI: a failed DlaStatus points at a heap std::string, a
// DlaBoundLayout at a heap dlaformat::BoundLayout.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CAPI_STATUS_H
#define DLA_LIB_CAPI_STATUS_H

#include "dla-c/Format.h"
#include "dla/Format/BoundLayout.h"

#include <memory>
#include <string>

namespace dlacapi {

inline DlaStatus ok() { return DlaStatus{nullptr}; }
inline DlaStatus error(std::string message) {
  if (message.empty())
    message = "unknown error";
  return DlaStatus{new std::string(std::move(message))};
}

inline DlaBoundLayout wrap(std::unique_ptr<dlaformat::BoundLayout> layout) {
  return DlaBoundLayout{layout.release()};
}
inline dlaformat::BoundLayout *unwrap(DlaBoundLayout layout) {
  return static_cast<dlaformat::BoundLayout *>(layout.ptr);
}

} // namespace dlacapi

#endif // DLA_LIB_CAPI_STATUS_H
