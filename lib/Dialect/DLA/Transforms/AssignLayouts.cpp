//===- AssignLayouts.cpp - Layout assignment at the least relayout cost ---===//
//
// Turns each function into a LayoutProblem (dla/Format/LayoutSolver.h) --
// one node per op that implements LayoutConstrainedOpInterface, choosing
// among its variants; fixed nodes for function arguments, results, other
// ops and encodings the user wrote; one net per value, with relayout costs
// from the storage bytes of both encodings (BoundLayout) -- solves it, and
// rewrites the IR: result types from the chosen variants, a dla.relayout
// (one per value and encoding) wherever a reader does not accept what is
// written. Constants are relayouted at compile time (pack-weights folds
// them), so they are not part of the problem.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/LayoutSolver.h"
#include "dla/Format/Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAASSIGNLAYOUTS
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Stands for a cost that cannot be computed (dynamic or unbindable shape):
/// such relayouts are avoided whenever possible.
constexpr int64_t kUnknownBytes = int64_t(1) << 50;

InFlightDiagnostic silent() { return InFlightDiagnostic(); }

RankedTensorType withEncoding(RankedTensorType type, Attribute encoding) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), encoding);
}

Attribute encodingOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getEncoding() : Attribute();
}

std::string describe(Attribute encoding) {
  if (!encoding)
    return "row-major";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << encoding;
  return s;
}

/// Raw bytes of a constant's logical elements, when they are held
/// contiguously (non-splat dense or dense_resource data).
std::optional<ArrayRef<char>> constantBytes(arith::ConstantOp constant) {
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  if (!type || type.getEncoding() || !type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
    if (!dense.isSplat())
      return dense.getRawData();
  return std::nullopt;
}

/// Total bytes of the surfaces the encoding's packer plans for `data`.
std::optional<int64_t> packedBytes(LayoutEncodingAttr encoding, RankedTensorType type,
                                   ArrayRef<char> data) {
  auto packer = encoding.getConstantPacker(type.getShape(), type.getElementType(), silent);
  if (failed(packer))
    return std::nullopt;
  fmt::PackSource source;
  source.data = data.data();
  source.bytes = static_cast<int64_t>(data.size());
  fmt::Expected<std::vector<int64_t>> sizes = (*packer)->planSurfaces(source);
  if (!sizes)
    return std::nullopt;
  int64_t total = 0;
  for (int64_t s : *sizes)
    total += s;
  return total;
}

struct AssignLayoutsPass : mlir::dla::impl::DLAAssignLayoutsBase<AssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    fmt::Target target = TargetAttr::lookup(module);
    if (!this->target.empty()) {
      fmt::Expected<fmt::Target> parsed = fmt::parseTarget(this->target);
      if (!parsed) {
        module.emitError() << parsed.message();
        return signalPassFailure();
      }
      target = *parsed;
    }
    std::optional<nv::PixelFormat> pixel;
    if (!pixelFormat.empty()) {
      pixel = fmt::parseEnum<nv::PixelFormat>(pixelFormat);
      if (!pixel) {
        module.emitError() << "unknown pixel format '" << pixelFormat << "'";
        return signalPassFailure();
      }
    }
    // Every later pass (and the verifiers) read the target from here.
    module->setAttr(TargetAttr::kAttrName, TargetAttr::get(&getContext(), target));
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(assign(func, target, pixel)))
        return signalPassFailure();
  }

  void switchToWinograd(func::FuncOp func);
  LogicalResult assign(func::FuncOp func, const fmt::Target &target,
                       std::optional<nv::PixelFormat> pixel);
};

