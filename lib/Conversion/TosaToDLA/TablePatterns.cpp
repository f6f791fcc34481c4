//===- TablePatterns.cpp - An int8 table lookup on the SDP's LUT ----------===//
//
// tosa.table of an int8 feature map by 256 int8 entries (dla-import-onnx's
// form of DequantizeLinear -> Sigmoid | Tanh -> QuantizeLinear,
// python/dla/onnx/qdq_table.py) as one offline SDP whose Y stage's LUT
// answers every input level with its own entry (docs/Activations.md):
//   LO linear, lo_start = -128, lo_index_select = 0: level x > -128 hits
//   index x + 128 with a zero fraction (no interpolation), so the answer
//   is LO[x + 128]; x = -128 underflows (x <= start) and answers LO[0]
//   with a zero slope; LO[256] (never read) repeats the last entry.
//   LE linear, le_start = le_end = 127: every int8 level underflows it,
//   so a single LO hit wins, and both underflowing (x = -128) the
//   underflow priority (LO) answers.
// The output converter is the identity: the result is the table's entry,
// bit for bit.
//
// Without the LUT (nv_small: no Y stage) the table's piecewise-linear
// interpolant runs as X-stage passes (TablePrograms.cpp).
// On fp16 (nv_full) a float sigmoid / tanh is one offline SDP whose Y
// stage's LUT runs in float mode (FloatActivationToSdp).
//
//===----------------------------------------------------------------------===//

#include "QuantizedSdp.h"
#include "TablePrograms.h"

#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/NvdlaLutFloat.h"

#include "mlir/IR/Matchers.h"


using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

constexpr int64_t kLevels = 256;

/// What runs a table: its 256 entries in the LUT, or (no LUT) its X-stage
/// program.
struct TableRun {
  SmallVector<int64_t> entries;
  std::optional<TableProgram> program;
};

/// How `op` runs on the target, else why it cannot.
FailureOr<TableRun> readTable(tosa::TableOp op, const OffloadTarget &target, std::string &why) {
  auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out || !in.getElementType().isInteger(8) || !out.getElementType().isInteger(8)) {
    why = "it is not a table of int8 values indexed by int8 values";
    return failure();
  }
  if (in.getRank() != 4 || !in.hasStaticShape()) {
    why = "it is not a static rank-4 feature map";
    return failure();
  }
  if (!target.config.caps.sdpLut && !(target.config.caps.sdpBs && target.config.caps.sdpBn)) {
    why = std::string(target.config.name) + " has neither the SDP lookup table nor its X stages";
    return failure();
  }
  if (!isTargetInteger(in, target)) {
    why = "its int8 levels are not the target precision's feature data";
    return failure();
  }
  if (std::string w = target.checkOfflineSdp(); !w.empty()) {
    why = w;
    return failure();
  }
  DenseIntElementsAttr table;
  if (!matchPattern(op.getTable(), m_Constant(&table)) || table.getNumElements() != kLevels) {
    why = "its table is not a constant of 256 entries";
    return failure();
  }
  TableRun run;
  for (const APInt &v : table.getValues<APInt>())
    run.entries.push_back(v.getSExtValue());
  if (!target.config.caps.sdpLut) {
    FailureOr<TableProgram> p = planTableProgram(run.entries, why);
    if (failed(p))
      return failure();
    run.program = std::move(*p);
  }
  return run;
}

/// The Y stage's LUT that answers level x with entries[x + 128].
LutAttr levelLut(MLIRContext *ctx, ArrayRef<int64_t> entries) {
  SmallVector<int64_t> lo(entries.begin(), entries.end());
  lo.push_back(entries.back());
  SmallVector<int64_t> le(65, 0);
  return LutAttr::get(ctx, LutFunction::Linear, DenseI64ArrayAttr::get(ctx, le),
                      DenseI64ArrayAttr::get(ctx, lo), /*le_start=*/127, /*le_end=*/127,
                      /*lo_start=*/-128, /*lo_end=*/127, std::nullopt, /*le_index_select=*/0,
                      /*lo_index_select=*/0, 0, 0, 0, 0, 0, 0, 0, 0, LutTable::Lo, LutTable::Lo,
                      LutTable::Lo);
}

