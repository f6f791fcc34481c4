//===- LowerToMemref.cpp - Encoded tensors to storage buffers -------------===//
//
// Materializes every dla encoding before bufferization, as IREE's
// MaterializeEncoding does: a TypeConverter maps an encoded tensor to its
// storage bytes (tensor<BYTES x i8>), a ConversionTarget makes every op with
// an encoded type illegal, and applyPartialConversion rewrites
//   - function signatures, calls and returns (the ABI: storage bytes),
//   - packed constants into memref.global constants on their blobs,
//   - dla.relayout of a non-constant into loops over the format library's
//     typed strided views (StorageDescription),
//   - dla.to_storage / dla.from_storage into nothing (same bytes).
// Upstream One-Shot Bufferize then runs on the encoding-free remainder, so
// no encoding ever reaches it. Anything that would lose an encoding is
// diagnosed first (checkModule), never bufferized.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/BoundLayout.h"
#include "dla/Format/StorageDescription.h"

#include "ReferencePatterns.h"
#include "StorageCopy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLALOWERTOMEMREF
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

namespace {

/// The dla encoding of `type`, if it is a tensor that has one.
LayoutEncodingAttr getEncoding(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? dyn_cast_or_null<LayoutEncodingAttr>(tensor.getEncoding()) : nullptr;
}

bool hasEncodedType(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return bool(getEncoding(t)); });
}

/// Whether `op` (or, for a function, its signature) mentions an encoding.
bool mentionsEncoding(Operation *op) {
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    return hasEncodedType(func.getArgumentTypes()) || hasEncodedType(func.getResultTypes());
  return hasEncodedType(op->getOperandTypes()) || hasEncodedType(op->getResultTypes());
}

/// Relayouts into these need the data at compile time.
bool onlyConstantsPack(LayoutEncodingAttr encoding, std::string &why) {
  auto weight = dyn_cast<WeightAttr>(encoding);
  if (!weight)
    return false;
  if (weight.getCompressed()) {
    why = "its storage (WGS, WMB, data) depends on the values";
    return true;
  }
  if (weight.getFormat() == ::dlaformat::nvdla::WeightFormat::Winograd) {
    why = "it needs the Winograd transform, which has no element-wise map";
    return true;
  }
  return false;
}