void AssignLayoutsPass::switchToWinograd(func::FuncOp func) {
  func.walk([&](ConvOp conv) {
    if (conv.getMode() != nv::ConvMode::Direct || encodingOf(conv.getWeight()) ||
        !conv.getWeight().getDefiningOp<arith::ConstantOp>())
      return;
    ArrayRef<int64_t> s = conv.getStrides(), d = conv.getDilations();
    auto weight = conv.getWeight().getType();
    if (s[0] != s[1] || d[0] != 1 || d[1] != 1 || !weight.hasStaticShape() ||
        fmt::strideExtendedExtent(weight.getDimSize(2), s[0]) != 3 ||
        fmt::strideExtendedExtent(weight.getDimSize(3), s[0]) != 3)
      return;
    FailureOr<nv::ConversionQuery> query = cast<PrecisionConversionOpInterface>(*conv)
                                               .getConversionQuery();
    if (failed(query))
      return;
    query->convMode = nv::ConvMode::Winograd;
    if (!nv::checkConversion(*query).valid)
      return;
    conv.setMode(nv::ConvMode::Winograd);
    ++numWinograd;
    conv.emitRemark() << "direct convolution turned into Winograd (winograd=auto): "
                      << weight.getDimSize(2) << "x" << weight.getDimSize(3)
                      << " kernel, stride " << s[0] << ", constant weights";
  });
}

