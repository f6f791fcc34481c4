//===- RegisterAttrs.h - Register attributes: checks and values -*- C++ -*-===//
//
// The range checks the layer ops run on their register attributes, with the
// one message template of docs/IntegerAttributes.md section 1:
// `'<op>' op <path> = <value> is outside <lo>..<hi> (<REGISTER>: <why>)`,
// and the attributes as the format library's plain register values.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_IR_REGISTERATTRS_H
#define DLA_DIALECT_DLA_IR_REGISTERATTRS_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaLrn.h"
#include "dla/Format/NvdlaRegisters.h"

namespace mlir::dla {

/// Every field of `lut` against the ranges of `unit` (SDP Y stage, int8,
/// int16 or fp16 CDP); `path` prefixes the field names (`lut`, `ew.lut`), giving
/// `lut.le[3]`, `ew.lut.le_start`. Each table's start must not exceed its
/// end as integers, unless `floatEdges` (fp32 patterns in float mode, which
/// verifyFloatLut orders as floats).
LogicalResult verifyLutRegisters(Operation *op, StringRef path, LutAttr lut,
                                 ::dlaformat::nvdla::LutUnit unit, bool floatEdges = false);

/// A float-mode table (an fp16 SDP's Y stage, an fp16 LRN's CDP), beyond
/// verifyLutRegisters' widths: entries and slope scales finite fp16
/// patterns, edges finite fp32 patterns with each start at most its end as
/// floats, slope shifts 0 (float mode has none).
LogicalResult verifyFloatLut(Operation *op, StringRef path, LutAttr lut);

/// dla.lrn's integer registers (in_cvt, out_cvt, lut, size) and the rules of
/// docs/IntegerAttributes.md 5.2 / 6.2.
LogicalResult verifyLrnRegisters(LrnOp op);

/// The table registers #dla.lut states.
::dlaformat::nvdla::LutProgram getLutProgram(LutAttr lut);
/// The #dla.lut stating `lut` (getLutProgram's inverse; a linear LE states
/// its select, an exponent one its offset).
LutAttr getLutAttr(MLIRContext *context, const ::dlaformat::nvdla::LutProgram &lut);
/// A dla.lrn's tables and converters: the stated ones, or those derived
/// for alpha, beta, k (integer: deriveLrnTables; fp16: lrnFloatTables, the
/// float-mode tables, converters unused). Absent converters are identities.
::dlaformat::nvdla::LrnTables getLrnTables(LrnOp op);

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_REGISTERATTRS_H