/// Checks every encoded type the pass will meet, with located diagnostics,
/// so that the conversion below cannot fail half-way or drop an encoding.
LogicalResult checkModule(ModuleOp module) {
  // Stops at the first problem: later ops would repeat it (a dynamic value
  // reaches its users and the function signature).
  WalkResult result = module.walk([&](Operation *op) -> WalkResult {
    if (!mentionsEncoding(op))
      return WalkResult::advance();
    SmallVector<Type> types;
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      llvm::append_range(types, func.getArgumentTypes());
      llvm::append_range(types, func.getResultTypes());
    } else {
      llvm::append_range(types, op->getOperandTypes());
      llvm::append_range(types, op->getResultTypes());
    }
    for (Type t : types) {
      LayoutEncodingAttr enc = getEncoding(t);
      if (!enc)
        continue;
      auto tensor = cast<RankedTensorType>(t);
      if (!tensor.hasStaticShape()) {
        op->emitError("--dla-lower-to-memref needs static shapes to size storage, but ")
            << tensor << " is dynamic";
        return WalkResult::interrupt();
      }
      std::string why;
      if (onlyConstantsPack(enc, why) && !isa<WeightConstantOp>(op)) {
        op->emitError("only constants pack into ")
            << enc << ": " << why << "; --dla-pack-weights folds relayouts of constants into it";
        return WalkResult::interrupt();
      }
      if (!isa<WeightConstantOp>(op) &&
          failed(bindTensorLayout(tensor, [&] { return op->emitError(); })))
        return WalkResult::interrupt();
    }
    if (auto relayout = dyn_cast<RelayoutOp>(op)) {
      // Bit fields and widened components are moved with arith ops, which
      // take signless integers only.
      for (Type t : {relayout.getSource().getType(), relayout.getResult().getType()}) {
        auto tensor = cast<RankedTensorType>(t);
        Type elem = tensor.getElementType();
        if (!getEncoding(tensor) || !elem.isInteger() || elem.isSignlessInteger())
          continue;
        std::unique_ptr<fmt::BoundLayout> layout =
            bindChecked(RankedTensorType::get(tensor.getShape(), elem, tensor.getEncoding()));
        if (!layout)
          continue;
        for (const fmt::StorageView &v : layout->describeStorage().views)
          if (!v.fields.empty() ||
              v.elementBytes * 8 != static_cast<int64_t>(elem.getIntOrFloatBitWidth())) {
            op->emitError("relayout of ")
                << tensor << ": its storage packs bit fields or widens elements, which "
                << "--dla-lower-to-memref does for signless integers only; use i"
                << elem.getIntOrFloatBitWidth();
            return WalkResult::interrupt();
          }
      }
      return WalkResult::advance();
    }
    if (isa<FunctionOpInterface, func::CallOp, func::ReturnOp, ToStorageOp, FromStorageOp>(op))
      return WalkResult::advance();
    // Layer ops become their storage-view form (dla.buffer.*): every
    // operand must have a storage memref type.
    if (isa<ConvOp, SdpOp, PoolOp, LrnOp>(op)) {
      for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
        if (failed(getStorageMemRefTypes(cast<RankedTensorType>(t),
                                         [&] { return op->emitError(); })))
          return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto weights = dyn_cast<WeightConstantOp>(op)) {
      if (!weights->use_empty()) {
        op->emitError("compressed weights have no storage type (their surface sizes depend on "
                      "the values); --dla-lower-to-memref keeps them only as unused constants");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (!isa<DenseResourceElementsAttr>(constant.getValue())) {
        op->emitError("an encoded constant must hold its storage bytes as a dense_resource "
                      "blob; run --dla-pack-weights first");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    op->emitError("'")
        << op->getName()
        << "' has a dla-encoded operand or result, which --dla-lower-to-memref cannot lower "
           "without losing the encoding";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}


RankedTensorType storageTensorType(MLIRContext *ctx, int64_t bytes) {
  return RankedTensorType::get({bytes}, IntegerType::get(ctx, 8));
}

/// Encoded tensor -> tensor<BYTES x i8>; everything else unchanged.
struct StorageTypeConverter : TypeConverter {
  StorageTypeConverter() {
    addConversion([](Type t) { return t; });
    addConversion([](RankedTensorType t) -> std::optional<Type> {
      if (!getEncoding(t))
        return t;
      std::unique_ptr<fmt::BoundLayout> bound = bindChecked(t);
      if (!bound)
        return std::nullopt;
      return storageTensorType(t.getContext(), bound->getStorageBytes());
    });
  }
};

Value toBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto t = cast<RankedTensorType>(tensor.getType());
  auto m = MemRefType::get(t.getShape(), t.getElementType());
  return bufferization::ToBufferOp::create(b, loc, m, tensor, /*read_only=*/true);
}

Value toTensor(OpBuilder &b, Location loc, Value memref) {
  auto m = cast<MemRefType>(memref.getType());
  return bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(m.getShape(), m.getElementType()), memref,
      /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr());
}

struct RelayoutLowering : OpConversionPattern<RelayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(RelayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    RankedTensorType srcType = op.getSource().getType();
    RankedTensorType dstType = op.getResult().getType();
    const bool srcEncoded = bool(getEncoding(srcType));
    const bool dstEncoded = bool(getEncoding(dstType));
    Value src = toBuffer(rewriter, loc, adaptor.getSource());
    // Encoded source: unpack into a row-major buffer first.
    Value logical = src;
    auto logicalType = MemRefType::get(srcType.getShape(), srcType.getElementType());
    if (srcEncoded) {
      logical = memref::AllocOp::create(rewriter, loc, logicalType);
      emitCopy(rewriter, loc, module, srcType, logical, src, /*toStorage=*/false);
    }
    Value result = logical;
    if (dstEncoded) {
      result = allocStorage(rewriter, loc, dstType);
      emitCopy(rewriter, loc, module, dstType, logical, result, /*toStorage=*/true);
    } else if (!srcEncoded) {
      return rewriter.notifyMatchFailure(op, "no encoding on either side");
    }
    rewriter.replaceOp(op, toTensor(rewriter, loc, result));
    return success();
  }
};

/// A layer op operand in its storage-view form: the views of its storage
/// (getStorageMemRefTypes) and its logical type; absent operands are empty.
struct StorageOperand {
  SmallVector<Value> views;
  TypeAttr type;
};

/// The views of `buffer`, the storage (encoded) or row-major memref of a
/// tensor of type `logical`, as the format library describes them.
SmallVector<Value> viewsOf(OpBuilder &b, Location loc, RankedTensorType logical, Value buffer) {
  if (!getEncoding(logical))
    return {buffer};
  fmt::StorageDescription desc = bindChecked(logical)->describeStorage();
  if (desc.views.empty())
    return {buffer};
  SmallVector<Value> views;
  for (const fmt::StorageView &v : desc.views)
    views.push_back(
        makeView(b, loc, buffer, v, logical.getElementType()));
  return views;
}

/// `original`'s converted value `converted` (storage bytes when encoded) as
/// the views a dla.buffer op reads.
StorageOperand readOperand(OpBuilder &b, Location loc, Value original, Value converted) {
  if (!original)
    return {};
  auto logical = cast<RankedTensorType>(original.getType());
  return {viewsOf(b, loc, logical, toBuffer(b, loc, converted)), TypeAttr::get(logical)};
}

/// The destination of a layer op's result: a new storage buffer (zeroed
/// padding) or row-major buffer, and its views.
struct StorageResult : StorageOperand {
  Value buffer;
};
StorageResult allocResult(OpBuilder &b, Location loc, RankedTensorType logical) {
  StorageResult r;
  r.buffer = getEncoding(logical)
                 ? allocStorage(b, loc, logical)
                 : Value(memref::AllocOp::create(
                       b, loc, MemRefType::get(logical.getShape(), logical.getElementType())));
  r.views = viewsOf(b, loc, logical, r.buffer);
  r.type = TypeAttr::get(logical);
  return r;
}

/// Layer ops with an encoded operand or result become their storage-view
/// form (dla.buffer.conv, ...) writing a new buffer, handed back to the
/// tensor world as the relayout lowering does. Plain layer ops stay: they
/// are not accelerator-formatted.
struct ConvLowering : OpConversionPattern<ConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StorageOperand in = readOperand(rewriter, loc, op.getInput(), adaptor.getInput());
    StorageOperand w = readOperand(rewriter, loc, op.getWeight(), adaptor.getWeight());
    StorageOperand bias = readOperand(rewriter, loc, op.getBias(), adaptor.getBias());
    StorageResult out = allocResult(rewriter, loc, op.getOutput().getType());
    BufferConvOp::create(rewriter, loc, op.getModeAttr(), in.views, w.views, bias.views,
                         out.views, in.type, w.type, bias.type, out.type, op.getStridesAttr(),
                         op.getPaddingAttr(), op.getDilationsAttr(),
                         op.getPipelinePrecisionAttr(), op.getWeightPrecisionAttr());
    rewriter.replaceOp(op, toTensor(rewriter, loc, out.buffer));
    return success();
  }
};

