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

#include "dla/Dialect/DLA/IR/DLA.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::dla::tosa_to_dla {

/// Its offline SDP passes over NCHW int8 map `x`; returns the last.
Value emitTableProgram(OpBuilder &b, Location loc, Value x, const TableProgram &p);

/// A chain over a convolution's accumulator (the softmax's reciprocal of a
/// row's sum, docs/WholeNetworks.md step 6): per segment the convolution
/// (`conv` itself, then copies inserted at `b`) and an on-the-fly SDP
/// running that pass; returns the last SDP. The plan's knots are in
/// accumulator units (planChain over the accumulator's range).
Value emitAccumulatorChain(OpBuilder &b, ConvOp conv, const TableProgram &p);

} // namespace mlir::dla::tosa_to_dla

#endif // DLA_LIB_CONVERSION_TOSATODLA_TABLEPROGRAMS_H
