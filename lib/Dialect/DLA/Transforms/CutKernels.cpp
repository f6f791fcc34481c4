//===- CutKernels.cpp - Convolutions cut by output kernels ----------------===//
//
// One NVDLA layer writes at most DATAOUT_CHANNEL (8192) output channels
// (CSC / CACC D_DATAOUT_SIZE_1; the SDP's cube the same). A convolution of
// more kernels (a fully connected layer of more outputs) runs as parts
// over consecutive kernels: part i is a `dla.conv` by its kernels' slice of
// the weights (and bias), its on-the-fly `dla.sdp` with that SDP's
// per-channel and per-element operands cut to the same channels, and a
// `dla.channel_concat` joins the parts' results: each part writes its
// channels in place into the joined surface (a view, ChannelViews.cpp).
// Exact in every precision: no sum is split.
//
//===----------------------------------------------------------------------===//

#include "CutKernels.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"
#include "dla/Format/NvdlaPrecision.h"
#include "dla/Format/NvdlaRegisters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Channels [first, first + count) of `v` along `dim`: a constant cut at
/// compile time, a feature map (dim 1 of NCHW) as a channel view; nullopt
/// for anything else.
std::optional<Value> sliceChannels(OpBuilder &b, Location loc, Value v, int64_t dim,
                                   int64_t first, int64_t count) {
  if (std::optional<CompileTimeConstant> c = matchCompileTimeConstant(v))
    return sliceCompileTimeConstant(b, loc, *c, dim, first, count);
  auto type = cast<RankedTensorType>(v.getType());
  if (dim != 1 || type.getRank() != 4)
    return std::nullopt;
  SmallVector<int64_t> shape(type.getShape());
  shape[1] = count;
  return ChannelSliceOp::create(b, loc, type.clone(shape), v, first).getResult();
}

/// The dimension of an SDP operand that runs over the output channels:
/// per channel (rank 1; batch-norm's [C, 2] rank 2) dim 0, per element or
/// a 1xCx1x1 map dim 1, a per-layer scalar none.
std::optional<int64_t> channelDim(Value operand) {
  int64_t rank = cast<RankedTensorType>(operand.getType()).getRank();
  if (rank == 0)
    return std::nullopt;
  return rank == 4 ? 1 : 0;
}

/// The constants (and truncf of one) among `ops` that nothing reads any
/// more, erased (each once: a truncf before the constant it reads).
void eraseUnread(llvm::SetVector<Operation *> ops) {
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *op : ops)
      if (op->use_empty()) {
        ops.remove(op);
        op->erase();
        erased = true;
        break;
      }
  }
}

/// The constant or truncf of one defining `v`, and that constant.
void addConstantDefs(Value v, llvm::SetVector<Operation *> &ops) {
  Operation *def = v.getDefiningOp();
  if (!def || !isa<arith::ConstantOp, arith::TruncFOp>(def))
    return;
  ops.insert(def);
  if (isa<arith::TruncFOp>(def))
    addConstantDefs(def->getOperand(0), ops);
}

} // namespace

