//===- ProgramFunction.cpp - The function an NVDLA program is written for -===//
//
// getProgramFunction picks the module's one function for both writers;
// prepareProgramFunction gives a loadable's function planNetwork's form:
// constants as arguments (their bytes travel with the program; compressed
// weights stay dla.weight_constant ops, a surface of their own), feature
// data at both ends, layers and channel views between them.
//
//===----------------------------------------------------------------------===//

#include "dla/Target/NvdlaModule.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/FeatureCopy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"

using namespace mlir;
using namespace mlir::dla;

FailureOr<func::FuncOp> mlir::dla::getProgramFunction(ModuleOp module) {
  // The function --dla-outline-nvdla-program made, when there is one; else
  // the module's one function.
  SmallVector<func::FuncOp> funcs, programs;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal()) {
      funcs.push_back(f);
      if (f->hasAttr(DLADialect::kNvdlaProgramAttrName))
        programs.push_back(f);
    }
  if (programs.size() > 1)
    return module.emitError() << "a register program is written for one function, the module "
                                 "has "
                              << programs.size() << " marked " << DLADialect::kNvdlaProgramAttrName;
  if (programs.size() == 1)
    return programs.front();
  if (funcs.size() != 1)
    return module.emitError() << "a register program is written for one function, the module "
                                 "has "
                              << funcs.size();
  return funcs.front();
}

namespace {
bool isFeature(Type t) {
  auto type = dyn_cast<RankedTensorType>(t);
  return type && isa_and_nonnull<FeatureAttr>(type.getEncoding());
}

/// A host op that only reorders a tensor's dimensions (TOSA's NHWC
/// boundary around the layers' NCHW).
bool isLayoutMove(Operation *op) {
  return op->getName().getStringRef() == "tosa.transpose" && op->getNumOperands() == 1 &&
         op->getNumResults() == 1;
}

/// A channel view (dla.channel_slice / dla.channel_concat): no NVDLA op,
/// the layers around it read and write its parent's storage in place
/// (planNetwork places it at an offset into its parent).
bool isChannelView(Operation &op) { return isa<ChannelViewOpInterface>(op); }

/// The storage bytes of a packed constant.
FailureOr<std::vector<uint8_t>> packedBytes(arith::ConstantOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getType());
  auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue());
  if (!type || !type.getEncoding() || !resource)
    return op.emitOpError("is not packed storage of an NVDLA encoding: a program's constants are "
                          "dense_resource storage bytes of an encoded tensor "
                          "(--dla-pack-weights), got ")
           << op.getType();
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return op.emitOpError("holds resource '")
           << resource.getRawHandle().getKey() << "' without data (elided?)";
  // Winograd weights have no element-wise layout: one buffer of taps.
  auto weight = dyn_cast<WeightAttr>(type.getEncoding());
  int64_t bytes = 0;
  if (weight && weight.getFormat() == ::dlaformat::nvdla::WeightFormat::Winograd &&
      !weight.getCompressed()) {
    FailureOr<MemRefType> buffer = getStorageBufferType(type, [&] { return op.emitOpError(); });
    if (failed(buffer))
      return failure();
    bytes = buffer->getDimSize(0);
  } else {
    auto layout = bindTensorLayout(type, [&] { return op.emitOpError(); });
    if (failed(layout))
      return failure();
    bytes = (*layout)->getStorageBytes();
  }
  ArrayRef<char> data = blob->getData();
  if (static_cast<int64_t>(data.size()) != bytes)
    return op.emitOpError("holds ") << data.size() << " bytes, the storage of " << type << " is "
                                    << bytes;
  return std::vector<uint8_t>(data.begin(), data.end());
}
} // namespace

