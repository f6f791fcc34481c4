//===- FlattenGlobals.cpp - memref globals of rank 1 for the JIT ----------===//
//
// A memref global keeps its shape in the LLVM dialect as nested arrays, and
// LLVM IR builds a nested constant array element by element: a weight of
// shape 6625x120x1x1 is 795,000 uniqued one-element arrays. The same bytes
// as one flat array cost the JIT nothing beyond the bytes.
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAFLATTENGLOBALS
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

/// The rank-1 type of `type` when it is static, row-major and of rank 2 or
/// more; null otherwise (nothing to gain, or no flat equivalent).
MemRefType flatType(MemRefType type) {
  if (type.getRank() < 2 || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return {};
  return MemRefType::get({type.getNumElements()}, type.getElementType(),
                         MemRefLayoutAttrInterface{}, type.getMemorySpace());
}

/// `value` (the global's initial value) with the flat shape; null when it
/// is of a kind this does not know (the global then stays).
Attribute flatValue(Attribute value, MemRefType flat) {
  if (!value || isa<UnitAttr>(value))
    return value;
  auto tensor = RankedTensorType::get(flat.getShape(), flat.getElementType());
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.reshape(tensor);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(tensor, resource.getRawHandle());
  return {};
}

struct FlattenGlobalsPass : mlir::dla::impl::DLAFlattenGlobalsBase<FlattenGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());
    // The users of every symbol in one walk (a walk per global was
    // quadratic: 5 s of the int8 classifier's compile).
    SymbolTableCollection tables;
    SymbolUserMap users(tables, module);
    for (auto global : llvm::make_early_inc_range(module.getOps<memref::GlobalOp>())) {
      MemRefType type = global.getType();
      MemRefType flat = flatType(type);
      if (!flat)
        continue;
      Attribute init = global.getInitialValue().value_or(Attribute{});
      Attribute flatInit = flatValue(init, flat);
      if (init && !flatInit)
        continue;
      ArrayRef<Operation *> uses = users.getUsers(global);
      // A use other than get_global (none today) would see the new type.
      if (llvm::any_of(uses, [](Operation *user) { return !isa<memref::GetGlobalOp>(user); }))
        continue;
      global.setType(flat);
      if (flatInit)
        global.setInitialValueAttr(flatInit);
      SmallVector<ReassociationIndices> all(1);
      for (int64_t i = 0; i < type.getRank(); ++i)
        all.front().push_back(i);
      for (Operation *user : uses) {
        auto get = cast<memref::GetGlobalOp>(user);
        b.setInsertionPointAfter(get);
        get.getResult().setType(flat);
        auto shaped = memref::ExpandShapeOp::create(b, get.getLoc(), type, get.getResult(), all);
        get.getResult().replaceAllUsesExcept(shaped.getResult(), shaped);
      }
    }
  }
};

} // namespace