FailureOr<SmallVector<ConvOp>> mlir::dla::cutKernels(ConvOp conv,
                                                    const nv::HardwareConfig &config) {
  auto result = cast<RankedTensorType>(conv.getOutput().getType());
  auto weightType = cast<RankedTensorType>(conv.getWeight().getType());
  const int64_t most = nv::kConvOutputChannels.hi;
  const int64_t kernels = weightType.getDimSize(0);
  if (!result.hasStaticShape() || kernels <= most)
    return SmallVector<ConvOp>{conv};
  auto fail = [&](StringRef why) {
    return conv.emitOpError() << "writes " << kernels
                              << " output channels, one NVDLA layer at most " << most
                              << " (DATAOUT_CHANNEL); cutting its kernels " << why;
  };
  if (result.getEncoding())
    return fail("is done before layout assignment (its tensors have encodings)");
  std::optional<CompileTimeConstant> weights = matchCompileTimeConstant(conv.getWeight());
  if (!weights)
    return fail("needs constant weights (these are computed at run time)");
  // The SDP fused after it is cut with it; any other reader reads the join.
  SdpOp sdp;
  if (conv->hasOneUse())
    if (auto user = dyn_cast<SdpOp>(*conv->user_begin());
        user && user.getMode() == SdpMode::OnTheFly)
      sdp = user;

  // Parts of whole channel atoms (a join's parts but the last end on one),
  // as even as the atoms allow.
  const int64_t atom = nv::getChannelsPerAtom(*getPrecision(result.getElementType()),
                                              config.caps.memoryAtomBytes);
  const int64_t atoms = (kernels + atom - 1) / atom;
  const int64_t numParts = (atoms + most / atom - 1) / (most / atom);
  const int64_t perPart = (atoms + numParts - 1) / numParts * atom;

  OpBuilder b(sdp ? sdp.getOperation() : conv.getOperation());
  Location loc = conv.getLoc();
  SmallVector<Value> joined;
  SmallVector<ConvOp> parts;
  for (int64_t first = 0; first < kernels; first += perPart) {
    const int64_t count = std::min(perPart, kernels - first);
    std::optional<Value> w = sliceCompileTimeConstant(b, loc, *weights, 0, first, count);
    if (!w)
      return fail("needs its constant weights' elements at hand");
    SmallVector<int64_t> shape(result.getShape());
    shape[1] = count;
    std::optional<Value> bias;
    if (conv.getBias() && channelDim(conv.getBias())) {
      bias = sliceChannels(b, loc, conv.getBias(), *channelDim(conv.getBias()), first, count);
      if (!bias)
        return fail("needs its bias at hand");
    }
    auto part = cast<ConvOp>(b.clone(*conv));
    parts.push_back(part);
    part.getWeightMutable().assign(*w);
    part.getOutput().setType(result.clone(shape));
    if (bias)
      part.getBiasMutable().assign(*bias);
    Value out = part.getOutput();
    if (sdp) {
      // Its operands cut first, so that they stand before it.
      IRMapping map;
      map.map(sdp.getInput(), out);
      for (Value operand : sdp->getOperands().drop_front()) {
        if (!channelDim(operand) || map.contains(operand))
          continue;
        std::optional<Value> cut =
            sliceChannels(b, loc, operand, *channelDim(operand), first, count);
        if (!cut)
          return fail("needs the operands of the SDP after it at hand");
        map.map(operand, *cut);
      }
      auto cutSdp = cast<SdpOp>(b.clone(*sdp, map));
      cutSdp.getOutput().setType(cast<RankedTensorType>(sdp.getOutput().getType()).clone(shape));
      out = cutSdp.getOutput();
    }
    joined.push_back(out);
  }
  Operation *whole = sdp ? sdp.getOperation() : conv.getOperation();
  auto join = ChannelConcatOp::create(b, loc, whole->getResult(0).getType(), joined);
  InFlightDiagnostic remark = mlir::emitRemark(loc);
  remark << "runs as " << joined.size() << " convolutions of at most " << perPart << " of its "
         << kernels << " kernels (one layer writes at most " << most
         << " channels: DATAOUT_CHANNEL)"
         << (sdp ? ", each with its part of the SDP after it," : ",")
         << " joined in place (a channel concatenation; exact)";
  whole->getResult(0).replaceAllUsesWith(join.getResult());
  // The whole layer's constants go when only it read them.
  llvm::SetVector<Operation *> constants;
  for (Value v : conv->getOperands())
    addConstantDefs(v, constants);
  if (sdp) {
    for (Value v : sdp->getOperands().drop_front())
      addConstantDefs(v, constants);
    sdp.erase();
  }
  conv.erase();
  eraseUnread(std::move(constants));
  return parts;
}
