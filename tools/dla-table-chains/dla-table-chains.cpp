//===- dla-table-chains.cpp - Print the compiler's table plans ------------===//
//
// Prints the knots and multipliers TablePlans.cpp plans, so that a test
// can compare them with an independent planner
// (utils/dla-ref/softmax_int8_model.py) without compiling a network:
//
//   dla-table-chains exp S_SCALE [MAX]    the softmax's exp chain for scores at S_SCALE
//   dla-table-chains reciprocal N [MAX]   the reciprocal of a sum over N keys
//     (MAX: the segments allowed, kSoftmaxMaxSegments unless given)
//   dla-table-chains table V0 .. V255   a tosa.table's program (nv_small)
//
// Output: "chain falling=F segments=K passes=P", then one line per segment
// "lo hi m shift from to" (from / to of the negated table when falling);
// or "error: ..." and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "SoftmaxTables.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;
using namespace mlir::dla::tosa_to_dla;

namespace {

int fail(const std::string &why) {
  llvm::errs() << "error: " << why << "\n";
  return 1;
}

bool parseNumber(const char *s, double &v) {
  char *end = nullptr;
  v = std::strtod(s, &end);
  return end != s && *end == '\0';
}

int print(FailureOr<TableProgram> p, const std::string &why) {
  if (failed(p))
    return fail(why);
  llvm::outs() << (p->chain ? "chain" : "ramps") << " falling=" << (p->falling ? 1 : 0)
               << " segments=" << p->segments.size() << " passes=" << p->passes() << "\n";
  for (const TableSegment &s : p->segments)
    llvm::outs() << s.lo << " " << s.hi << " " << s.m << " " << s.shift << " " << s.from << " "
                 << s.to << "\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const std::string usage =
      "usage: dla-table-chains exp S_SCALE [MAX] | reciprocal KEYS [MAX] | table V0 .. V255";
  if (argc < 2)
    return fail(usage);
  const std::string kind = argv[1];
  double v = 0, max = double(kSoftmaxMaxSegments);
  const bool softmax = (kind == "exp" || kind == "reciprocal") && (argc == 3 || argc == 4) &&
                       parseNumber(argv[2], v) && v > 0 &&
                       (argc == 3 || (parseNumber(argv[3], max) && max >= 1 &&
                                      max == double(int64_t(max))));
  if (softmax && kind == "exp") {
    LevelTable t = softmaxExpTable(v);
    return print(planChain(t.table, t.base, t.tolerance, size_t(max)),
                 "the exp table has no chain of " + std::to_string(int64_t(max)) + " segments");
  }
  if (softmax && v == double(int64_t(v))) {
    LevelTable t = softmaxReciprocalTable(int64_t(v));
    return print(planChain(t.table, t.base, t.tolerance, size_t(max)),
                 "the reciprocal table has no chain of " + std::to_string(int64_t(max)) +
                     " segments");
  }
  if (kind == "table" && argc == 2 + 256) {
    SmallVector<int64_t> entries;
    for (int i = 2; i < argc; ++i) {
      if (!parseNumber(argv[i], v) || v != double(int64_t(v)) || v < -128 || v > 127)
        return fail(std::string("entry '") + argv[i] + "' is not an int8 value");
      entries.push_back(int64_t(v));
    }
    std::string why;
    FailureOr<TableProgram> p = planTableProgram(entries, why);
    return print(p, why);
  }
  return fail(usage);
}
