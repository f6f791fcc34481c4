//===- LayoutVariant.h - One way an op lays out its tensors -----*- C++ -*-===//
#ifndef DLA_DIALECT_DLA_IR_LAYOUTVARIANT_H
#define DLA_DIALECT_DLA_IR_LAYOUTVARIANT_H

#include "dla/Format/Target.h"

#include "mlir/IR/Attributes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class Operation;
namespace dla {

/// The encodings of every operand and result of an op in one of the ways it
/// can run (LayoutConstrainedOpInterface). A null encoding: unconstrained.
struct LayoutVariant {
  SmallVector<Attribute> operands;
  SmallVector<Attribute> results;
};

/// True when a tensor in encoding `actual` can be read (or written) where a
/// variant says `accepted`: the same encoding, or one that differs only in
/// what the hardware takes from registers (feature strides, data size,
/// compression, post-extension, rounding). Per-element bias and element-wise
/// data of one component also accept feature data of the same precision:
/// their atoms are the feature atoms (NvdlaAux.h), so the bytes are the same.
/// No encoding is accepted only by no encoding.
bool acceptsEncoding(Attribute accepted, Attribute actual);

/// Checks the encodings of a LayoutConstrainedOpInterface op against the
/// variants it accepts on the target of its module (TargetAttr::lookup):
/// a located error names the operand, its encoding and what is accepted.
/// Unencoded tensors are not checked: they are still to be assigned.
LogicalResult verifyLayoutLegality(Operation *op);

/// A layer op's data against what its target's configuration computes
/// (the capability table, dla/Format/NvdlaHardware.h): int16 feature data or
/// weights on an int8-only configuration are an error naming it.
LogicalResult verifyTargetPrecision(Operation *op);

/// The variant of an op that reads and writes only feature data: every
/// operand and result `#dla.feature` of its element type's precision, on an
/// NVDLA target (none elsewhere). LayoutConstrainedOpInterface's default.
SmallVector<LayoutVariant> getFeatureLayoutVariants(Operation *op,
                                                    const ::dlaformat::Target &target);

/// `dla.relayout` keeps logical indices: both encodings must read the same
/// dimension order (dla/Format/LogicalOrder.h), else a transpose is needed.
LogicalResult verifyRelayoutAxes(Operation *relayout);
/// Whether a relayout from `source` to `result` reads the same axes on both
/// sides (what verifyRelayoutAxes checks, without a diagnostic).
bool canRelayoutAxes(Type source, Type result);

} // namespace dla
} // namespace mlir

#endif // DLA_DIALECT_DLA_IR_LAYOUTVARIANT_H
