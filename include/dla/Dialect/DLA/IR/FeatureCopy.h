//===- FeatureCopy.h - Copies between NVDLA feature layouts -----*- C++ -*-===//
//
// The one statement of which dla.relayout an NVDLA program runs as a copy
// (BDMA) rather than leaving it to the host: the outlining pass, the
// register plan and the loadable writer ask it. And the attribute that puts
// a surface in the CV-SRAM, which makes a copy of one encoding a copy
// between memories.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_DIALECT_DLA_IR_FEATURECOPY_H
#define DLA_DIALECT_DLA_IR_FEATURECOPY_H

#include "dla/Dialect/DLA/IR/DLA.h"

namespace mlir::dla {

/// `dla.memory = "cvsram"` (or "dram", the default) on a function argument
/// (an argument attribute) or on the op whose result owns a surface: the
/// memory the register plan places it in (lib/Target/NvdlaProgram
/// NetworkPlan.cpp, the one place memory kinds and addresses are decided).
/// A relayout carrying it is a copy between memories even when both
/// encodings are the same: the folds keep it.
inline constexpr llvm::StringLiteral kMemoryAttrName = "dla.memory";

/// A dla.relayout between two NVDLA feature encodings of one precision and
/// configuration: only strides or place differ, so whole atoms move
/// unchanged (the copies layout assignment leaves for a join's input).
bool isFeatureCopy(RelayoutOp op);

/// A feature copy (isFeatureCopy) on a configuration with BDMA
/// (NvdlaHardware.h's capability), which an NVDLA program runs
/// (lib/Target/NvdlaProgram/DescribeBdma.cpp); elsewhere it is a host op.
bool isBdmaCopy(Operation *op);

} // namespace mlir::dla

#endif // DLA_DIALECT_DLA_IR_FEATURECOPY_H
