//===- TablePrograms.h - An int8 table as X-stage SDP passes ----*- C++ -*-===//
//
// Configurations without the SDP's lookup table (nv_small) run tosa.table
// of an int8 map as the table's piecewise-linear interpolant in X-stage
// passes (TablePrograms.cpp says how, TablePlans.cpp plans them;
// docs/Activations.md states the error).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_CONVERSION_TOSATODLA_TABLEPROGRAMS_H
#define DLA_LIB_CONVERSION_TOSATODLA_TABLEPROGRAMS_H

#include "TablePlans.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::dla::tosa_to_dla {

/// Its offline SDP passes over NCHW int8 map `x`; returns the last.
Value emitTableProgram(PatternRewriter &rewriter, Location loc, Value x, const TableProgram &p);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_TABLEPROGRAMS_H
