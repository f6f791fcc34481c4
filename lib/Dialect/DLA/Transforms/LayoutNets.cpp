//===- LayoutNets.cpp - A function as a layout problem -------------------===//
//
// One node per op that implements LayoutConstrainedOpInterface, choosing
// among its variants; fixed nodes for function arguments, results, other
// ops and encodings the user wrote; one net per value, with relayout costs
// from the storage bytes of both encodings (BoundLayout). Compile-time
// constants are relayouted at compile time (--dla-pack-weights folds them),
// so they are not part of the problem.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"
#include "LayoutNets.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

RankedTensorType mlir::dla::withEncoding(RankedTensorType type, Attribute encoding) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), encoding);
}

Attribute mlir::dla::encodingOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getEncoding() : Attribute();
}

std::string mlir::dla::describeEncoding(Attribute encoding) {
  if (!encoding)
    return "row-major";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << encoding;
  return s;
}

int64_t mlir::dla::storageBytesOf(RankedTensorType type) {
  auto bound = bindTensorLayout(type, [] { return InFlightDiagnostic(); });
  return succeeded(bound) ? (*bound)->getStorageBytes() : kUnknownBytes;
}

FailureOr<LayoutNets> mlir::dla::buildLayoutNets(func::FuncOp func, const fmt::Target &target,
                                                 std::optional<nv::PixelFormat> pixel,
                                                 StringRef pixelName) {
  // --- Nodes: the ops with a choice, in program order.
  LayoutNets nets;
  std::vector<LayoutNode> &opNodes = nets.nodes;
  DenseMap<Operation *, int> &nodeOf = nets.nodeOf;
  fmt::LayoutProblem &problem = nets.problem;
  LogicalResult status = success();
  func.walk([&](Operation *op) {
    SmallVector<LayoutVariant> variants;
    if (auto constrained = dyn_cast<LayoutConstrainedOpInterface>(op))
      variants = constrained.getLayoutVariants(target);
    else
      variants = getChannelViewVariants(op, target);
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
        op->emitError() << "pixel format " << pixelName << " does not fit this image";
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
    if (inserted)
      it->second = storageBytesOf(type);
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
    // ops); compile-time constants are packed by --dla-pack-weights and
    // cost nothing.
    for (Value v : opNode.op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      Operation *def = v.getDefiningOp();
      if (!type || (def && nodeOf.count(def)) || matchCompileTimeConstant(v) ||
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

  return nets;
}
