//===- SplitConvolutions.cpp - Convolutions cut to fit the CBUF -----------===//
//
// A convolution whose input rows and weights exceed the convolution buffer
// becomes several, each over a band of output rows (NVIDIA's "partial H").
// The bank arithmetic is the format library's (NvdlaConvBuffer.h); this file
// only cuts tensors.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/NvdlaConvBuffer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLASPLITCONVOLUTIONS
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Rows [begin, end) of `v` (NCHW or CHW: the row dimension is rank - 2).
Value sliceRows(RewriterBase &rewriter, Location loc, Value v, int64_t begin, int64_t end) {
  auto type = cast<RankedTensorType>(v.getType());
  const int64_t rank = type.getRank(), rowDim = rank - 2;
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(rewriter.getIndexAttr(d == rowDim ? end - begin : type.getDimSize(d)));
  offsets[rowDim] = rewriter.getIndexAttr(begin);
  return tensor::ExtractSliceOp::create(rewriter, loc, v, offsets, sizes, strides);
}

RankedTensorType withRows(Value v, int64_t rows) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[shape.size() - 2] = rows;
  return type.clone(shape);
}

bool isStatic(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && !type.getEncoding();
}

/// Cuts `conv` (and its fused SDP) by output rows when it does not fit the
/// buffer; the number of parts (1: unchanged), or failure when even one row
/// does not fit. One visit per convolution: the walk of the pass, not a
/// greedy driver, so that the error and the remark are said once.
FailureOr<int64_t> splitConvolution(RewriterBase &rewriter, ConvOp conv,
                                    const fmt::Target &target, int64_t banks,
                                    int64_t bankEntries) {
  if (target.accelerator != fmt::Accelerator::Nvdla)
    return 1;
  // Dynamic shapes and non-NVDLA precisions are the legality checks' to
  // reject; there is nothing to plan.
  std::optional<nv::ConvBufferQuery> query = getConvBufferQuery(conv, conv.getMode());
  if (!query)
    return 1;
  nv::ConvBufferQuery &q = *query;
  ArrayRef<int64_t> pad = conv.getPadding();
  q.banks = banks;
  q.bankEntries = bankEntries;
  const nv::HardwareConfig &config = nv::getHardwareConfig(target.config);
  fmt::Expected<nv::ConvBufferPlan> plan = nv::planConvBuffer(config, q);
  if (!plan) {
    conv.emitOpError() << "does not fit NVDLA " << config.name << ": " << plan.message();
    return failure();
  }
  if (plan->mode != nv::ConvBufferMode::PartialHeight || plan->numParts < 2)
    return 1;
  auto cannot = [&](const Twine &why) {
    conv.emitOpError() << "does not fit NVDLA " << config.name
                       << "'s convolution buffer and cannot be split into its "
                       << plan->numParts << " parts of " << plan->outputRowsPerPart
                       << " output rows: " << why;
    return failure();
  };
  if (!isStatic(conv.getInput()) || !isStatic(conv.getWeight()) || !isStatic(conv.getOutput()))
    return cannot("its operands already carry layouts (run --dla-split-convolutions before "
                  "--dla-assign-layouts, as --dla-compile does)");

  // A fused SDP is cut with its convolution; anything else reading the
  // convolution's accumulator would see the parts' concatenation.
  SdpOp fused;
  for (Operation *user : conv->getUsers())
    if (auto sdp = dyn_cast<SdpOp>(user); sdp && sdp.getMode() == SdpMode::OnTheFly)
      fused = sdp;
  if (fused && !conv->hasOneUse())
    return cannot("its result is read by its on-the-fly SDP and by other ops, which would read "
                  "the parts' concatenation instead of the accumulator");
  if (fused && fused.getEltwise() && !isStatic(fused.getEltwise()))
    return cannot("its on-the-fly SDP's element-wise operand has no static shape or carries a "
                  "layout");

  const int64_t outRows = cast<RankedTensorType>(conv.getOutput().getType()).getDimSize(2);
  const int64_t window = (q.kernelH - 1) * q.dilationH + 1;
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  SmallVector<Value> parts;
  int64_t maxPartBytes = 0;
  for (int64_t o0 = 0; o0 < outRows; o0 += plan->outputRowsPerPart) {
    const int64_t o1 = std::min(outRows, o0 + plan->outputRowsPerPart);
    // Input rows the windows of output rows [o0, o1) cover, in the
    // unpadded input; what lies outside is the part's padding.
    const int64_t i0 = o0 * q.strideH - q.padTop;
    const int64_t i1 = (o1 - 1) * q.strideH + window - q.padTop;
    const int64_t b = std::max<int64_t>(i0, 0), e = std::min(i1, q.height);
    Value input = sliceRows(rewriter, loc, conv.getInput(), b, e);
    auto part = cast<ConvOp>(rewriter.clone(*conv));
    part->setOperand(conv.getInputMutable().getOperandNumber(), input);
    part.setPadding({b - i0, i1 - e, pad[2], pad[3]});
    part.getOutput().setType(withRows(conv.getOutput(), o1 - o0));
    maxPartBytes =
        std::max(maxPartBytes, plan->entriesPerLine * (e - b) * config.weightBufferEntryBytes);
    Value result = part.getOutput();
    if (fused) {
      rewriter.setInsertionPoint(fused);
      // The operand's rows first: they must dominate the part reading them.
      Value ewPart =
          fused.getEltwise() ? sliceRows(rewriter, loc, fused.getEltwise(), o0, o1) : Value();
      auto sdpPart = cast<SdpOp>(rewriter.clone(*fused));
      sdpPart->setOperand(fused.getInputMutable().getOperandNumber(), result);
      if (ewPart)
        sdpPart->setOperand(fused.getEltwiseMutable()[0].getOperandNumber(), ewPart);
      sdpPart.getOutput().setType(withRows(fused.getOutput(), o1 - o0));
      result = sdpPart.getOutput();
      rewriter.setInsertionPoint(conv);
    }
    parts.push_back(result);
  }
  Operation *replaced = fused ? fused.getOperation() : conv.getOperation();
  rewriter.setInsertionPoint(replaced);
  Value whole = tensor::ConcatOp::create(rewriter, loc, /*dim=*/2, parts);
  mlir::emitRemark(conv.getLoc())
      << "split into " << parts.size() << " convolutions of at most " << plan->outputRowsPerPart
      << " output rows: its input takes " << plan->dataBanks
      << " banks of the convolution buffer and its weights " << plan->weightBanks
      << ", the buffer has " << (banks > 0 ? banks : config.caps.cbufBanks) << " of "
      << (bankEntries > 0 ? bankEntries : config.caps.cbufBankEntries) << " entries ("
      << nv::getConvBufferModeName(plan->mode) << "; weights in " << plan->allottedWeightBanks
      << " banks, at most " << maxPartBytes << " bytes of input rows per part)";
  rewriter.replaceOp(replaced, whole);
  if (fused)
    rewriter.eraseOp(conv);
  return static_cast<int64_t>(parts.size());
}

