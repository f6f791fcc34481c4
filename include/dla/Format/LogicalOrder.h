//===- LogicalOrder.h - Which logical dimension order a format reads -*- C++ -*-===//
//
// Every format reads its logical tensor in a fixed dimension order: NVDLA
// feature, pixel and per-element data are NCHW, NVDLA weights KCRS, the HTP
// activation presets NHWC and `conv_weight` HWIO. A relayout between two
// formats keeps every logical index, so two formats that put the same role
// (outer, channel, row, column) at different positions cannot be related by
// a relayout: the data needs a transpose first. Formats with no fixed order
// (row-major, an explicit chunked list) read whatever they are given.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_LOGICALORDER_H
#define DLA_FORMAT_LOGICALORDER_H

#include "dla/Format/EnumTable.h"

namespace dlaformat {

enum class LogicalOrder { Unspecified, NCHW, NHWC, KCRS, HWIO, Last = HWIO };

/// Position of each role in a rank-4 logical index.
struct AxisRoles {
  int outer;   ///< N (batch) or K / O (kernels)
  int channel; ///< C or I
  int row;     ///< H or R
  int column;  ///< W or S
  bool operator==(const AxisRoles &o) const {
    return outer == o.outer && channel == o.channel && row == o.row && column == o.column;
  }
};

struct LogicalOrderInfo {
  LogicalOrder value;
  std::string_view name;
  AxisRoles roles; ///< meaningless for Unspecified
};

inline constexpr LogicalOrderInfo kLogicalOrders[] = {
    {LogicalOrder::Unspecified, "unspecified", {0, 0, 0, 0}},
    {LogicalOrder::NCHW, "NCHW", {0, 1, 2, 3}},
    {LogicalOrder::NHWC, "NHWC", {0, 3, 1, 2}},
    {LogicalOrder::KCRS, "KCRS", {0, 1, 2, 3}},
    {LogicalOrder::HWIO, "HWIO", {3, 2, 0, 1}},
};
constexpr const auto &enumEntries(LogicalOrder) { return kLogicalOrders; }
static_assert(isInDeclarationOrder(kLogicalOrders, &LogicalOrderInfo::value));

/// True when a relayout between formats reading `a` and `b` keeps every
/// role in place: either order is unspecified, or the roles sit at the same
/// positions (NCHW and KCRS do: weights may be fed as feature data).
constexpr bool readSameAxes(LogicalOrder a, LogicalOrder b) {
  if (a == LogicalOrder::Unspecified || b == LogicalOrder::Unspecified)
    return true;
  return kLogicalOrders[static_cast<int>(a)].roles == kLogicalOrders[static_cast<int>(b)].roles;
}

} // namespace dlaformat

#endif // DLA_FORMAT_LOGICALORDER_H
