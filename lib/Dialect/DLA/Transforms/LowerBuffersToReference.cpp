//===- LowerBuffersToReference.cpp - Storage-view layer ops on the CPU ----===//
//
// dla.buffer.* -> unpack every operand's storage into a row-major buffer
// (StorageCopy's loops), the tensor-form layer op on those buffers lowered
// by the reference patterns of --dla-lower-to-reference (one arithmetic for
// both forms), pack the result into the output's storage. A check that the
// memref form the backends read means what the tensor form means.
//
//===----------------------------------------------------------------------===//

#include "ReferencePatterns.h"
#include "StorageCopy.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLALOWERBUFFERSTOREFERENCE
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;

namespace {

/// The storage byte buffer behind `view`: the view itself when it is one
/// (layouts with no strided view), else the source of the memref.view (at
/// byte 0) that makeView reinterpreted.
FailureOr<Value> storageOf(Operation *op, StringRef name, Value view) {
  auto type = cast<MemRefType>(view.getType());
  if (type.getRank() == 1 && type.getLayout().isIdentity() && type.getElementType().isInteger(8))
    return view;
  if (auto cast = view.getDefiningOp<memref::ReinterpretCastOp>())
    if (auto flat = cast.getSource().getDefiningOp<memref::ViewOp>())
      if (matchPattern(flat.getByteShift(), m_Zero()))
        return flat.getSource();
  return op->emitOpError() << "cannot find the storage buffer of '" << name
                           << "': its view is not a memref.reinterpret_cast of a memref.view of "
                              "the storage bytes";
}

/// Reads an operand (`views` of logical type `type`) into a row-major
/// tensor; a null value for an absent operand.
FailureOr<Value> readOperand(OpBuilder &b, Operation *op, StringRef name, ValueRange views,
                             std::optional<Type> type) {
  if (!type)
    return Value();
  Location loc = op->getLoc();
  auto logical = cast<RankedTensorType>(*type);
  auto rowMajor = MemRefType::get(logical.getShape(), logical.getElementType());
  Value buffer = memref::AllocOp::create(b, loc, rowMajor);
  if (logical.getEncoding()) {
    FailureOr<Value> bytes = storageOf(op, name, views.front());
    if (failed(bytes))
      return failure();
    emitCopy(b, loc, op->getParentOfType<ModuleOp>(), logical, buffer, *bytes,
             /*toStorage=*/false);
  } else {
    memref::CopyOp::create(b, loc, views.front(), buffer);
  }
  return Value(bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(logical.getShape(), logical.getElementType()), buffer,
      /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr()));
}

/// Writes the row-major tensor `result` into the output views.
LogicalResult writeResult(OpBuilder &b, Operation *op, Value result, ValueRange views,
                          Type type) {
  Location loc = op->getLoc();
  auto logical = cast<RankedTensorType>(type);
  auto rowMajor = MemRefType::get(logical.getShape(), logical.getElementType());
  Value buffer = bufferization::ToBufferOp::create(b, loc, rowMajor, result, /*read_only=*/true);
  if (!logical.getEncoding()) {
    memref::CopyOp::create(b, loc, buffer, views.front());
    return success();
  }
  FailureOr<Value> bytes = storageOf(op, "output", views.front());
  if (failed(bytes))
    return failure();
  emitCopy(b, loc, op->getParentOfType<ModuleOp>(), logical, buffer, *bytes, /*toStorage=*/true);
  return success();
}

RankedTensorType plain(Type t) {
  auto r = cast<RankedTensorType>(t);
  return RankedTensorType::get(r.getShape(), r.getElementType());
}

/// Replaces `op` by unpack, tensor-form op (built by `build` on the
/// row-major operands), pack.
template <typename OpTy>
LogicalResult
expand(OpTy op,
       ArrayRef<std::tuple<StringRef, ValueRange, std::optional<Type>>> operands,
       function_ref<Value(OpBuilder &, ArrayRef<Value>)> build) {
  OpBuilder b(op);
  SmallVector<Value> tensors;
  for (auto [name, views, type] : operands) {
    FailureOr<Value> t = readOperand(b, op, name, views, type);
    if (failed(t))
      return failure();
    tensors.push_back(*t);
  }
  Value result = build(b, tensors);
  if (failed(writeResult(b, op, result, op.getOutput(), op.getOutputType())))
    return failure();
  op->erase();
  return success();
}

