//===- ResultsThroughPointer.cpp - many results through the C interface ---===//
//
// A function returning a struct of many scalars, called only by its C
// interface to store the result, stores the scalars through the C
// interface's pointer itself: no aggregate of thousands of scalars for
// LLVM's instruction selection.
//
//===----------------------------------------------------------------------===//

#include "dla/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLARESULTSTHROUGHPOINTER
#include "dla/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;

namespace {

/// Below this many scalars a struct return costs nothing worth a change.
constexpr int64_t kMinScalars = 64;

/// Scalars in a value of type `type` (nested structs and arrays).
int64_t scalarCount(Type type) {
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    int64_t n = 0;
    for (Type element : structType.getBody())
      n += scalarCount(element);
    return n;
  }
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return array.getNumElements() * scalarCount(array.getElementType());
  return 1;
}

/// Stores `value` in the `type` at `base`: an llvm.insertvalue chain
/// element by element, oldest insert first (a later one overwrites), at one
/// llvm.getelementptr per insert (the large struct's type printed once per
/// element, not once per scalar), after the value the chain starts from
/// (unless poison or undef); any other value whole.
void storeFields(OpBuilder &b, Location loc, Value value, Value base, Type type) {
  SmallVector<LLVM::InsertValueOp> chain;
  Value start = value;
  while (auto insert = start.getDefiningOp<LLVM::InsertValueOp>()) {
    chain.push_back(insert);
    start = insert.getContainer();
  }
  if (chain.empty() ||
      (!start.getDefiningOp<LLVM::PoisonOp>() && !start.getDefiningOp<LLVM::UndefOp>()))
    LLVM::StoreOp::create(b, loc, start, base);
  for (LLVM::InsertValueOp insert : llvm::reverse(chain)) {
    SmallVector<LLVM::GEPArg> indices{0};
    for (int64_t i : insert.getPosition())
      indices.push_back(static_cast<int32_t>(i));
    Value at = LLVM::GEPOp::create(b, loc, base.getType(), type, base, indices,
                                   LLVM::GEPNoWrapFlags::inbounds);
    storeFields(b, loc, insert.getValue(), at, insert.getValue().getType());
  }
}

/// The calls of `fn` if each is in fn's C interface and immediately stores
/// its result, the only use; else none.
SmallVector<LLVM::CallOp> storedCalls(LLVM::LLVMFuncOp fn, SymbolUserMap &users) {
  SmallVector<LLVM::CallOp> calls;
  std::string wrapper = ("_mlir_ciface_" + fn.getName()).str();
  for (Operation *user : users.getUsers(fn)) {
    auto call = dyn_cast<LLVM::CallOp>(user);
    auto caller = user->getParentOfType<LLVM::LLVMFuncOp>();
    if (!call || !caller || caller.getName() != wrapper || call.getNumResults() != 1 ||
        !call.getResult().hasOneUse())
      return {};
    auto store = dyn_cast_or_null<LLVM::StoreOp>(call->getNextNode());
    if (!store || store.getValue() != call.getResult() || store.getAddr() == call.getResult())
      return {};
    calls.push_back(call);
  }
  return calls;
}

void rewrite(LLVM::LLVMFuncOp fn, ArrayRef<LLVM::CallOp> calls) {
  MLIRContext *ctx = fn.getContext();
  Type type = fn.getFunctionType().getReturnType();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Type> params{ptr};
  llvm::append_range(params, fn.getFunctionType().getParams());
  fn.setFunctionType(LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params));
  if (ArrayAttr argAttrs = fn.getArgAttrsAttr()) {
    SmallVector<Attribute> shifted{DictionaryAttr::get(ctx)};
    llvm::append_range(shifted, argAttrs);
    fn.setArgAttrsAttr(ArrayAttr::get(ctx, shifted));
  }
  fn.removeResAttrsAttr();
  Value out = fn.getBody().front().insertArgument(0u, ptr, fn.getLoc());
  OpBuilder b(ctx);
  fn.walk([&](LLVM::ReturnOp ret) {
    b.setInsertionPoint(ret);
    storeFields(b, ret.getLoc(), ret.getArg(), out, type);
    LLVM::ReturnOp::create(b, ret.getLoc(), ValueRange{});
    ret->erase();
  });
  for (LLVM::CallOp call : calls) {
    auto store = cast<LLVM::StoreOp>(call->getNextNode());
    b.setInsertionPoint(call);
    SmallVector<Value> operands{store.getAddr()};
    llvm::append_range(operands, call.getArgOperands());
    LLVM::CallOp::create(b, call.getLoc(), fn, operands);
    store->erase();
    call->erase();
  }
}

struct ResultsThroughPointer : dla::impl::DLAResultsThroughPointerBase<ResultsThroughPointer> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection tables;
    SymbolUserMap users(tables, module);
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
      Type result = fn.getFunctionType().getReturnType();
      if (fn.isExternal() || fn.isVarArg() || !isa<LLVM::LLVMStructType>(result) ||
          scalarCount(result) < kMinScalars)
        continue;
      SmallVector<LLVM::CallOp> calls = storedCalls(fn, users);
      if (!calls.empty())
        rewrite(fn, calls);
    }
  }
};

} // namespace
