//===- OutlineNvdlaProgram.cpp - a network's layers as one function -------===//
//
// The loadable writer takes one function of layers with feature data at
// both ends; a compiled network has host steps before and after its
// layers. Outlining the layers (when nothing on the host sits between
// them) gives the writer that function and leaves the host steps where
// they are, around a call. Ops of NVIDIA's runtime emulator that read the
// layers' results go with them, after the layers: the loadable runs them
// as an EMU task after the DLA task.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/FeatureCopy.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAOUTLINENVDLAPROGRAM
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;

namespace {

/// What the program holds: hardware layers and the views between them
/// (offsets into their storage, no work of their own), and copies between
/// feature layouts where BDMA runs them (isBdmaCopy; without BDMA they
/// stay host ops).
bool inProgram(Operation *op) { return isLayerOrView(op) || isBdmaCopy(op); }

/// Whether `op` only moves or converts data at the boundary that
/// --dla-convert-tosa and layout assignment draw around the layers
/// (relayouts, transposes, reshapes, casts): the user's model has its own
/// ops between the layers, which are the ones to name first.
bool movesDataOnly(Operation &op) {
  if (isa<RelayoutOp>(op))
    return true;
  StringRef name = op.getName().getStringRef();
  return name == "tosa.transpose" || name == "tosa.reshape" || name == "tosa.cast";
}

/// The host ops (in block order) that read what a layer computed and
/// compute what a layer reads; those that only move data last.
SmallVector<Operation *> hostOpsBetween(Block &body, const llvm::SetVector<Operation *> &layers) {
  // After: ops reading a layer's result, transitively.
  DenseSet<Operation *> after;
  for (Operation &op : body)
    for (Value v : op.getOperands())
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == &body && (layers.contains(def) || after.contains(def)))
        after.insert(&op);
  // Before: ops a layer reads, transitively.
  DenseSet<Operation *> before;
  for (Operation &op : llvm::reverse(body)) {
    if (!layers.contains(&op) && !before.contains(&op))
      continue;
    for (Value v : op.getOperands())
      if (Operation *def = v.getDefiningOp(); def && def->getBlock() == &body)
        before.insert(def);
  }
  SmallVector<Operation *> between, moves;
  for (Operation &op : body)
    if (!layers.contains(&op) && after.contains(&op) && before.contains(&op))
      (movesDataOnly(op) ? moves : between).push_back(&op);
  between.append(moves);
  return between;
}

/// The emulator ops that read the layers' results (or another such op's),
/// in block order; an error at the first whose result a layer reads.
FailureOr<llvm::SetVector<Operation *>> emulatedOps(Block &body,
                                                    const llvm::SetVector<Operation *> &layers) {
  llvm::SetVector<Operation *> emulated;
  for (Operation &op : body)
    if (isa<EmulatorOpInterface>(op) && llvm::any_of(op.getOperands(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return def && (layers.contains(def) || emulated.contains(def));
        }))
      emulated.insert(&op);
  for (Operation *op : emulated)
    for (Operation *user : op->getUsers())
      if (layers.contains(user)) {
        InFlightDiagnostic d = op->emitOpError(
            "runs on NVIDIA's runtime emulator, an EMU task after the DLA task, but a layer "
            "reads its result: the network is not one NVDLA program");
        d.attachNote(user->getLoc()) << "read here";
        return d;
      }
  return emulated;
}

