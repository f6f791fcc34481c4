//===- SoftmaxTables.cpp - The int8 softmax's exp and reciprocal ----------===//
//
// Both tables are convex and falling, so their chains within 1 level err
// upwards only: fitted centred (rint of the value less 1/2) where the value
// is large and exactly where it is small; the top (the row's max, a row of
// one key) pinned to 127 as a knot. The values clip to 0..127 (int8 at
// 1/127, zero point 0).
//
//===----------------------------------------------------------------------===//

#include "SoftmaxTables.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;

namespace {

LevelTable centred(int64_t base, ArrayRef<double> values, int64_t exactBelow) {
  LevelTable l{base, centredTable(values, exactBelow), {}};
  l.table.front() = kSoftmaxTop;
  for (int64_t &v : l.table)
    v = std::clamp<int64_t>(v, 0, 127);
  l.tolerance = centredTolerance(l.table, exactBelow);
  return l;
}

} // namespace

LevelTable tosa_to_dla::softmaxExpTable(double sScale) {
  SmallVector<double> e;
  for (int64_t d = -128; d <= 127; ++d)
    e.push_back(double(kSoftmaxTop) * std::exp(-sScale * (double(d) + 128.0)));
  return centred(-128, e, kExpExactBelow);
}

LevelTable tosa_to_dla::softmaxReciprocalTable(int64_t keys) {
  const double r = double(kSoftmaxTop * kSoftmaxTop);
  SmallVector<double> values;
  for (int64_t s = kSoftmaxTop; s <= keys * kSoftmaxTop; ++s)
    values.push_back(r / double(s));
  return centred(kSoftmaxTop, values, kReciprocalExactBelow);
}