struct SplitConvolutionsPass : mlir::dla::impl::DLASplitConvolutionsBase<SplitConvolutionsPass> {
  using Base::Base;

  void runOnOperation() override {
    // The option's target, else the module's (one per module).
    FailureOr<fmt::Target> resolved = TargetAttr::resolve(getOperation(), target);
    if (failed(resolved))
      return signalPassFailure();
    const fmt::Target &effective = *resolved;
    // The options against the buffer of the configuration they apply to.
    if (effective.accelerator == fmt::Accelerator::Nvdla) {
      const nv::HardwareConfig &config = nv::getHardwareConfig(effective.config);
      for (auto [name, value, most, macro] :
           {std::tuple<StringRef, int64_t, int64_t, StringRef>{
                "banks", banks, config.caps.cbufBanks, "CBUF_BANK_NUMBER"},
            {"bank-entries", bankEntries, config.caps.cbufBankEntries, "CBUF_BANK_DEPTH"}})
        if (value < 0 || value > most) {
          getOperation().emitError() << "--dla-split-convolutions: " << name << "=" << value
                                     << ": " << config.name << " has 1 to " << most << " ("
                                     << macro << "; 0: all)";
          return signalPassFailure();
        }
    }
    SmallVector<ConvOp> convs;
    getOperation().walk([&](ConvOp conv) { convs.push_back(conv); });
    IRRewriter rewriter(&getContext());
    bool ok = true;
    for (ConvOp conv : convs) {
      FailureOr<int64_t> n = splitConvolution(rewriter, conv, effective, banks, bankEntries);
      if (failed(n)) {
        ok = false;
        continue;
      }
      if (*n > 1) {
        ++numSplit;
        numParts += *n;
      }
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
