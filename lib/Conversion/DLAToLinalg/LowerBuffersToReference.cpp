//===- LowerBuffersToReference.cpp - dla.on_storage on the CPU ------------===//
//
// dla.on_storage -> unpack every operand's storage into a row-major buffer
// (StorageCopy's loops; compressed weights decompressed first,
// StorageDecompress; Winograd weights read as their stored taps,
// ReferenceWinograd), its layer ops on those buffers lowered by the
// reference patterns of --dla-lower-to-reference (one arithmetic for both
// forms), pack each result into its storage. A check that the memref form
// the backends read means what the tensor form means.
//
//===----------------------------------------------------------------------===//

#include "ReferencePatterns.h"
#include "dla/Conversion/DLAToLinalg/DLAToLinalg.h"
#include "ReferenceWinograd.h"
#include "dla/Conversion/DLAToMemRef/StorageCopy.h"
#include "dla/Conversion/DLAToMemRef/StorageDecompress.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLALOWERBUFFERSTOREFERENCE
#include "dla/Conversion/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;

namespace {

/// Reads the storage `buffer` of a tensor of logical type `logical` into a
/// row-major tensor.
Value readOperand(OpBuilder &b, Location loc, CopyFunctions &copies, Value buffer,
                  RankedTensorType logical) {
  auto rowMajor = MemRefType::get(logical.getShape(), logical.getElementType());
  Value plain = memref::AllocOp::create(b, loc, rowMajor);
  if (logical.getEncoding())
    copies.emitCall(b, loc, logical, plain, buffer, /*toStorage=*/false);
  else
    memref::CopyOp::create(b, loc, buffer, plain);
  return bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(logical.getShape(), logical.getElementType()), plain,
      /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr());
}

/// Writes the row-major tensor `result` into `buffer`, the storage of a
/// tensor of logical type `logical`.
void writeResult(OpBuilder &b, Location loc, CopyFunctions &copies, Value result, Value buffer,
                 RankedTensorType logical) {
  auto rowMajor = MemRefType::get(logical.getShape(), logical.getElementType());
  Value plain = bufferization::ToBufferOp::create(b, loc, rowMajor, result, /*read_only=*/true);
  if (logical.getEncoding())
    copies.emitCall(b, loc, logical, plain, buffer, /*toStorage=*/true);
  else
    memref::CopyOp::create(b, loc, plain, buffer);
}

/// Replaces `op` by: unpack every operand's storage, the body's layer ops on
/// the row-major tensors (cloned, whatever they are), pack every result.
void expand(OnStorageOp op, CopyFunctions &copies) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Block &body = op.getBody().front();
  IRMapping mapping;
  ValueRange ins = op.getIns();
  for (BlockArgument arg : body.getArguments()) {
    auto logical = cast<RankedTensorType>(arg.getType());
    // Compressed weights: their surfaces decompressed into the uncompressed
    // image, then read as that (the verifier checked the count).
    if (unsigned surfaces = getDataDependentSurfaceCount(logical)) {
      Value image = emitDecompressWeights(b, loc, logical, ins[0], ins[1], ins[2]);
      RankedTensorType dense = getUncompressedWeightType(logical);
      mapping.map(arg, reference::isWinogradWeight(dense)
                           ? reference::emitWinogradTaps(b, loc, dense, image)
                           : readOperand(b, loc, copies, image, dense));
      ins = ins.drop_front(surfaces);
      continue;
    }
    // Winograd weights have no element-wise inverse: the convolution reads
    // the stored taps themselves.
    if (reference::isWinogradWeight(logical))
      mapping.map(arg, reference::emitWinogradTaps(b, loc, logical, ins.front()));
    else
      mapping.map(arg, readOperand(b, loc, copies, ins.front(), logical));
    ins = ins.drop_front();
  }
  for (Operation &layer : body.without_terminator()) {
    Operation *plain = b.clone(layer, mapping);
    for (Value r : plain->getResults()) {
      auto t = cast<RankedTensorType>(r.getType());
      r.setType(RankedTensorType::get(t.getShape(), t.getElementType()));
    }
  }
  for (auto [value, buffer] : llvm::zip_equal(op.getYield().getValues(), op.getOuts()))
    writeResult(b, loc, copies, mapping.lookup(value), buffer,
                cast<RankedTensorType>(value.getType()));
  op->erase();
}

struct LowerBuffersToReferencePass
    : mlir::dla::impl::DLALowerBuffersToReferenceBase<LowerBuffersToReferencePass> {
  using DLALowerBuffersToReferenceBase::DLALowerBuffersToReferenceBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<OnStorageOp> ops;
    module.walk([&](OnStorageOp op) { ops.push_back(op); });
    if (ops.empty())
      return;
    CopyFunctions copies(module);
    for (OnStorageOp op : ops)
      expand(op, copies);

    // The tensor-form ops just built: the reference patterns, as
    // --dla-lower-to-reference runs them (invalid precisions diagnosed).
    bool ok = true;
    module.walk([&](LayerOpInterface op) {
      ok &= succeeded(reference::getPipelinePrecision(op, /*diagnose=*/true));
    });
    if (!ok)
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal(
        [](Operation *op) { return !isa<LayerOpInterface>(op); });
    RewritePatternSet patterns(ctx);
    populateDLAToLinalgPatterns(patterns, ReferenceOptions{fp16Arithmetic});
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // The casts that carried Winograd taps to their convolution.
    module.walk([](UnrealizedConversionCastOp cast) {
      if (cast->use_empty() && reference::getWinogradTaps(cast.getResult(0)))
        cast->erase();
    });

    // Back to memrefs: the function boundaries already are.
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
    pm.addPass(bufferization::createOneShotBufferizePass());
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};

} // namespace
