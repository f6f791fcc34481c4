//===- TablePrograms.cpp - An int8 table as X-stage SDP passes ------------===//
//
// The table's piecewise-linear interpolant between knots b_0 = -128 < ...
// < b_K = 127 at the table's own values V_k, in offline SDP passes with
// register operands and X2 reading one map per element (the firmware takes
// a stage's operands from one source: registers in X1, memory alone in X2).
//
// A monotone table (a sigmoid's, a tanh's; a falling one negated, and the
// last pass negates back) is a chain, one pass per segment:
//   X1: ALU adds -b_k, MUL m_k, shift s_k, ReLU:  r_k = max(0, RHA((x - b_k) m_k, s_k))
//   X2: ALU adds the previous pass's map per element (not in pass 0);
//   output converter: offset, saturation at 127.
// Pass k stores P_k + c_k with c_k = 127 - V_k+1 (the last: c = 0), so the
// int8 saturation is the clamp P_k = min(P_k-1 + r_k, V_k+1): below b_k
// the ramp is 0, inside it the interpolant rounded once, past b_k+1 the
// knot (m_k is rounded up where needed so the ramp reaches the rise).
// Stored values stay in int8: P_k - V_k+1 >= V_0 - V_k+1 >= -255.
//
// Any other table is ramps and sums: pass k computes
// r_k = RHA((clamp(x, b_k, b_k+1) - b_k) m_k, s_k) (X1's ALU max, X2's ALU
// min and MUL, the output converter's offset and shift; + V_0 in ramp 0),
// exactly the rise outside its segment (checked), and passes reading each
// ramp per element add them up: only the ramp in progress rounds.
//
// Knots, multipliers and the check of the whole program: TablePlans.cpp.
//
//===----------------------------------------------------------------------===//

#include "TablePrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {

/// Chain pass k of `p` on `pass`: X1's ramp, X2 adding `prev` (the previous
/// pass's map; none in pass 0), the output converter's offset (and the
/// falling chain's negation in the last pass). `carry` is the previous
/// pass's c, updated.
void setChainPass(SdpOp pass, const TableProgram &p, size_t k, Value prev, int64_t &carry) {
  MLIRContext *ctx = pass.getContext();
  const TableSegment &s = p.segments[k];
  const size_t n = p.segments.size();
  // The ramp, then the previous pass added; saturation clamps at the knot.
  pass.setBsAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Sum, SdpOperand::ofRegister(-s.lo), 0,
                               SdpOperand::ofRegister(s.m), s.shift, false, /*relu=*/true));
  if (prev) {
    pass.getEltwiseMutable().assign(prev);
    pass.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Sum,
                                 SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise), 0,
                                 SdpOperand(), 0, false, false));
  }
  const int64_t c = k + 1 < n ? 127 - s.to : 0;
  const int64_t offset = k == 0 ? -(s.from + c) : carry - c;
  const int64_t scale = k + 1 == n && p.falling ? -1 : 1;
  if (offset != 0 || scale != 1)
    pass.setOutCvtAttr(CvtAttr::get(ctx, offset, scale, 0));
  carry = c;
}

} // namespace

Value tosa_to_dla::emitAccumulatorChain(OpBuilder &b, ConvOp conv, const TableProgram &p) {
  Value last;
  int64_t carry = 0;
  for (size_t k = 0; k < p.segments.size(); ++k) {
    // Each pass reads the accumulator on the fly: its own convolution.
    Operation *acc = k == 0 ? conv.getOperation() : b.clone(*conv.getOperation());
    auto pass = SdpOp::create(b, conv.getLoc(), conv.getType(), SdpMode::OnTheFly,
                              acc->getResult(0));
    setChainPass(pass, p, k, last, carry);
    last = pass;
  }
  return last;
}

Value tosa_to_dla::emitTableProgram(OpBuilder &b, Location loc, Value x, const TableProgram &p) {
  MLIRContext *ctx = b.getContext();
  auto reg = [](int64_t v) { return SdpOperand::ofRegister(v); };
  const SdpOperand eltwise = SdpOperand::ofMemory(nv::SdpMemOperand::Eltwise);
  auto addInX2 = [&](SdpOp sdp, Value operand) {
    sdp.getEltwiseMutable().assign(operand);
    sdp.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Sum, eltwise, 0, SdpOperand(), 0, false,
                                false));
  };
  const size_t n = p.segments.size();
  Value last;
  int64_t carry = 0;
  for (size_t k = 0; k < n; ++k) {
    const TableSegment &s = p.segments[k];
    auto pass = SdpOp::create(b, loc, x.getType(), SdpMode::Offline, x);
    if (p.chain) {
      setChainPass(pass, p, k, last, carry);
      last = pass;
      continue;
    }
    pass.setBsAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Max, reg(s.lo), 0, SdpOperand(), 0, false,
                                 false));
    pass.setBnAttr(SdpXAttr::get(ctx, nv::SdpAluAlgo::Min, reg(s.hi), 0, reg(s.m), 0, false,
                                 false));
    pass.setOutCvtAttr(
        CvtAttr::get(ctx, s.lo * s.m - s.from * (int64_t(1) << s.shift), 1, s.shift));
    if (!last) {
      last = pass;
      continue;
    }
    auto add = SdpOp::create(b, loc, x.getType(), SdpMode::Offline, last);
    addInX2(add, pass);
    last = add;
  }
  return last;
}
