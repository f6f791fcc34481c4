//===- SoftmaxTables.h - The int8 softmax's exp and reciprocal --*- C++ -*-===//
//
// The two tables of the int8 softmax over a row of keys on nv_small
// (docs/WholeNetworks.md, "The softmax over 40 keys on nv_small"), as the
// chains TablePlans.cpp plans: e = exp(-s_s (m - s)) at 1/127 over the
// levels d = m - s - 128, and r = rint(127^2 / S) over a row's sum S of e
// (a convolution's accumulator, on the fly). utils/dla-ref/
// softmax_int8_model.py (exp_table, recip_table, plans) is the model this
// must equal (test/Conversion/TosaToDLA/table-chains-softmax.test).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_SOFTMAXTABLES_H
#define DLA_LIB_CONVERSION_TOSATODLA_SOFTMAXTABLES_H

#include "TablePlans.h"

namespace mlir::dla::tosa_to_dla {

/// e at each row's max, and r for a row of one key (p = 1 exactly).
inline constexpr int64_t kSoftmaxTop = 127;
/// The exp's chain is exact where e < 8, the reciprocal's where r < 16
/// (the tails whose upward errors would add up in S, or scale a flat row).
inline constexpr int64_t kExpExactBelow = 8;
inline constexpr int64_t kReciprocalExactBelow = 16;
/// The reciprocal takes 21 segments for 40 keys; the exp at most 16.
inline constexpr size_t kSoftmaxMaxSegments = 24;

/// A table over the levels base .. base + size - 1 and its tolerances.
struct LevelTable {
  int64_t base;
  SmallVector<int64_t> table, tolerance;
};

/// e at d = -128..127 for scores at scale sScale: 127 exp(-sScale (d + 128)),
/// centred (centredTable) above kExpExactBelow, 127 at the max.
LevelTable softmaxExpTable(double sScale);

/// r at S = 127 .. keys * 127: 127^2 / S, centred above
/// kReciprocalExactBelow, 127 at S = 127.
LevelTable softmaxReciprocalTable(int64_t keys);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_SOFTMAXTABLES_H
