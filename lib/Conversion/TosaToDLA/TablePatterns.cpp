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
// interpolant between knots b_0 = -128 < ... < b_K = 127 at table values,
// as offline SDP passes with register operands and X2's per-element read:
//   ramp k:  X1 ALU max b_k, X2 ALU min b_k+1 and MUL m_k, the output
//            converter's offset b_k m_k (- V_0 2^s_k for k = 0) and shift
//            s_k: r_k = RHA((clamp(x, b_k, b_k+1) - b_k) m_k, s_k)
//            (+ V_0), one rounding;
//   sum k:   P_k = P_k-1 + r_k (X2's ALU reads r_k per element), exact.
// Each full ramp is exactly its knot's rise (checked), so at any level
// only the ramp in progress rounds: the result is the interpolant rounded
// once. Knots are chosen greedily, each segment as long as every level in
// it stays within kRampError of the table (and its rise fits an int8).
// fp16 pipelines keep sigmoid / tanh on the host with the reason.
//
//===----------------------------------------------------------------------===//

#include "QuantizedSdp.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

constexpr int64_t kLevels = 256;
/// The X-stage program's bound against the table, in output steps (the
/// table is itself within 1/2 of the function): docs/Activations.md.
constexpr int64_t kRampError = 1;
/// More segments than this (2K - 1 passes) keep the table on the host.
constexpr size_t kMaxSegments = 16;

/// One ramp pass: r = RHA((clamp(x, lo, hi) - lo) m + base 2^shift, shift).
struct Ramp {
  int64_t lo, hi, m, shift, base;
};

int64_t rha(int64_t v, int64_t shift) {
  if (shift == 0)
    return v;
  const int64_t half = int64_t(1) << (shift - 1);
  return v >= 0 ? (v + half) >> shift : -((-v + half) >> shift);
}

int64_t rampValue(const Ramp &r, int64_t x) {
  const int64_t c = std::min(std::max(x, r.lo), r.hi);
  return rha((c - r.lo) * r.m + r.base * (int64_t(1) << r.shift), r.shift);
}

/// The ramp of levels [lo, hi] from entry e[lo + 128] to e[hi + 128] (base
/// added when `first`), if its full rise is exact and every level in it is
/// within kRampError of the table.
std::optional<Ramp> fitRamp(ArrayRef<int64_t> e, int64_t lo, int64_t hi, bool first) {
  const int64_t v0 = e[lo + 128], v1 = e[hi + 128], rise = v1 - v0;
  if (!first && (rise < -128 || rise > 127))
    return std::nullopt;
  const double slope = double(rise) / double(hi - lo);
  // The finest shift whose multiplier is an int16 (24 bits keep the
  // products of 8-bit levels within 32 bits).
  for (int64_t shift = 24; shift >= 0; --shift) {
    const int64_t m = static_cast<int64_t>(std::llround(std::ldexp(slope, int(shift))));
    if (m < -32768 || m > 32767)
      continue;
    Ramp r{lo, hi, m, shift, first ? v0 : 0};
    const int64_t start = first ? 0 : v0;
    if (rampValue(r, hi) + start != v1)
      return std::nullopt;
    for (int64_t x = lo; x <= hi; ++x)
      if (std::abs(rampValue(r, x) + start - e[x + 128]) > kRampError)
        return std::nullopt;
    return r;
  }
  return std::nullopt;
}

/// Greedy knots (each segment the longest that fits), or why none fit.
FailureOr<SmallVector<Ramp>> planRamps(ArrayRef<int64_t> e, std::string &why) {
  SmallVector<Ramp> ramps;
  for (int64_t lo = -128; lo < 127;) {
    std::optional<Ramp> best;
    for (int64_t hi = lo + 1; hi <= 127; ++hi)
      if (std::optional<Ramp> r = fitRamp(e, lo, hi, ramps.empty()))
        best = r;
    if (!best || ramps.size() == kMaxSegments) {
      why = "the target has no SDP lookup table (SDP_LUT_ENABLE: the Y stage) and its table is "
            "no interpolant of " + std::to_string(kMaxSegments) +
            " segments within " + std::to_string(kRampError) + " output step";
      return failure();
    }
    ramps.push_back(*best);
    lo = best->hi;
  }
  return ramps;
}