struct SdpLowering : OpConversionPattern<SdpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SdpOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StorageOperand in = readOperand(rewriter, loc, op.getInput(), adaptor.getInput());
    StorageOperand bias = readOperand(rewriter, loc, op.getBias(), adaptor.getBias());
    StorageOperand bn = readOperand(rewriter, loc, op.getBatchnorm(), adaptor.getBatchnorm());
    StorageOperand elt = readOperand(rewriter, loc, op.getEltwise(), adaptor.getEltwise());
    StorageOperand prelu = readOperand(rewriter, loc, op.getPrelu(), adaptor.getPrelu());
    StorageResult out = allocResult(rewriter, loc, op.getOutput().getType());
    BufferSdpOp::create(rewriter, loc, op.getModeAttr(), in.views, bias.views, bn.views,
                        elt.views, prelu.views, out.views, in.type, bias.type, bn.type, elt.type,
                        prelu.type, out.type, op.getReluAttr(), op.getPipelinePrecisionAttr());
    rewriter.replaceOp(op, toTensor(rewriter, loc, out.buffer));
    return success();
  }
};

struct PoolLowering : OpConversionPattern<PoolOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StorageOperand in = readOperand(rewriter, loc, op.getInput(), adaptor.getInput());
    StorageResult out = allocResult(rewriter, loc, op.getOutput().getType());
    BufferPoolOp::create(rewriter, loc, op.getKindAttr(), in.views, out.views, in.type, out.type,
                         op.getKernelAttr(), op.getStridesAttr(), op.getPaddingAttr(),
                         op.getPipelinePrecisionAttr());
    rewriter.replaceOp(op, toTensor(rewriter, loc, out.buffer));
    return success();
  }
};

