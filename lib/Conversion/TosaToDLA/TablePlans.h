//===- TablePlans.h - Piecewise-linear plans of monotone tables -*- C++ -*-===//
//
// The plan of a table program (TablePrograms.cpp emits it as X-stage SDP
// passes): its knots, multipliers and shifts, and the pass-by-pass integer
// arithmetic that checks it. Free of MLIR IR so that dla-table-chains
// prints the same plans the compiler emits (its test compares them with
// utils/dla-ref/softmax_int8_model.py's planner).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_TABLEPLANS_H
#define DLA_LIB_CONVERSION_TOSATODLA_TABLEPLANS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <string>

namespace mlir::dla::tosa_to_dla {

/// Every level of the program's result is within this many output steps of
/// the table (which is itself within 1/2 of the function).
inline constexpr int64_t kTableProgramError = 1;

/// More segments keep a tosa.table on the host (a chain's passes, or twice
/// that less one for ramps); planChain's callers may allow more.
inline constexpr size_t kMaxTableSegments = 16;

/// A tosa.table's program is exact (every level its entry, as the LUT
/// answers) when that takes at most this many passes; else within
/// kTableProgramError of kMaxTableSegments segments. The recognizer's
/// sigmoid and 1 / sqrt tables take 20 to 39 exact (4 to 11 within one
/// step): docs/Activations.md.
inline constexpr size_t kMaxExactTablePasses = 48;

/// One segment [lo, hi] of input levels: its multiplier m 2^-shift and its
/// knot values (of the table, negated for a falling chain).
struct TableSegment {
  int64_t lo, hi, m, shift, from, to;
};

/// A monotone table is a chain of one pass per segment; any other, ramps
/// (one pass each) and the passes that add them.
struct TableProgram {
  bool chain = false;
  bool falling = false; ///< a chain of the negated table, negated at the end
  SmallVector<TableSegment> segments;
  /// The SDP passes it takes.
  size_t passes() const { return chain ? segments.size() : 2 * segments.size() - 1; }
};

/// The program of the 256 entries (levels -128..127): exact within
/// kMaxExactTablePasses, else each level within kTableProgramError, or why
/// there is none (more than kMaxTableSegments).
FailureOr<TableProgram> planTableProgram(ArrayRef<int64_t> entries, std::string &why);

/// The chain of a monotone table over the levels base .. base + size - 1
/// (an int8 map's, or a convolution accumulator's on the fly), level i
/// within tolerance[i] of table[i] (0: exact), of at most maxSegments; the
/// same greedy as planTableProgram's chains. Fails when the table is not
/// monotone or needs more segments.
FailureOr<TableProgram> planChain(ArrayRef<int64_t> table, int64_t base,
                                  ArrayRef<int64_t> tolerance, size_t maxSegments);

/// The chain's result at level x, pass by pass as the SDP computes it.
int64_t simulateChain(const TableProgram &p, int64_t x);

/// A table to fit "centred" (the softmax's exp and reciprocal,
/// docs/WholeNetworks.md): a chain within 1 level of a convex table errs
/// upwards only, so where a value rounds to `exactBelow` or more the table
/// holds rint(value - 1/2), the error then centred on the value; below it
/// rint(value). Not for S-shaped tables: a sigmoid's or tanh's chain errs
/// both ways, and centring it is worse (docs/Activations.md).
SmallVector<int64_t> centredTable(ArrayRef<double> values, int64_t exactBelow);

/// Its tolerances: 0 (exact) where the table's level is below exactBelow in
/// magnitude, so that the many small values of a sum add no bias;
/// kTableProgramError elsewhere.
SmallVector<int64_t> centredTolerance(ArrayRef<int64_t> table, int64_t exactBelow);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_TABLEPLANS_H