/// The 256 entries of `op`'s table when `op` can run as the LUT program,
/// else why not.
FailureOr<SmallVector<int64_t>> readTable(tosa::TableOp op, const OffloadTarget &target,
                                          std::string &why) {
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
  SmallVector<int64_t> entries;
  for (const APInt &v : table.getValues<APInt>())
    entries.push_back(v.getSExtValue());
  if (!target.config.caps.sdpLut && failed(planRamps(entries, why)))
    return failure();
  return entries;
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

struct TableToLutSdp : OpRewritePattern<tosa::TableOp> {
  TableToLutSdp(MLIRContext *context, const OffloadTarget &target)
      : OpRewritePattern(context), target(target) {}

  LogicalResult matchAndRewrite(tosa::TableOp op, PatternRewriter &rewriter) const override {
    std::string why;
    FailureOr<SmallVector<int64_t>> entries = readTable(op, target, why);
    if (failed(entries))
      return rewriter.notifyMatchFailure(op, why);
    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    ElementwiseFrame frame(ValueRange{op.getInput1()});
    Value x = frame.input(rewriter, loc, op.getInput1(), target.getElementType(ctx));
    Value y;
    if (target.config.caps.sdpLut) {
      auto sdp = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
      sdp.setEwAttr(SdpYAttr::get(ctx, SdpOperand(), CvtAttr(), false, 0, std::nullopt,
                                  SdpOperand(), CvtAttr(), levelLut(ctx, *entries)));
      y = sdp;
    } else {
      y = emitRamps(rewriter, loc, x, *planRamps(*entries, why));
    }
    rewriter.replaceOp(op, frame.result(rewriter, loc, y, cast<RankedTensorType>(op.getType())));
    return success();
  }

  /// The ramp passes over x and the passes that add them up.
  static Value emitRamps(PatternRewriter &rewriter, Location loc, Value x, ArrayRef<Ramp> ramps) {
    MLIRContext *ctx = rewriter.getContext();
    auto reg = [](int64_t v) { return SdpOperand::ofRegister(v); };
    Value sum;
    for (const Ramp &r : ramps) {
      auto ramp = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, x);
      ramp.setBsAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Max, reg(r.lo), 0, SdpOperand(), 0, false,
                                   false));
      ramp.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Min, reg(r.hi), 0, reg(r.m), 0, false,
                                   false));
      ramp.setOutCvtAttr(
          CvtAttr::get(ctx, r.lo * r.m - r.base * (int64_t(1) << r.shift), 1, r.shift));
      if (!sum) {
        sum = ramp;
        continue;
      }
      auto add = SdpOp::create(rewriter, loc, x.getType(), SdpMode::Offline, sum);
      add.getEltwiseMutable().assign(ramp);
      add.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Sum,
                                  SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise), 0, SdpOperand(),
                                  0, false, false));
      sum = add;
    }
    return sum;
  }

  OffloadTarget target;
};

std::string whyNotTable(tosa::TableOp op, const OffloadTarget &target) {
  std::string why;
  (void)readTable(op, target, why);
  return why;
}

/// A float sigmoid or tanh: on an integer target its type says why (an
/// int8 model's runs as a table); no layer computes it on an fp16 one.
template <typename OpTy>
std::string whyNotFloatActivation(OpTy op, const OffloadTarget &target) {
  if (std::string why = target.checkSourceType(op.getType()); !why.empty())
    return why;
  return "the SDP's lookup table in float mode (the fp16 Y stage) is not modelled: dla.sdp "
         "takes no ew stage on fp16 (docs/NvdlaFp16.md, docs/Activations.md); an int8 model "
         "runs it as a table";
}

} // namespace

void tosa_to_dla::populateTablePatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                        const OffloadTarget &target) {
  patterns.add<TableToLutSdp>(patterns.getContext(), target);
  rules.add<tosa::TableOp>(whyNotTable);
  rules.add<tosa::SigmoidOp>(whyNotFloatActivation<tosa::SigmoidOp>);
  rules.add<tosa::TanhOp>(whyNotFloatActivation<tosa::TanhOp>);
}