struct LrnLowering : OpConversionPattern<LrnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LrnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StorageOperand in = readOperand(rewriter, loc, op.getInput(), adaptor.getInput());
    StorageResult out = allocResult(rewriter, loc, op.getOutput().getType());
    BufferLrnOp::create(rewriter, loc, in.views, out.views, in.type, out.type,
                        op.getSizeAttr(), op.getAlphaAttr(), op.getBetaAttr(), op.getKAttr(),
                        op.getPipelinePrecisionAttr());
    rewriter.replaceOp(op, toTensor(rewriter, loc, out.buffer));
    return success();
  }
};

/// Packed constants: a memref.global constant on the same blob (no copy).
struct ConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto resource = cast<DenseResourceElementsAttr>(op.getValue());
    std::unique_ptr<fmt::BoundLayout> layout = bindChecked(type);
    const int64_t bytes = layout->getStorageBytes();
    Value mem = makeGlobal(rewriter, op, "__dla_constant", resource.getRawHandle(), bytes,
                           getAlignment(type));
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, op.getLoc(), storageTensorType(getContext(), bytes), mem,
                               rewriter.getUnitAttr()));
    return success();
  }

  static Value makeGlobal(ConversionPatternRewriter &rewriter, Operation *op, StringRef name,
                          DenseResourceElementsHandle handle, int64_t bytes, int64_t alignment) {
    auto module = op->getParentOfType<ModuleOp>();
    auto memType = MemRefType::get({bytes}, rewriter.getI8Type());
    auto init = DenseResourceElementsAttr::get(storageTensorType(op->getContext(), bytes), handle);
    OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
    auto global = memref::GlobalOp::create(mb, op->getLoc(), uniqueSymbol(module, name), mb.getStringAttr("private"),
                                           memType, init, /*constant=*/true,
                                           mb.getI64IntegerAttr(alignment));
    return memref::GetGlobalOp::create(rewriter, op->getLoc(), memType, global.getSymName());
  }
};

/// Compressed weights: three aligned globals (WGS, WMB, data), as a runtime
/// finds them; the op itself has no uses (checkModule).
struct WeightConstantLowering : OpConversionPattern<WeightConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WeightConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    auto enc = getEncoding(op.getType());
    auto type = cast<RankedTensorType>(op.getType());
    auto desc = enc.getStorageDescription(type.getShape(), type.getElementType(),
                                          [&] { return op.emitError(); });
    if (failed(desc))
      return failure();
    Attribute surfaces[] = {op.getWgs(), op.getWmb(), op.getData()};
    for (auto [i, attr] : llvm::enumerate(surfaces)) {
      auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
      if (!resource)
        return rewriter.notifyMatchFailure(op, "surface is not a dense_resource");
      const int64_t bytes = cast<ShapedType>(resource.getType()).getNumElements();
      std::string name = "__dla_weights_" + desc->buffers[i].name;
      auto memType = MemRefType::get({bytes}, rewriter.getI8Type());
      OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
      memref::GlobalOp::create(
          mb, op.getLoc(), uniqueSymbol(module, name), mb.getStringAttr("private"), memType,
          DenseResourceElementsAttr::get(storageTensorType(getContext(), bytes),
                                         resource.getRawHandle()),
          /*constant=*/true, mb.getI64IntegerAttr(desc->buffers[i].alignment));
      }
    rewriter.eraseOp(op);
    return success();
  }
};