struct TableToSdp : OpRewritePattern<tosa::TableOp> {
  TableToSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::TableOp op, PatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<TableRun> run = readTable(op, target, why);
    if (failed(run))
      return rewriter.notifyMatchFailure(op, why);
    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    ElementwiseFrame frame(ValueRange{op.getInput1()});
    Value x = frame.input(rewriter, loc, op.getInput1(), target.getElementType(ctx));
    Value y;
    if (run->program) {
      y = emitTableProgram(rewriter, loc, x, *run->program);
    } else {
      auto sdp = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
      sdp.setEwAttr(SdpYAttr::get(ctx, SdpOperand(), CvtAttr(), false, 0, std::nullopt,
                                  SdpOperand(), CvtAttr(), levelLut(ctx, run->entries)));
      y = sdp;
    }
    rewriter.replaceOp(op, frame.result(rewriter, loc, y, cast<RankedTensorType>(op.getType())));
    return success();
  }

  OffloadTarget target;
};

std::string whyNotTable(tosa::TableOp op, const OffloadTarget &target) {
  std::string why;
  (void)readTable(op, target, why);
  return why;
}

/// A float sigmoid or tanh (an fp16 network's): on an integer target its
/// type says why (an int8 model's runs as a table).
template <typename OpTy>
std::string whyNotFloatActivation(OpTy op, const OffloadTarget &target) {
  if (std::string why = target.checkSourceType(op.getType()); !why.empty())
    return why;
  if (cast<RankedTensorType>(op.getType()).getRank() != 4)
    return "it is not a static rank-4 feature map";
  // Only nv_full computes fp16, and it has the LUT (NvdlaHardware.h).
  assert(target.config.caps.sdpLut && "an fp16 configuration without the SDP's LUT");
  return target.checkOfflineSdp();
}

/// On fp16: one offline SDP whose Y stage's LUT, in float mode, runs the
/// format library's program for the function (NvdlaLutFloat.h:
/// floatLutProgram; its error over every fp16 input is in
/// docs/Activations.md).
template <typename OpTy>
struct FloatActivationToSdp : OpRewritePattern<OpTy> {
  FloatActivationToSdp(MLIRContext *context, const OffloadTarget &target,
                       nv::FloatLutFunction function)
      : OpRewritePattern<OpTy>(context), target(target), function(function) {}

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    if (std::string why = whyNotFloatActivation(op, target); !why.empty())
      return rewriter.notifyMatchFailure(op, why);
    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    ElementwiseFrame frame(ValueRange{op.getInput()});
    Value x = frame.input(rewriter, loc, op.getInput(), target.getElementType(ctx));
    auto sdp = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
    sdp.setEwAttr(SdpYAttr::get(ctx, SdpOperand(), CvtAttr(), false, 0, std::nullopt,
                                SdpOperand(), CvtAttr(),
                                getLutAttr(ctx, nv::floatLutProgram(function))));
    rewriter.replaceOp(op, frame.result(rewriter, loc, sdp, cast<RankedTensorType>(op.getType())));
    return success();
  }

  OffloadTarget target;
  nv::FloatLutFunction function;
};

} // namespace

void tosa_to_dla::populateTablePatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                        const OffloadTarget &target) {
  patterns.add<TableToSdp>(patterns.getContext(), target);
  patterns.add<FloatActivationToSdp<tosa::SigmoidOp>>(patterns.getContext(), target,
                                                      nv::FloatLutFunction::Sigmoid);
  patterns.add<FloatActivationToSdp<tosa::TanhOp>>(patterns.getContext(), target,
                                                   nv::FloatLutFunction::Tanh);
  rules.add<tosa::TableOp>(whyNotTable);
  rules.add<tosa::SigmoidOp>(whyNotFloatActivation<tosa::SigmoidOp>);
  rules.add<tosa::TanhOp>(whyNotFloatActivation<tosa::TanhOp>);
}