LogicalResult expandOp(Operation *operation) {
  if (auto op = dyn_cast<BufferConvOp>(operation))
    return expand(op,
                  {{"input", op.getInput(), op.getInputType()},
                   {"weight", op.getWeight(), op.getWeightType()},
                   {"bias", op.getBias(), op.getBiasType()}},
                  [&](OpBuilder &b, ArrayRef<Value> t) -> Value {
                    return ConvOp::create(b, op.getLoc(), plain(op.getOutputType()),
                                          op.getModeAttr(), t[0], t[1], t[2],
                                          op.getStridesAttr(), op.getPaddingAttr(),
                                          op.getDilationsAttr(), op.getPipelinePrecisionAttr(),
                                          op.getWeightPrecisionAttr());
                  });
  if (auto op = dyn_cast<BufferSdpOp>(operation)) {
    // Fused (on_the_fly): the memref form states the pipeline the fused
    // convolution gave it; the same arithmetic as an offline SDP in that
    // pipeline (the tensor form names its convolution instead).
    SdpMode mode = op.getMode();
    if (mode == SdpMode::OnTheFly) {
      if (!op.getPipelinePrecisionAttr())
        return op.emitOpError("an on_the_fly SDP runs on the CPU from its memref form only "
                              "with its pipeline_precision (the memref form does not name the "
                              "producing convolution)");
      mode = SdpMode::Offline;
    }
    return expand(op,
                  {{"input", op.getInput(), op.getInputType()},
                   {"bias", op.getBias(), op.getBiasType()},
                   {"batchnorm", op.getBatchnorm(), op.getBatchnormType()},
                   {"eltwise", op.getEltwise(), op.getEltwiseType()},
                   {"prelu", op.getPrelu(), op.getPreluType()}},
                  [&](OpBuilder &b, ArrayRef<Value> t) -> Value {
                    return SdpOp::create(b, op.getLoc(), plain(op.getOutputType()),
                                         SdpModeAttr::get(b.getContext(), mode), t[0], t[1],
                                         t[2], t[3], t[4], op.getReluAttr(),
                                         op.getPipelinePrecisionAttr());
                  });
  }
  if (auto op = dyn_cast<BufferPoolOp>(operation))
    return expand(op, {{"input", op.getInput(), op.getInputType()}},
                  [&](OpBuilder &b, ArrayRef<Value> t) -> Value {
                    return PoolOp::create(b, op.getLoc(), plain(op.getOutputType()),
                                          op.getKindAttr(), t[0], op.getKernelAttr(),
                                          op.getStridesAttr(), op.getPaddingAttr(),
                                          op.getPipelinePrecisionAttr());
                  });
  auto op = cast<BufferLrnOp>(operation);
  return expand(op, {{"input", op.getInput(), op.getInputType()}},
                [&](OpBuilder &b, ArrayRef<Value> t) -> Value {
                  return LrnOp::create(b, op.getLoc(), plain(op.getOutputType()), t[0],
                                       op.getSizeAttr(), op.getAlphaAttr(), op.getBetaAttr(),
                                       op.getKAttr(), op.getPipelinePrecisionAttr());
                });
}

struct LowerBuffersToReferencePass
    : mlir::dla::impl::DLALowerBuffersToReferenceBase<LowerBuffersToReferencePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<BufferConvOp, BufferSdpOp, BufferPoolOp, BufferLrnOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    for (Operation *op : ops)
      if (failed(expandOp(op)))
        return signalPassFailure();

    // The tensor-form ops just built: the reference patterns, as
    // --dla-lower-to-reference runs them (invalid precisions diagnosed).
    bool ok = true;
    module.walk([&](PrecisionConversionOpInterface op) {
      ok &= succeeded(reference::getPipelinePrecision(op, /*diagnose=*/true));
    });
    if (!ok)
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalOp<ConvOp, SdpOp, PoolOp, LrnOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    reference::populateLowerToReferencePatterns(patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Back to memrefs: the function boundaries already are.
    OpPassManager pm(ModuleOp::getOperationName());
    if (failed(parsePassPipeline(
            "func.func(convert-elementwise-to-linalg),one-shot-bufferize", pm)) ||
        failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};

} // namespace
