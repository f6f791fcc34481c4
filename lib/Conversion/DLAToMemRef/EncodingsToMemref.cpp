//===- EncodingsToMemref.cpp - --dla-encodings-to-memref -----------------===//
//
// Materializes every dla encoding before bufferization, as IREE's
// MaterializeEncoding does: a TypeConverter maps an encoded tensor to its
// storage bytes (tensor<BYTES x i8>), every op with an encoded type is
// illegal, and applyPartialConversion rewrites function signatures, calls
// and returns (the ABI), packed constants (memref.global on their blobs),
// relayouts of non-constants (loops over the format library's views),
// to_storage / from_storage (nothing) and hardware layers with an encoding
// (a dla.on_storage holding the layer ops). Upstream One-Shot Bufferize
// then runs on the encoding-free remainder. Anything that would lose an
// encoding is diagnosed first (checkEncodingsToMemref).
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Conversion/Passes.h"
#include "dla/Format/BoundLayout.h"
#include "dla/Format/NvdlaWeightCompression.h"
#include "dla/Format/StorageDescription.h"

#include "dla/Conversion/DLAToMemRef/DLAToMemRef.h"
#include "dla/Conversion/DLAToMemRef/StorageCopy.h"

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
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAENCODINGSTOMEMREF
#include "dla/Conversion/Passes.h.inc"
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


/// The storage bytes of an encoded type: its bound layout's, or for
/// Winograd weights (no element has a byte offset) their stream's.
std::optional<int64_t> storageBytesOf(RankedTensorType t) {
  auto weight = dyn_cast<WeightAttr>(t.getEncoding());
  if (weight && weight.getFormat() == ::dlaformat::nvdla::WeightFormat::Winograd) {
    FailureOr<MemRefType> buffer =
        getStorageBufferType(t, [] { return InFlightDiagnostic(); });
    return failed(buffer) ? std::nullopt : std::optional<int64_t>(buffer->getDimSize(0));
  }
  std::unique_ptr<fmt::BoundLayout> bound = bindChecked(t);
  return bound ? std::optional<int64_t>(bound->getStorageBytes()) : std::nullopt;
}

/// Diagnoses compressed weights whose WGS, WMB and data surfaces disagree
/// (the format library's check, before any code reads them).
LogicalResult checkSurfaces(WeightConstantOp op) {
  auto type = cast<RankedTensorType>(op.getResult().getType());
  auto weight = cast<WeightAttr>(type.getEncoding());
  // The type verified: its layout and storage description exist.
  ::dlaformat::nvdla::NvdlaWeightLayout layout =
      *::dlaformat::nvdla::NvdlaWeightLayout::create(weight.getParams(type.getShape()));
  const int64_t alignment =
      cast<LayoutEncodingAttr>(weight)
          .getStorageDescription(type.getShape(), type.getElementType(),
                                 [] { return InFlightDiagnostic(); })
          ->buffers.front()
          .alignment;
  auto blobOf = [](Attribute a) {
    return cast<DenseResourceElementsAttr>(a).getRawHandle().getBlob();
  };
  // Weights referenced by name only (a dla-compile bundle keeps their bytes
  // in weights/*.bin): nothing to check until they are loaded.
  if (!blobOf(op.getWgs()) || !blobOf(op.getWmb()) || !blobOf(op.getData()))
    return success();
  auto bytes = [&](Attribute a) -> ArrayRef<char> { return blobOf(a)->getData(); };
  ArrayRef<char> wgs = bytes(op.getWgs()), wmb = bytes(op.getWmb()), data = bytes(op.getData());
  ::dlaformat::Status s = ::dlaformat::nvdla::checkSeparateSurfaces(
      layout, alignment, wgs.data(), static_cast<int64_t>(wgs.size()), wmb.data(),
      static_cast<int64_t>(wmb.size()), static_cast<int64_t>(data.size()));
  if (!s)
    return op->emitError("inconsistent compressed weights: ") << s.message();
  return success();
}