FailureOr<std::vector<ProgramArgument>> mlir::dla::prepareProgramFunction(func::FuncOp func) {
  Block &body = func.getBody().front();
  Operation *terminator = body.getTerminator();
  std::vector<ProgramArgument> args;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    args.push_back({std::nullopt, func.getLoc()});

  // Inputs: an argument whose only use relayouts it into feature data,
  // possibly after transposes (TOSA's NHWC to the layers' NCHW): the host
  // side of the boundary, which the program's user does.
  for (BlockArgument a : body.getArguments()) {
    SmallVector<Operation *> moves;
    Value v = a;
    while (v.hasOneUse() && isLayoutMove(*v.getUsers().begin())) {
      moves.push_back(*v.getUsers().begin());
      v = moves.back()->getResult(0);
    }
    if (!v.hasOneUse())
      continue;
    auto relayout = dyn_cast<RelayoutOp>(*v.getUsers().begin());
    if (!relayout || isFeature(v.getType()) || !isFeature(relayout.getType()))
      continue;
    a.setType(relayout.getType());
    relayout.getResult().replaceAllUsesWith(a);
    relayout.erase();
    for (Operation *m : llvm::reverse(moves))
      m->erase();
  }
  // Results: feature data relayouted (then transposed) for the return.
  for (OpOperand &r : terminator->getOpOperands()) {
    SmallVector<Operation *> moves;
    Value v = r.get();
    while (v.getDefiningOp() && isLayoutMove(v.getDefiningOp()) && v.hasOneUse()) {
      moves.push_back(v.getDefiningOp());
      v = moves.back()->getOperand(0);
    }
    auto relayout = v.getDefiningOp<RelayoutOp>();
    if (!relayout || !v.hasOneUse() || !isFeature(relayout.getSource().getType()) ||
        isFeature(relayout.getType()))
      continue;
    r.set(relayout.getSource());
    for (Operation *m : moves)
      m->erase();
    relayout.erase();
  }
  // A host computation is refused before the host constants it reads
  // (their locations are often the compiler's, not the model's).
  Operation *host = nullptr;
  for (Operation &op : body)
    if (&op != terminator && !isa<LayerOpInterface, EmulatorOpInterface, arith::ConstantOp,
                                  WeightConstantOp, RelayoutOp>(op) &&
        !isChannelView(op) && !host && !op.hasTrait<OpTrait::ConstantLike>())
      host = &op;
  if (host)
    return host->emitOpError("runs on the host: a loadable holds NVDLA layers and, after "
                             "them, ops of NVIDIA's runtime emulator (an EMU task) only");
  // Constants become arguments; anything else but layers is refused here
  // (planNetwork would refuse it too, without saying why).
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (&op == terminator || isa<LayerOpInterface, EmulatorOpInterface>(op) || isChannelView(op))
      continue;
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      FailureOr<std::vector<uint8_t>> bytes = packedBytes(constant);
      if (failed(bytes))
        return failure();
      BlockArgument a = body.addArgument(constant.getType(), constant.getLoc());
      constant.getResult().replaceAllUsesWith(a);
      args.push_back({std::move(*bytes), constant.getLoc()});
      constant.erase();
      continue;
    }
    // Compressed weights stay: planNetwork makes them a surface that holds
    // their bytes (their compressed sizes are in the registers).
    if (isa<WeightConstantOp>(op))
      continue;
    // A copy between two feature layouts stays: planNetwork makes it a
    // BDMA operation where the configuration has BDMA (and says why not).
    if (auto relayout = dyn_cast<RelayoutOp>(op); relayout && isFeatureCopy(relayout))
      continue;
    if (isa<RelayoutOp>(op))
      return op.emitOpError("converts between layouts inside the program: only the inputs' and "
                            "results' relayouts (host layout <-> NVDLA feature data) stay "
                            "outside it, and copies between two feature layouts (BDMA); the "
                            "NVDLA units do not convert other layouts");
    return op.emitOpError("runs on the host: a loadable holds NVDLA layers and, after "
                          "them, ops of NVIDIA's runtime emulator (an EMU task) only");
  }
  func.setType(FunctionType::get(func.getContext(), body.getArgumentTypes(),
                                 terminator->getOperandTypes()));
  return args;
}
