//===- LayoutRewrite.cpp - Apply a layout assignment to the IR -----------===//
//
// Result types from the chosen variants, then a dla.relayout (one per value
// and encoding, each with a remark saying its cost and reason) wherever a
// reader does not accept what is written. Relayouts of compile-time
// constants cost nothing at run time and take the compressed weight format
// when it is smaller.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"
#include "LayoutNets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;

namespace {
/// Total bytes of the surfaces the encoding's packer plans for `data`.
std::optional<int64_t> packedBytes(LayoutEncodingAttr encoding, RankedTensorType type,
                                   ArrayRef<char> data) {
  auto packer = encoding.getConstantPacker(type.getShape(), type.getElementType(), [] { return InFlightDiagnostic(); });
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
} // namespace

LayoutRewriteStats mlir::dla::rewriteLayouts(func::FuncOp func, LayoutNets &nets,
                                             const fmt::LayoutSolution &solution,
                                             bool compression) {
  OpBuilder builder(func.getContext());
  DenseMap<std::pair<Value, Attribute>, Value> relayouts;
  DenseMap<Block *, Operation *> lastArgRelayout;
  LayoutRewriteStats stats;
  std::vector<LayoutNode> &opNodes = nets.nodes;
  DenseMap<Operation *, int> &nodeOf = nets.nodeOf;
  auto producerText = [](Value v) {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (auto arg = dyn_cast<BlockArgument>(v))
      os << "function argument #" << arg.getArgNumber() << " is "
         << describeEncoding(encodingOf(v));
    else
      os << "'" << v.getDefiningOp()->getName() << "' writes " << describeEncoding(encodingOf(v));
    return s;
  };
  llvm::SetVector<Operation *> bypassed;
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
    std::optional<CompileTimeConstant> constant = matchCompileTimeConstant(v);
    std::string why;
    // Compressed weights, when they are smaller for this constant's data
    // (in the layer's precision: an f32 constant's truncf rounded first).
    if (auto weight = dyn_cast_or_null<WeightAttr>(encoding);
        constant && weight && compression && !weight.getCompressed()) {
      if (std::optional<std::vector<char>> data = readCompileTimeBytes(*constant)) {
        auto compressed = WeightAttr::get(
            weight.getContext(), weight.getFormat(), weight.getPrecision(), true,
            weight.getChannels(), weight.getPostExtension(), weight.getStrideY(),
            weight.getStrideX(), weight.getConfig(), weight.getRounding(), weight.getScale());
        std::optional<int64_t> dense = packedBytes(weight, type, *data);
        std::optional<int64_t> sparse = packedBytes(compressed, type, *data);
        if (dense && sparse) {
          why = (Twine("; WGS + WMB + data = ") + Twine(*sparse) +
                 (*sparse < *dense ? " < " : " >= ") + "dense " + Twine(*dense) + " bytes: " +
                 (*sparse < *dense ? "compressed" : "dense"))
                    .str();
          if (*sparse < *dense) {
            encoding = compressed;
            ++stats.compressed;
          }
        }
      }
    }
    RankedTensorType to = withEncoding(type, encoding);
    // Winograd fp16 weights of an f32 constant rounded by arith.truncf
    // (imported weights): packed from the f32 values, transformed in f32
    // and rounded once as NVIDIA's compiler does, with the truncf's rounding
    // (matchCompileTimeConstant read it: a mode-less truncf rounds ties to
    // even, which the encoding then states).
    Value source = v;
    if (auto weight = dyn_cast_or_null<WeightAttr>(encoding);
        weight && constant && constant->truncf &&
        weight.getFormat() == fmt::nvdla::WeightFormat::Winograd) {
      to = withEncoding(type, WeightAttr::get(weight.getContext(), weight.getFormat(),
                                              weight.getPrecision(), weight.getCompressed(),
                                              weight.getChannels(), weight.getPostExtension(),
                                              weight.getStrideY(), weight.getStrideX(),
                                              weight.getConfig(), constant->rounding,
                                              weight.getScale()));
      source = constant->truncf.getIn();
      bypassed.insert(constant->truncf);
    }
    Value r = RelayoutOp::create(builder, loc, to, source);
    relayouts[key] = r;
    if (argBlock)
      lastArgRelayout[argBlock] = r.getDefiningOp();
    if (constant) {
      ++stats.constantRelayouts;
      mlir::emitRemark(r.getLoc())
          << "relayout of a constant, packed at compile time by --dla-pack-weights (no run-time "
             "cost): "
          << reader << why;
      return r;
    }
    int64_t read = storageBytesOf(type), written = storageBytesOf(to);
    ++stats.relayouts;
    if (read == kUnknownBytes || written == kUnknownBytes) {
      // Dynamic or unbindable shapes: the size is not known at compile time.
      mlir::emitRemark(r.getLoc())
          << "relayout of a size unknown at compile time: " << producerText(v) << ", " << reader;
      return r;
    }
    stats.relayoutBytes += read + written;
    mlir::emitRemark(r.getLoc()) << "relayout costs " << read + written << " bytes (" << read
                                 << " read + " << written << " written): " << producerText(v)
                                 << ", " << reader;
    return r;
  };

  // Non-node readers of results about to be retyped read the declared type.
  SmallVector<std::pair<OpOperand *, RankedTensorType>> boundaryUses;
  for (const LayoutNode &opNode : opNodes)
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
                              "the result is declared " + describeEncoding(pinned));
      for (OpOperand *use : uses)
        use->set(pin);
    }
  }
  // Destinations (linalg inits) take their result's type: a fresh
  // tensor.empty (or a linalg.fill of one) is retyped in place, anything
  // else is relayouted.
  for (LayoutNode &opNode : opNodes) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(opNode.op);
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
         << (isa<LayoutConstrainedOpInterface>(op)
                 ? cast<LayoutConstrainedOpInterface>(op).getLayoutOperandName(
                       operand.getOperandNumber())
                 : StringRef("input"))
         << " as " << read;
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
         << describeEncoding(type.getEncoding());
    else
      os << "'" << use->getOwner()->getName() << "' reads " << describeEncoding(type.getEncoding());
    use->set(getRelayout(use->get(), type.getEncoding(), use->getOwner()->getLoc(), reader));
  }
  // The truncfs Winograd weights bypassed, when nothing else reads them
  // (erased last: the relayout cache is keyed by values).
  for (Operation *truncf : bypassed)
    if (truncf->use_empty())
      truncf->erase();

  return stats;
}
