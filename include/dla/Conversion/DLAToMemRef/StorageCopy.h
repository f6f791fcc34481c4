//===- StorageCopy.h - Code that moves elements into storage ----*- C++ -*-===//
//
// What --dla-lower-to-memref emits to move a tensor's elements between a
// row-major buffer and its encoding's storage bytes: shared by the relayout
// lowering and every pattern that reads or writes storage through views.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_CONVERSION_DLATOMEMREF_STORAGECOPY_H
#define DLA_CONVERSION_DLATOMEMREF_STORAGECOPY_H

#include "dla/Format/BoundLayout.h"
#include "dla/Transforms/KernelNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
// The copy loops use vector ops: the passes that call them load the vector
// dialect (their generated registration sees it through this header).
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>

namespace dlaformat {
struct StorageView;
} // namespace dlaformat

namespace mlir::dla {

/// Binds an encoded tensor type that the pass has already checked (a
/// failure here is a bug, reported at an unknown location).
std::unique_ptr<::dlaformat::BoundLayout> bindChecked(RankedTensorType type);

/// `base`, or `base_N` for the first N that names no symbol of `module`.
std::string uniqueSymbol(ModuleOp module, StringRef base);

/// The typed strided view `v` of the byte buffer `bytes` (memref<N x i8>),
/// typed as getStorageViewType says for data of `logicalElem`.
Value makeView(OpBuilder &b, Location loc, Value bytes, const ::dlaformat::StorageView &v,
               Type logicalElem);

/// Moves all elements between the row-major memref `logical` and the storage
/// `bytes` of the encoded `type` (toStorage: logical -> storage). Offset
/// tables, when needed, become private globals of `module`.
void emitCopy(OpBuilder &b, Location loc, ModuleOp module, RankedTensorType type, Value logical,
              Value bytes, bool toStorage);

/// emitCopy as calls to private functions of `module` holding its loops,
/// written once, not at every layer: the numbers that depend on the shape
/// (extents, strides, bounds) are arguments, so every call whose loops have
/// the same form shares one function (a network's feature maps of any size
/// in one format and direction, say). Layouts read through offset tables
/// get a function per type.
class CopyFunctions {
public:
  explicit CopyFunctions(ModuleOp module) : module(module) {}
  void emitCall(OpBuilder &b, Location loc, RankedTensorType type, Value logical, Value bytes,
                bool toStorage);

private:
  ModuleOp module;
  /// A function's printed form (or a table layout's type) -> the function.
  llvm::StringMap<func::FuncOp> functions;
  /// What a call on one type (direction, encoded and buffer types) passes.
  struct Site {
    func::FuncOp function;
    bool shared = false;
    SmallVector<int64_t> values;
  };
  llvm::StringMap<Site> byType;
};

/// The alignment of the first storage buffer of `type` (alignment table).
int64_t getAlignment(RankedTensorType type);

/// An aligned storage buffer for `type`, zeroed (the padding contract)
/// unless the views write every byte anyway.
Value allocStorage(OpBuilder &b, Location loc, RankedTensorType type);

} // namespace mlir::dla

#endif // DLA_CONVERSION_DLATOMEMREF_STORAGECOPY_H