/// to_storage / from_storage: the converted value already is the storage.
template <typename OpTy> struct StorageIdentity : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperands().front());
    return success();
  }
};

struct LowerToMemrefPass : mlir::dla::impl::DLALowerToMemrefBase<LowerToMemrefPass> {
  using DLALowerToMemrefBase::DLALowerToMemrefBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(checkModule(module)))
      return signalPassFailure();

    // The alignment of every storage argument, recorded while the
    // signatures still name their encodings.
    llvm::StringMap<SmallVector<int64_t>> argAlignments;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasEncodedType(func.getArgumentTypes()))
        continue;
      SmallVector<int64_t> &alignments = argAlignments[func.getSymName()];
      for (Type t : func.getArgumentTypes())
        alignments.push_back(getEncoding(t) ? getAlignment(cast<RankedTensorType>(t)) : 0);
    }

    // An on_the_fly SDP's pipeline depends on the convolution it is fused
    // to, which its storage-view form does not name: stated on the op.
    bool stated = true;
    module.walk([&](SdpOp sdp) {
      if (sdp.getMode() != SdpMode::OnTheFly || sdp.getPipelinePrecisionAttr() ||
          !mentionsEncoding(sdp))
        return;
      FailureOr<::dlaformat::nvdla::PipelinePrecision> pipeline = reference::getPipelinePrecision(
          cast<PrecisionConversionOpInterface>(*sdp), /*diagnose=*/true);
      if (failed(pipeline)) {
        stated = false;
        return;
      }
      sdp.setPipelinePrecisionAttr(PipelinePrecisionAttr::get(ctx, *pipeline));
    });
    if (!stated)
      return signalPassFailure();

    StorageTypeConverter converter;
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *op) { return !mentionsEncoding(op); });
    target.addIllegalOp<RelayoutOp, ToStorageOp, FromStorageOp, WeightConstantOp>();
    RewritePatternSet patterns(ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    patterns.add<RelayoutLowering, ConstantLowering, WeightConstantLowering,
                 StorageIdentity<ToStorageOp>, StorageIdentity<FromStorageOp>>(converter, ctx);
    patterns.add<ConvLowering, SdpLowering, PoolLowering, LrnLowering>(converter, ctx);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // Nothing of the dla dialect is left to read the target: drop it, so the
    // lowered module parses without the dialect (mlir-runner).
    module->removeAttr(TargetAttr::kAttrName);
    if (skipBufferize)
      return;

    // Upstream One-Shot Bufferize on what is now encoding-free: function
    // boundaries get identity-layout buffers (storage: memref<BYTES x i8>).
    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.setFunctionBoundaryTypeConversion(
        bufferization::LayoutMapOption::IdentityLayoutMap);
    options.unknownTypeConverterFn = [](TensorType t, Attribute space,
                                        const bufferization::BufferizationOptions &) {
      return cast<BaseMemRefType>(
          bufferization::getMemRefTypeWithStaticIdentityLayout(t, space));
    };
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotModuleBufferize(module, options, state)))
      return signalPassFailure();
    assumeArgumentAlignment(module, argAlignments);
  }

  /// The ABI's alignment in the IR: each storage argument is used through
  /// memref.assume_alignment (which reaches LLVM as an alignment assumption;
  /// an llvm.align argument attribute would be dropped with the memref
  /// descriptor's expansion).
  static void assumeArgumentAlignment(ModuleOp module,
                                      const llvm::StringMap<SmallVector<int64_t>> &alignments) {
    for (auto func : module.getOps<func::FuncOp>()) {
      auto it = alignments.find(func.getSymName());
      if (it == alignments.end())
        continue;
      Block &entry = func.front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      for (auto [arg, alignment] : llvm::zip_equal(entry.getArguments(), it->second)) {
        if (alignment <= 1 || !isa<MemRefType>(arg.getType()))
          continue;
        auto assumed = memref::AssumeAlignmentOp::create(b, func.getLoc(), arg,
                                                         static_cast<uint32_t>(alignment));
        arg.replaceAllUsesExcept(assumed.getResult(), assumed);
      }
    }
  }
};

} // namespace