/// Checks every encoded type the pass will meet, with located diagnostics,
/// so that the conversion below cannot fail half-way or drop an encoding.
LogicalResult checkModuleImpl(ModuleOp module) {
  // Stops at the first problem: later ops would repeat it (a dynamic value
  // reaches its users and the function signature).
  WalkResult result = module.walk([&](Operation *op) -> WalkResult {
    // A dla.on_storage's body is lowered already (a module that went
    // through this pass before: the stages compose).
    if (!mentionsEncoding(op) || op->getParentOfType<OnStorageOp>())
      return WalkResult::advance();
    SmallVector<Type> types;
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      llvm::append_range(types, func.getArgumentTypes());
      llvm::append_range(types, func.getResultTypes());
    } else {
      llvm::append_range(types, op->getOperandTypes());
      llvm::append_range(types, op->getResultTypes());
    }
    // Compressed weights reach a layer as the surfaces of their
    // dla.weight_constant (its own case below), never as one buffer.
    if (isa<LayerOpInterface>(op)) {
      types.clear();
      for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
        if (!v.getDefiningOp<WeightConstantOp>())
          types.push_back(v.getType());
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
      // Packed Winograd weights have one storage buffer like any other
      // weights (a layer reads their taps): only a relayout cannot make them.
      auto weight = dyn_cast<WeightAttr>(enc);
      const bool packedWinograd = weight && !weight.getCompressed() &&
                                  weight.getFormat() ==
                                      ::dlaformat::nvdla::WeightFormat::Winograd &&
                                  !isa<RelayoutOp>(op);
      if (onlyConstantsPack(enc, why) && !isa<WeightConstantOp>(op) && !packedWinograd) {
        op->emitError("only constants pack into ")
            << enc << ": " << why << "; --dla-pack-weights folds relayouts of constants into it";
        return WalkResult::interrupt();
      }
      if (!isa<WeightConstantOp>(op) && !packedWinograd &&
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
    // Channel views of feature data move bytes (ChannelViewStorage.cpp);
    // their verifiers hold them to feature data on every side.
    if (isa<FunctionOpInterface, func::CallOp, func::ReturnOp, ToStorageOp, FromStorageOp,
            ChannelViewOpInterface>(op))
      return WalkResult::advance();
    // Layer ops run in a dla.on_storage: every operand must have a storage
    // buffer type, and a convolution fuses one SDP at most.
    if (auto layer = dyn_cast<LayerOpInterface>(op)) {
      for (Type t : types)
        if (failed(getStorageBufferType(cast<RankedTensorType>(t),
                                        [&] { return op->emitError(); })))
          return WalkResult::interrupt();
      // A fused producer's output never reaches memory: the layer's last op
      // is the only reader.
      if (Operation *producer = layer.getFusedProducer())
        if (!producer->hasOneUse()) {
          op->emitError("runs on the fly with a convolution whose result is also read "
                        "elsewhere, but a fused convolution's output never reaches memory");
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    }
    if (auto weights = dyn_cast<WeightConstantOp>(op)) {
      if (!llvm::all_of(ArrayRef<Attribute>{weights.getWgs(), weights.getWmb(),
                                            weights.getData()},
                        llvm::IsaPred<DenseResourceElementsAttr>)) {
        op->emitError("compressed weights must hold their WGS, WMB and data surfaces as "
                      "dense_resource blobs; run --dla-pack-weights first");
        return WalkResult::interrupt();
      }
      // The generated code follows the WGS values and WMB bits: surfaces
      // that disagree would read outside the data surface.
      if (failed(checkSurfaces(weights)))
        return WalkResult::interrupt();
      // A layer reads the three surfaces (dla.on_storage); anything else
      // would need one buffer.
      for (Operation *user : weights->getUsers())
        if (!isa<LayerOpInterface>(user)) {
          op->emitError("compressed weights have no storage type (their surface sizes depend "
                        "on the values); --dla-lower-to-memref runs them as a layer's operand "
                        "only, but '")
              << user->getName() << "' uses them";
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
      // Compressed weights have surfaces, not a type: their
      // dla.weight_constant is consumed by the layers' dla.on_storage.
      if (getDataDependentSurfaceCount(t))
        return t;
      std::optional<int64_t> bytes = storageBytesOf(t);
      if (!bytes)
        return std::nullopt;
      return storageTensorType(t.getContext(), *bytes);
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

FailureOr<SmallVector<Value>> makeWeightGlobals(WeightConstantOp op, OpBuilder *b);

/// Whether any op of `op`'s hardware layer has an encoded operand or result:
/// then the whole layer runs on storage.
bool layerMentionsEncoding(LayerOpInterface op) {
  return llvm::any_of(getHardwareLayer(op), mentionsEncoding);
}

/// A hardware layer with an encoded operand or result (a layer op, or a
/// convolution with its fused SDP) becomes a dla.on_storage on the storage
/// of its operands, writing new buffers that are handed back to the tensor
/// world as the relayout lowering does. The layer ops are moved into its
/// body unchanged, so no op has to be rebuilt attribute by attribute. Plain
/// layers stay: they are not accelerator-formatted.
struct LayerOnStorage : OpInterfaceConversionPattern<LayerOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;
  LogicalResult matchAndRewrite(LayerOpInterface op, ArrayRef<Value>,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Operation *> layer = getHardwareLayer(op);
    // The layer is rewritten from its first op, which the walk meets first.
    if (layer.front() != op.getOperation())
      return rewriter.notifyMatchFailure(op, "rewritten with its producer");
    // Placed at the last op, which every operand of the layer dominates; the
    // results of the others are read inside the layer only (checkEncodingsToMemref).
    Location loc = layer.back()->getLoc();
    rewriter.setInsertionPoint(layer.back());
    llvm::SetVector<Value> ins;
    for (Operation *member : layer)
      for (Value v : member->getOperands())
        if (!llvm::is_contained(layer, v.getDefiningOp()))
          ins.insert(v);
    ValueRange outs = layer.back()->getResults();
    SmallVector<Value> inBuffers, outBuffers;
    for (Value v : ins) {
      // Compressed weights: their three surfaces, as the hardware reads them.
      if (auto weights = v.getDefiningOp<WeightConstantOp>()) {
        FailureOr<SmallVector<Value>> surfaces = makeWeightGlobals(weights, &rewriter);
        if (failed(surfaces))
          return failure();
        llvm::append_range(inBuffers, *surfaces);
        continue;
      }
      inBuffers.push_back(toBuffer(rewriter, loc, rewriter.getRemappedValue(v)));
    }
    for (Value r : outs) {
      auto logical = cast<RankedTensorType>(r.getType());
      outBuffers.push_back(getEncoding(logical)
                               ? allocStorage(rewriter, loc, logical)
                               : Value(memref::AllocOp::create(
                                     rewriter, loc,
                                     MemRefType::get(logical.getShape(), logical.getElementType()))));
    }
    auto onStorage = OnStorageOp::create(rewriter, loc, inBuffers, outBuffers);
    SmallVector<Type> argTypes;
    SmallVector<Location> argLocs;
    for (Value v : ins) {
      argTypes.push_back(v.getType());
      argLocs.push_back(v.getLoc());
    }
    Block *body = rewriter.createBlock(&onStorage.getBody(), {}, argTypes, argLocs);
    IRMapping mapping;
    mapping.map(ins.getArrayRef(), body->getArguments());
    for (Operation *member : layer)
      rewriter.clone(*member, mapping);
    SmallVector<Value> yielded;
    for (Value r : outs)
      yielded.push_back(mapping.lookup(r));
    YieldOp::create(rewriter, loc, yielded);
    rewriter.setInsertionPointAfter(onStorage);
    SmallVector<Value> results;
    for (Value buffer : outBuffers)
      results.push_back(toTensor(rewriter, loc, buffer));
    rewriter.replaceOp(layer.back(), results);
    for (Operation *member : llvm::reverse(ArrayRef(layer).drop_back()))
      rewriter.eraseOp(member);
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
    const int64_t bytes = *storageBytesOf(type);
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
/// finds them. With `b`, returns their memref.get_global there.
FailureOr<SmallVector<Value>> makeWeightGlobals(WeightConstantOp op, OpBuilder *b) {
  auto module = op->getParentOfType<ModuleOp>();
  auto type = cast<RankedTensorType>(op.getType());
  auto desc = getEncoding(type).getStorageDescription(type.getShape(), type.getElementType(),
                                                      [&] { return op.emitError(); });
  if (failed(desc))
    return failure();
  SmallVector<Value> buffers;
  Attribute surfaces[] = {op.getWgs(), op.getWmb(), op.getData()};
  for (auto [i, attr] : llvm::enumerate(surfaces)) {
    auto resource = cast<DenseResourceElementsAttr>(attr); // checkModule
    const int64_t bytes = cast<ShapedType>(resource.getType()).getNumElements();
    std::string name = "__dla_weights_" + desc->buffers[i].name;
    auto memType = MemRefType::get({bytes}, IntegerType::get(op.getContext(), 8));
    OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
    auto global = memref::GlobalOp::create(
        mb, op.getLoc(), uniqueSymbol(module, name), mb.getStringAttr("private"), memType,
        DenseResourceElementsAttr::get(storageTensorType(op.getContext(), bytes),
                                       resource.getRawHandle()),
        /*constant=*/true, mb.getI64IntegerAttr(desc->buffers[i].alignment));
    if (b)
      buffers.push_back(
          memref::GetGlobalOp::create(*b, op.getLoc(), memType, global.getSymName()));
  }
  return buffers;
}

/// Compressed weights no layer reads: their globals only. Those a layer
/// reads are used at that layer's dla.on_storage (LayerOnStorage).
struct WeightConstantLowering : OpConversionPattern<WeightConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WeightConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (failed(makeWeightGlobals(op, nullptr)))
      return failure();
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

struct LowerToMemrefPass : mlir::dla::impl::DLAEncodingsToMemrefBase<LowerToMemrefPass> {
  using DLAEncodingsToMemrefBase::DLAEncodingsToMemrefBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(checkEncodingsToMemref(module)))
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

    std::unique_ptr<TypeConverter> converter = createStorageTypeConverter();
    ConversionTarget target(*ctx);
    populateEncodingsToMemrefLegality(target);
    RewritePatternSet patterns(ctx);
    populateEncodingsToMemrefPatterns(*converter, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    module.walk([](WeightConstantOp op) {
      if (op->use_empty())
        op->erase();
    });
    // Only the layer ops inside dla.on_storage still read the target: it
    // moves onto each of those (their verifiers find it there, and it goes
    // with them when they are lowered), so the lowered module parses
    // without the dialect (mlir-runner).
    if (Attribute targetAttr = module->getAttr(TargetAttr::kAttrName)) {
      module.walk([&](OnStorageOp op) { op->setAttr(TargetAttr::kAttrName, targetAttr); });
      module->removeAttr(TargetAttr::kAttrName);
    }
    if (skipBufferize)
      return;

    // Upstream One-Shot Bufferize on what is now encoding-free: function
    // boundaries get identity-layout buffers (storage: memref<BYTES x i8>).
    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    // The layer ops inside dla.on_storage name logical tensors, not buffers.
    options.opFilter.denyOperation(
        [](Operation *op) { return isa<OnStorageOp>(op) || op->getParentOfType<OnStorageOp>(); });
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

std::unique_ptr<TypeConverter> mlir::dla::createStorageTypeConverter() {
  return std::make_unique<StorageTypeConverter>();
}

LogicalResult mlir::dla::checkEncodingsToMemref(ModuleOp module) {
  return checkModuleImpl(module);
}

void mlir::dla::populateEncodingsToMemrefLegality(ConversionTarget &target) {
  target.markUnknownOpDynamicallyLegal([](Operation *op) {
    // The layer ops of a dla.on_storage keep their logical types.
    if (op->getParentOfType<OnStorageOp>())
      return true;
    if (auto layer = dyn_cast<LayerOpInterface>(op))
      return !layerMentionsEncoding(layer);
    return !mentionsEncoding(op);
  });
  target.addIllegalOp<RelayoutOp, ToStorageOp, FromStorageOp>();
  // Compressed weights a layer reads stay until the layer's dla.on_storage
  // holds their surfaces (then they are dead, and the pass erases them).
  target.addDynamicallyLegalOp<WeightConstantOp>(
      [](WeightConstantOp op) { return !op->use_empty(); });
}

void mlir::dla::populateEncodingsToMemrefPatterns(const TypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  patterns.add<RelayoutLowering, ConstantLowering, WeightConstantLowering,
               StorageIdentity<ToStorageOp>, StorageIdentity<FromStorageOp>, LayerOnStorage>(
      converter, ctx);
  populateChannelViewStoragePatterns(converter, patterns);
}