LogicalResult outline(func::FuncOp func, SymbolTable &symbols, int64_t &moved) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return success();
  Block &body = func.getBody().front();
  llvm::SetVector<Operation *> layers;
  for (Operation &op : body)
    if (inProgram(&op))
      layers.insert(&op);
  if (layers.empty())
    return success();
  FailureOr<llvm::SetVector<Operation *>> emulated = emulatedOps(body, layers);
  if (failed(emulated))
    return failure();
  const size_t numLayers = layers.size();
  const auto copies = llvm::count_if(layers, isBdmaCopy);
  // The program: its layers, then the emulator's ops.
  Operation *lastLayer = layers.back();
  layers.insert(emulated->begin(), emulated->end());
  if (SmallVector<Operation *> between = hostOpsBetween(body, layers); !between.empty()) {
    InFlightDiagnostic d =
        between.front()->emitOpError("runs on the host between accelerator layers (it reads a "
                                     "layer's result and a layer reads its own): the network is "
                                     "not one NVDLA program");
    constexpr size_t kNamed = 3;
    for (Operation *op : ArrayRef(between).drop_front().take_front(kNamed))
      d.attachNote(op->getLoc()) << "so does '" << op->getName() << "'";
    if (between.size() > kNamed + 1)
      d.attachNote() << between.size() - kNamed - 1 << " more host ops between the layers";
    return d;
  }

  // Arguments: what the layers read from outside but constants (cloned in:
  // a program carries its weights, compressed ones too). Results: what is
  // read outside.
  llvm::SetVector<Value> inputs, outputs;
  llvm::SetVector<Operation *> constants;
  for (Operation *op : layers)
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && layers.contains(def))
        continue;
      if (def && (def->hasTrait<OpTrait::ConstantLike>() || isa<WeightConstantOp>(def)))
        constants.insert(def);
      else
        inputs.insert(v);
    }
  // A view read outside (a slice of a layer's result the host reads): a
  // loadable's output is a memory of its own, so the program returns the
  // view's parent and the host takes the view of it after the call.
  SmallVector<std::pair<Value, SmallVector<Operation *>>> viewOutputs;
  for (Operation *op : layers)
    for (Value r : op->getResults()) {
      if (llvm::none_of(r.getUsers(), [&](Operation *u) { return !layers.contains(u); }))
        continue;
      SmallVector<Operation *> chain;
      Value root = r;
      while (Operation *def = root.getDefiningOp()) {
        if (!isa<ChannelSliceOp, ReshapeViewOp>(def) || !layers.contains(def))
          break;
        chain.insert(chain.begin(), def);
        root = def->getOperand(0);
      }
      if (chain.empty() || !root.getDefiningOp() || !layers.contains(root.getDefiningOp())) {
        outputs.insert(r);
        continue;
      }
      outputs.insert(root);
      viewOutputs.push_back({r, std::move(chain)});
    }

  MLIRContext *ctx = func.getContext();
  OpBuilder b(func);
  b.setInsertionPointAfter(func);
  auto type = FunctionType::get(ctx, TypeRange(inputs.getArrayRef()),
                                TypeRange(outputs.getArrayRef()));
  auto program = func::FuncOp::create(b, func.getLoc(), func.getName().str() + "_nvdla", type);
  program.setPrivate();
  program->setAttr(DLADialect::kNvdlaProgramAttrName, UnitAttr::get(ctx));
  symbols.insert(program); // renamed on a clash
  Block *entry = program.addEntryBlock();
  IRMapping map;
  for (auto [v, a] : llvm::zip(inputs, entry->getArguments()))
    map.map(v, a);
  b.setInsertionPointToStart(entry);
  for (Operation *c : constants)
    b.clone(*c, map);
  for (Operation *op : layers)
    b.clone(*op, map);
  SmallVector<Value> results;
  for (Value r : outputs.getArrayRef())
    results.push_back(map.lookup(r));
  func::ReturnOp::create(b, func.getLoc(), results);
  // Views only the host read (taken again after the call) go.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*entry)))
    if (isa<ChannelSliceOp, ReshapeViewOp>(op) && op.use_empty())
      op.erase();

  // The call where the last layer was; the block's order is then made
  // topological again (a host op after the layers in the order of its
  // operands may have stood between them in the text).
  b.setInsertionPoint(lastLayer);
  auto call = func::CallOp::create(b, layers.front()->getLoc(), program, inputs.getArrayRef());
  IRMapping returned;
  for (auto [r, c] : llvm::zip(outputs.getArrayRef(), call.getResults()))
    returned.map(r, c);
  b.setInsertionPointAfter(call);
  for (auto &[view, chain] : viewOutputs) {
    Value outside;
    for (Operation *op : chain)
      outside = b.clone(*op, returned)->getResult(0);
    view.replaceUsesWithIf(outside,
                           [&](OpOperand &use) { return !layers.contains(use.getOwner()); });
  }
  for (auto [r, c] : llvm::zip(outputs.getArrayRef(), call.getResults()))
    Value(r).replaceUsesWithIf(c, [&](OpOperand &use) { return !layers.contains(use.getOwner()); });
  for (Operation *op : llvm::reverse(layers))
    op->erase();
  for (Operation *c : constants)
    if (c->use_empty())
      c->erase();
  moved += static_cast<int64_t>(numLayers);
  if (!sortTopologically(&body))
    return func.emitOpError("has a cycle after its layers were outlined"); // not expected

  // What the host does around the program (the bundle's manifest says it):
  // the work the call waits for and the work that waits for it, constants
  // and the return aside.
  DenseSet<Operation *> waitedFor, waiting;
  for (Operation &op : llvm::reverse(body))
    if (&op == call.getOperation() || waitedFor.contains(&op))
      for (Value v : op.getOperands())
        if (Operation *def = v.getDefiningOp())
          waitedFor.insert(def);
  for (Operation &op : body)
    for (Value v : op.getOperands())
      if (Operation *def = v.getDefiningOp();
          def && (def == call.getOperation() || waiting.contains(def)))
        waiting.insert(&op);
  auto count = [](const DenseSet<Operation *> &ops) {
    return llvm::count_if(ops, [](Operation *op) {
      return !op->hasTrait<OpTrait::IsTerminator>() && !op->hasTrait<OpTrait::ConstantLike>();
    });
  };
  InFlightDiagnostic remark = call.emitRemark();
  remark << "NVDLA program @" << program.getName() << ": " << numLayers << " layers";
  if (copies)
    remark << " (" << copies << " of them copies between feature layouts, by BDMA)";
  if (!emulated->empty())
    remark << " and " << emulated->size()
           << " ops for NVIDIA's runtime emulator (an EMU task after them)";
  remark << "; the host runs " << count(waitedFor) << " ops before it and "
         << count(waiting) << " after it";
  return success();
}

struct OutlineNvdlaProgram
    : public mlir::dla::impl::DLAOutlineNvdlaProgramBase<OutlineNvdlaProgram> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    int64_t moved = 0;
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp f : funcs)
      if (!f->hasAttr(DLADialect::kNvdlaProgramAttrName) && failed(outline(f, symbols, moved)))
        return signalPassFailure();
    numLayers += moved;
  }
};

} // namespace
