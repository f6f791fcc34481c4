//===- CutInputChannels.cpp - Convolutions cut by input channels ----------===//
//
// Where not even one output column's window of a convolution fits beside
// one kernel group in the convolution buffer, or it reads more input
// channels than one layer (DATAIN_CHANNEL), the format library cuts its
// input channels (nv::planConvChannelCut). Here the cut becomes ops the rest
// of the compiler already runs: part i is a `dla.conv` of the channel view
// `dla.channel_slice %x [c_i]` by its kernels' constant slice, and an
// on-the-fly `dla.sdp` after it adds part i-1's result, read per element
// (`eltwise`); the first part takes the bias. So the register plan, the
// CPU execution and the loadable see each part's arithmetic as NVDLA does
// it: every partial sum is rounded to the pipeline's fp16 once per part.
//
//===----------------------------------------------------------------------===//

#include "CutInputChannels.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"
#include "dla/Format/NvdlaConvBuffer.h"
#include "dla/Format/NvdlaRegisters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// The single on-the-fly SDP that reads `conv` and can take the last
/// part's addition itself: the implicit form without batch-norm or
/// element-wise operand (its bias and activation follow the addition).
SdpOp foldableSdp(ConvOp conv) {
  if (!conv->hasOneUse())
    return {};
  auto sdp = dyn_cast<SdpOp>(*conv->user_begin());
  if (!sdp || sdp.getMode() != SdpMode::OnTheFly || sdp.isStageForm() || sdp.getBatchnorm() ||
      sdp.getEltwise())
    return {};
  return sdp;
}

} // namespace

FailureOr<SmallVector<ConvOp>> mlir::dla::cutInputChannels(ConvOp conv,
                                                          const nv::HardwareConfig &config,
                                                          const nv::ConvBufferQuery &q) {
  ::dlaformat::Expected<nv::ConvChannelCut> cut = nv::planConvChannelCut(config, q);
  if (!cut) {
    conv.emitOpError() << "does not fit NVDLA " << config.name << ": " << cut.message();
    return failure();
  }
  if (cut->numParts == 1)
    return SmallVector<ConvOp>{conv};
  auto input = cast<RankedTensorType>(conv.getInput().getType());
  if (input.getEncoding() || conv.getOutput().getType().getEncoding())
    return conv.emitOpError() << "does not fit NVDLA " << config.name
                              << " unless its input channels are cut, which is done before "
                                 "layout assignment (its tensors have encodings)";
  std::optional<CompileTimeConstant> weights = matchCompileTimeConstant(conv.getWeight());
  if (!weights)
    return conv.emitOpError() << "does not fit NVDLA " << config.name
                              << " unless its input channels are cut, which needs constant "
                                 "weights (these are computed at run time)";

  OpBuilder b(conv);
  Location loc = conv.getLoc();
  auto result = cast<RankedTensorType>(conv.getOutput().getType());
  SdpOp folded = foldableSdp(conv);
  SmallVector<ConvOp> parts;
  Value previous;
  for (int64_t first = 0; first < q.channels; first += cut->channelsPerPart) {
    const int64_t count = std::min(cut->channelsPerPart, q.channels - first);
    std::optional<Value> partWeights =
        sliceCompileTimeConstant(b, loc, *weights, /*dim=*/1, first, count);
    if (!partWeights)
      return conv.emitOpError() << "does not fit NVDLA " << config.name
                                << " unless its input channels are cut, and its constant "
                                   "weights' elements are not at hand to cut";
    auto slice = ChannelSliceOp::create(
        b, loc, RankedTensorType::get({input.getDimSize(0), count, input.getDimSize(2),
                                       input.getDimSize(3)},
                                      input.getElementType()),
        conv.getInput(), first);
    auto part = cast<ConvOp>(b.clone(*conv));
    part.getInputMutable().assign(slice);
    part.getWeightMutable().assign(*partWeights);
    if (first > 0)
      part.getBiasMutable().clear();
    parts.push_back(part);
    const bool last = first + count >= q.channels;
    if (!previous) {
      previous = part.getOutput();
    } else if (last && folded) {
      folded.getInputMutable().assign(part.getOutput());
      folded.getEltwiseMutable().assign(previous);
    } else {
      auto sum = SdpOp::create(b, loc, result, SdpMode::OnTheFly, part.getOutput());
      sum.getEltwiseMutable().assign(previous);
      previous = sum.getOutput();
    }
  }

  // Readers of the whole sum read it from memory now, rounded to fp16.
  int64_t offline = 0;
  if (!folded) {
    for (Operation *user : conv->getUsers())
      if (auto sdp = dyn_cast<SdpOp>(user); sdp && sdp.getMode() == SdpMode::OnTheFly) {
        sdp.setMode(SdpMode::Offline);
        ++offline;
      }
    conv.getOutput().replaceAllUsesWith(previous);
  }
  InFlightDiagnostic remark = mlir::emitRemark(loc);
  remark << "runs as " << cut->numParts << " convolutions of at most " << cut->channelsPerPart
         << " of its " << q.channels << " input channels ("
         << (cut->channelLimit
                 ? "one layer reads at most " + std::to_string(nv::kConvInputChannels.hi) +
                       " (DATAIN_CHANNEL)"
                 : std::string("not even one output column's window fits beside one kernel "
                               "group"))
         << "): each part's SDP adds the previous part's result, read from memory";
  if (offline)
    remark << ", and the SDP after it reads the whole sum from memory (offline)";
  const int64_t extra = cut->numParts - 1 + (offline ? 1 : 0);
  remark << "; its sums are rounded to fp16 " << extra << (extra == 1 ? " time" : " times")
         << " more than uncut";
  conv.erase();
  // The whole weights, when nothing else reads them.
  if (weights->truncf && weights->truncf->use_empty())
    weights->truncf->erase();
  if (weights->constant->use_empty())
    weights->constant->erase();
  return parts;
}
