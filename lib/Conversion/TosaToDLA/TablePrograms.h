//===- TablePrograms.h - An int8 table as X-stage SDP passes ----*- C++ -*-===//
//
// Configurations without the SDP's lookup table (nv_small) run tosa.table
// of an int8 map as the table's piecewise-linear interpolant in X-stage
// passes (TablePrograms.cpp says how; docs/Activations.md states the
// error).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_TABLEPROGRAMS_H
#define DLA_LIB_CONVERSION_TOSATODLA_TABLEPROGRAMS_H

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::dla::tosa_to_dla {

/// Every level of the program's result is within this many output steps of
/// the table (which is itself within 1/2 of the function).
inline constexpr int64_t kTableProgramError = 1;

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

/// The program of the 256 entries (levels -128..127), or why there is none
/// (more than the segments allowed within kTableProgramError).
FailureOr<TableProgram> planTableProgram(ArrayRef<int64_t> entries, std::string &why);

/// Its offline SDP passes over NCHW int8 map `x`; returns the last.
Value emitTableProgram(PatternRewriter &rewriter, Location loc, Value x, const TableProgram &p);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_TABLEPROGRAMS_H