LogicalResult AssignLayoutsPass::assign(func::FuncOp func, const fmt::Target &target,
                                        std::optional<nv::PixelFormat> pixel) {
  if (winograd == WinogradPolicy::Auto)
    switchToWinograd(func);

  // --- Nodes: the ops with a choice, in program order.
  struct OpNode {
    LayoutConstrainedOpInterface op;
    SmallVector<LayoutVariant> variants;
  };
  std::vector<OpNode> opNodes;
  DenseMap<Operation *, int> nodeOf;
  fmt::LayoutProblem problem;
  LogicalResult status = success();
  func.walk([&](LayoutConstrainedOpInterface op) {
    SmallVector<LayoutVariant> variants = op.getLayoutVariants(target);
    if (pixel) {
      // Image inputs not encoded yet take the requested pixel format.
      SmallVector<LayoutVariant> kept;
      for (const LayoutVariant &v : variants) {
        bool other = false;
        for (OpOperand &operand : op->getOpOperands())
          if (auto p = dyn_cast_or_null<PixelAttr>(v.operands[operand.getOperandNumber()]))
            other |= !encodingOf(operand.get()) && p.getFormat() != *pixel;
        if (!other)
          kept.push_back(v);
      }
      if (kept.empty() && !variants.empty()) {
        op->emitError() << "pixel format " << pixelFormat << " does not fit this image";
        status = failure();
      }
      variants = std::move(kept);
    }
    if (variants.empty())
      return;
    nodeOf[op] = static_cast<int>(problem.nodes.size());
    problem.nodes.push_back({std::vector<int64_t>(variants.size(), 0)});
    opNodes.push_back({op, std::move(variants)});
  });
  if (failed(status))
    return failure();
  auto fixedNode = [&]() {
    problem.nodes.push_back({{0}});
    return static_cast<int>(problem.nodes.size()) - 1;
  };

  // --- Nets: one per value that a node writes or reads (two for a result
  // whose encoding the user wrote: node -> pin, pin -> readers).
  DenseMap<Type, int64_t> bytesCache;
  auto storageBytes = [&](RankedTensorType type) {
    auto [it, inserted] = bytesCache.try_emplace(type, kUnknownBytes);
    if (inserted) {
      auto bound = bindTensorLayout(type, silent);
      if (succeeded(bound))
        it->second = (*bound)->getStorageBytes();
    }
    return it->second;
  };
  struct NetEncodings {
    SmallVector<Attribute> list;
    int id(Attribute e) {
      for (auto [i, x] : llvm::enumerate(list))
        if (x == e)
          return static_cast<int>(i);
      list.push_back(e);
      return static_cast<int>(list.size()) - 1;
    }
  };
  auto finishNet = [&](fmt::LayoutProblem::Net &net, NetEncodings &encodings,
                       RankedTensorType type) {
    const int k = static_cast<int>(encodings.list.size());
    net.numEncodings = k;
    net.relayoutCost.assign(static_cast<size_t>(k) * k, 0);
    for (int e = 0; e < k; ++e)
      for (int d = 0; d < k; ++d)
        if (!acceptsEncoding(encodings.list[d], encodings.list[e]))
          net.relayoutCost[e * k + d] = storageBytes(withEncoding(type, encodings.list[e])) +
                                        storageBytes(withEncoding(type, encodings.list[d]));
    problem.nets.push_back(std::move(net));
  };
  // The node readers of `v` (and one fixed reader of the declared type for
  // anything else, when `addOthers`). A read is normalised to the encoding
  // the most readers accept among those written or read (per-element
  // element-wise data accepts feature data, not the reverse), so that one
  // relayout serves readers that ask for different but compatible forms;
  // the variants are updated so that the rewrite materialises the same one.
  auto addReaders = [&](Value v, fmt::LayoutProblem::Net &net, NetEncodings &encodings,
                        bool addOthers) {
    struct Read {
      int node;
      size_t choice;
      unsigned operand;
    };
    SmallVector<Read> reads;
    SmallVector<Attribute> demanded;
    bool others = false;
    for (OpOperand &use : v.getUses()) {
      auto it = nodeOf.find(use.getOwner());
      if (it == nodeOf.end()) {
        others = true;
        continue;
      }
      for (auto [j, variant] : llvm::enumerate(opNodes[it->second].variants))
        if (Attribute read = variant.operands[use.getOperandNumber()]) {
          reads.push_back({it->second, j, use.getOperandNumber()});
          if (!llvm::is_contained(demanded, read))
            demanded.push_back(read);
        }
    }
    SmallVector<Attribute> written(encodings.list);
    bool fixedProducer = written.size() == 1 && net.writes.size() == 1;
    auto normalise = [&](Attribute d) {
      if (fixedProducer && acceptsEncoding(d, written[0]))
        return written[0];
      Attribute bestX = d;
      int bestCount = -1;
      auto consider = [&](Attribute x) {
        if (!acceptsEncoding(d, x))
          return;
        int count = llvm::count_if(demanded, [&](Attribute y) { return acceptsEncoding(y, x); });
        if (count > bestCount || (count == bestCount && x == d)) {
          bestCount = count;
          bestX = x;
        }
      };
      for (Attribute x : written)
        consider(x);
      for (Attribute x : demanded)
        consider(x);
      return bestX;
    };
    DenseMap<int, int> consumerOf;
    for (const Read &r : reads) {
      auto [slot, inserted] = consumerOf.try_emplace(r.node, net.consumers.size());
      if (inserted)
        net.consumers.push_back(
            {r.node, std::vector<std::vector<int>>(opNodes[r.node].variants.size())});
      Attribute &read = opNodes[r.node].variants[r.choice].operands[r.operand];
      read = normalise(read);
      net.consumers[slot->second].reads[r.choice].push_back(encodings.id(read));
    }
    if (others && addOthers) // they read the declared type
      net.consumers.push_back({fixedNode(), {{encodings.id(encodingOf(v))}}});
  };
  DenseSet<Value> seen;
  for (auto [index, opNode] : llvm::enumerate(opNodes)) {
    const int node = static_cast<int>(index);
    // Results.
    for (OpResult result : opNode.op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      Attribute pinned = type.getEncoding();
      fmt::LayoutProblem::Net net;
      NetEncodings encodings;
      net.producer = node;
      for (const LayoutVariant &v : opNode.variants) {
        Attribute written = v.results[result.getResultNumber()];
        if (!written || (pinned && acceptsEncoding(written, pinned)))
          written = pinned; // the op writes the declared strides directly
        net.writes.push_back(encodings.id(written));
      }
      if (!pinned) {
        addReaders(result, net, encodings, /*addOthers=*/true);
        finishNet(net, encodings, type);
        continue;
      }
      int pin = fixedNode();
      net.consumers.push_back({pin, {{encodings.id(pinned)}}});
      finishNet(net, encodings, type);
      fmt::LayoutProblem::Net readers;
      NetEncodings readerEncodings;
      readers.producer = pin;
      readers.writes = {readerEncodings.id(pinned)};
      addReaders(result, readers, readerEncodings, /*addOthers=*/false);
      finishNet(readers, readerEncodings, type);
    }
    // Operands written by something that is not a node (arguments, other
    // ops); constants are packed at compile time and cost nothing.
    for (Value v : opNode.op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      Operation *def = v.getDefiningOp();
      if (!type || (def && (nodeOf.count(def) || isa<arith::ConstantOp>(def))) ||
          !seen.insert(v).second)
        continue;
      fmt::LayoutProblem::Net net;
      NetEncodings encodings;
      net.producer = fixedNode();
      net.writes = {encodings.id(type.getEncoding())};
      addReaders(v, net, encodings, /*addOthers=*/false);
      finishNet(net, encodings, type);
    }
  }

  fmt::LayoutSolution solution = fmt::solveLayoutAssignment(problem);

  // --- Rewrite.
  OpBuilder builder(func.getContext());
  DenseMap<std::pair<Value, Attribute>, Value> relayouts;
  DenseMap<Block *, Operation *> lastArgRelayout;
  int64_t runBytes = 0, runCount = 0, constantCount = 0;
  auto producerText = [](Value v) {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (auto arg = dyn_cast<BlockArgument>(v))
      os << "function argument #" << arg.getArgNumber() << " is "
         << describe(encodingOf(v));
    else
      os << "'" << v.getDefiningOp()->getName() << "' writes " << describe(encodingOf(v));
    return s;
  };
  auto getRelayout = [&](Value v, Attribute encoding, Location loc,
                         const std::string &reader) -> Value {
    auto key = std::make_pair(v, encoding);
    if (auto it = relayouts.find(key); it != relayouts.end())
      return it->second;
    auto type = cast<RankedTensorType>(v.getType());
    Block *argBlock = nullptr;
    if (Operation *def = v.getDefiningOp()) {
      builder.setInsertionPointAfter(def);
    } else {
      // Argument relayouts open the block, in the order they are made.
      argBlock = cast<BlockArgument>(v).getOwner();
      if (Operation *last = lastArgRelayout.lookup(argBlock))
        builder.setInsertionPointAfter(last);
      else
        builder.setInsertionPointToStart(argBlock);
    }
    auto constant = v.getDefiningOp<arith::ConstantOp>();
    std::string why;
    // Compressed weights, when they are smaller for this constant's data.
    if (auto weight = dyn_cast_or_null<WeightAttr>(encoding);
        constant && weight && compression && !weight.getCompressed()) {
      if (std::optional<ArrayRef<char>> data = constantBytes(constant)) {
        auto compressed = WeightAttr::get(
            weight.getContext(), weight.getFormat(), weight.getPrecision(), true,
            weight.getChannels(), weight.getPostExtension(), weight.getStrideY(),
            weight.getStrideX(), weight.getConfig(), weight.getRounding());
        std::optional<int64_t> dense = packedBytes(weight, type, *data);
        std::optional<int64_t> sparse = packedBytes(compressed, type, *data);
        if (dense && sparse) {
          why = (Twine("; WGS + WMB + data = ") + Twine(*sparse) +
                 (*sparse < *dense ? " < " : " >= ") + "dense " + Twine(*dense) + " bytes: " +
                 (*sparse < *dense ? "compressed" : "dense"))
                    .str();
          if (*sparse < *dense) {
            encoding = compressed;
            ++numCompressed;
          }
        }
      }
    }
    RankedTensorType to = withEncoding(type, encoding);
    Value r = RelayoutOp::create(builder, loc, to, v);
    relayouts[key] = r;
    if (argBlock)
      lastArgRelayout[argBlock] = r.getDefiningOp();
    if (constant) {
      ++numConstantRelayouts;
      ++constantCount;
      r.getDefiningOp()->emitRemark()
          << "relayout of a constant, packed at compile time by --dla-pack-weights (no run-time "
             "cost): "
          << reader << why;
      return r;
    }
    int64_t read = storageBytes(type), written = storageBytes(to);
    ++numRelayouts;
    ++runCount;
    if (read == kUnknownBytes || written == kUnknownBytes) {
      // Dynamic or unbindable shapes: the size is not known at compile time.
      r.getDefiningOp()->emitRemark() << "relayout of a size unknown at compile time: "
                                      << producerText(v) << ", " << reader;
      return r;
    }
    numRelayoutBytes += read + written;
    runBytes += read + written;
    r.getDefiningOp()->emitRemark() << "relayout costs " << read + written << " bytes ("
                                    << read << " read + " << written
                                    << " written): " << producerText(v) << ", " << reader;
    return r;
  };

  // Non-node readers of results about to be retyped read the declared type.
  SmallVector<std::pair<OpOperand *, RankedTensorType>> boundaryUses;
  for (const OpNode &opNode : opNodes)
    for (OpResult result : opNode.op->getResults())
      if (auto type = dyn_cast<RankedTensorType>(result.getType()); type && !type.getEncoding())
        for (OpOperand &use : result.getUses())
          if (!nodeOf.count(use.getOwner()))
            boundaryUses.push_back({&use, type});

  for (auto [index, opNode] : llvm::enumerate(opNodes)) {
    const LayoutVariant &v = opNode.variants[solution.choice[index]];
    Operation *op = opNode.op;
    for (OpResult result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      Attribute written = v.results[result.getResultNumber()];
      if (!type || !written)
        continue;
      Attribute pinned = type.getEncoding();
      if (!pinned) {
        result.setType(withEncoding(type, written));
        continue;
      }
      if (acceptsEncoding(written, pinned))
        continue;
      // The user's encoding stays; the op writes its own and converts.
      result.setType(withEncoding(type, written));
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : result.getUses())
        uses.push_back(&use);
      Value pin = getRelayout(result, pinned, op->getLoc(),
                              "the result is declared " + describe(pinned));
      for (OpOperand *use : uses)
        use->set(pin);
    }
  }
  // Destinations (linalg inits) take their result's type: a fresh
  // tensor.empty (or a linalg.fill of one) is retyped in place, anything
  // else is relayouted.
  for (OpNode &opNode : opNodes) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(opNode.op.getOperation());
    if (!dps)
      continue;
    for (OpOperand &init : dps.getDpsInitsMutable()) {
      auto want = dyn_cast<RankedTensorType>(dps.getTiedOpResult(&init).getType());
      if (!want || init.get().getType() == want)
        continue;
      Value value = init.get();
      if (auto fill = value.getDefiningOp<linalg::FillOp>(); fill && value.hasOneUse()) {
        Value inner = fill.getDpsInits()[0];
        if (inner.getDefiningOp<tensor::EmptyOp>() && inner.hasOneUse()) {
          inner.setType(want);
          value.setType(want);
          continue;
        }
      }
      if (value.getDefiningOp<tensor::EmptyOp>() && value.hasOneUse()) {
        value.setType(want);
        continue;
      }
      init.set(getRelayout(value, want.getEncoding(), opNode.op->getLoc(),
                           "the destination of '" + opNode.op->getName().getStringRef().str() +
                               "' takes its result's type"));
    }
  }
  for (auto [index, opNode] : llvm::enumerate(opNodes)) {
    const LayoutVariant &v = opNode.variants[solution.choice[index]];
    Operation *op = opNode.op;
    for (OpOperand &operand : op->getOpOperands()) {
      Attribute read = v.operands[operand.getOperandNumber()];
      if (!read || acceptsEncoding(read, encodingOf(operand.get())))
        continue;
      std::string reader;
      llvm::raw_string_ostream os(reader);
      os << "'" << op->getName() << "' reads its "
         << opNode.op.getLayoutOperandName(operand.getOperandNumber()) << " as " << read;
      operand.set(getRelayout(operand.get(), read, op->getLoc(), reader));
    }
  }
  for (auto [use, type] : boundaryUses) {
    if (acceptsEncoding(type.getEncoding(), encodingOf(use->get())))
      continue;
    std::string reader;
    llvm::raw_string_ostream os(reader);
    if (isa<func::ReturnOp>(use->getOwner()))
      os << "function result #" << use->getOperandNumber() << " is declared "
         << describe(type.getEncoding());
    else
      os << "'" << use->getOwner()->getName() << "' reads " << describe(type.getEncoding());
    use->set(getRelayout(use->get(), type.getEncoding(), use->getOwner()->getLoc(), reader));
  }

  func.emitRemark() << "layouts assigned to " << opNodes.size() << " ops: " << runCount
                    << " run-time relayouts of " << runBytes << " bytes, " << constantCount
                    << " constants packed at compile time; "
                    << (solution.provablyOptimal
                            ? "minimum cost (exact: no cycle of the graph passes through a choice)"
                            : "best found (reconvergent paths: exact on a spanning forest, "
                              "then local moves)");
  return success();
}

} // namespace
