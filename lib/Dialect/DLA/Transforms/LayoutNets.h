//===- LayoutNets.h - Layout assignment: problem and rewrite ----*- C++ -*-===//
//
// Private to lib/Dialect/DLA/Transforms. --dla-assign-layouts in three
// steps: buildLayoutNets turns a function into a LayoutProblem (one node
// per op with a choice, one net per value), the format library's solver
// picks a variant per node, and rewriteLayouts retypes results and inserts
// the relayouts.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_DIALECT_DLA_TRANSFORMS_LAYOUTNETS_H
#define DLA_LIB_DIALECT_DLA_TRANSFORMS_LAYOUTNETS_H

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/LayoutSolver.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::dla {

/// Stands for a cost that cannot be computed (dynamic or unbindable shape):
/// such relayouts are avoided whenever possible.
constexpr int64_t kUnknownBytes = int64_t(1) << 50;

RankedTensorType withEncoding(RankedTensorType type, Attribute encoding);
Attribute encodingOf(Value v);
/// How remarks name an encoding (none: "row-major").
std::string describeEncoding(Attribute encoding);
/// Storage bytes of a tensor type, kUnknownBytes when it does not bind.
int64_t storageBytesOf(RankedTensorType type);

/// An op with a choice of layout variants (a LayoutConstrainedOpInterface
/// op or a channel view).
struct LayoutNode {
  Operation *op;
  SmallVector<LayoutVariant> variants;
};

/// A function as a layout problem: node i of `problem` is `nodes[i]` for
/// i < nodes.size(); the rest are fixed nodes (arguments, pins, readers).
struct LayoutNets {
  std::vector<LayoutNode> nodes;
  DenseMap<Operation *, int> nodeOf;
  ::dlaformat::LayoutProblem problem;
};

/// The layout problem of `func` on `target`; image inputs not encoded yet
/// take `pixel` when given (`pixelName` spells it in the error when it fits
/// no variant).
FailureOr<LayoutNets> buildLayoutNets(func::FuncOp func, const ::dlaformat::Target &target,
                                      std::optional<::dlaformat::nvdla::PixelFormat> pixel,
                                      StringRef pixelName);

/// The variants of a dla.channel_slice / dla.channel_concat: feature data
/// in and out (ChannelViews.cpp); none for other ops.
SmallVector<LayoutVariant> getChannelViewVariants(Operation *op,
                                                  const ::dlaformat::Target &target);

/// What rewriteLayouts did, for the pass's statistics and summary remark.
struct LayoutRewriteStats {
  int64_t relayouts = 0, relayoutBytes = 0, constantRelayouts = 0, compressed = 0;
};

/// Applies the chosen variants to the IR: result types, relayouts (one per
/// value and encoding) with a remark each; compile-time constants become
/// compressed weights when `compression` and that is smaller.
LayoutRewriteStats rewriteLayouts(func::FuncOp func, LayoutNets &nets,
                                  const ::dlaformat::LayoutSolution &solution, bool compression);

/// After rewriteLayouts: every channel view takes its parent's strides
/// (producers of a concatenation's inputs write into it); the copies it
/// needs are counted in `stats`.
void assignChannelViewStrides(func::FuncOp func, LayoutRewriteStats &stats);

/// Before the layouts are chosen: an offline register-only dla.sdp whose
/// result only views read as weights runs once per view, on the same view
/// of its input, so that each dla.as_weights reads a whole layer result
/// (WeightStreamLayers.cpp).
void splitLayersReadAsWeights(func::FuncOp func);

} // namespace mlir::dla

#endif // DLA_LIB_DIALECT_DLA_TRANSFORMS_LAYOUTNETS_H
