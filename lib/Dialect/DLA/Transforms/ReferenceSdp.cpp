//===- ReferenceSdp.cpp - The SDP's integer stages, element by element ---===//
//
// Follows utils/dla-ref/int_sdp.py (sdp_x, sdp_y, sdp_y_cvt), the numpy
// model of cmod/hls/sdp/sdp_x.cpp, sdp_y_core.cpp and sdp_y_cvt.cpp. Every
// intermediate fits i64: the X stages' products have 49 bits, the Y stage's
// 32 x 32-bit product at most 2^62.
//
//===----------------------------------------------------------------------===//

#include "ReferenceSdp.h"
#include "ReferenceArith.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;

namespace {

struct Emitter {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v); }
  Value sat32(Value v) { return saturateSigned(b, loc, v, 32); }
  /// SAT32(RHA(v, shift)): the C model's IntShiftRight into 32 bits.
  Value shr32(Value v, int64_t shift) { return sat32(shiftRightHalfAway(b, loc, v, shift)); }
  /// Two's-complement truncation to 32 bits, sign-extended back.
  Value wrap32(Value v) {
    Value low = arith::TruncIOp::create(b, loc, b.getI32Type(), v);
    return arith::ExtSIOp::create(b, loc, b.getI64Type(), low);
  }
  Value nonNegative(Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, c(0));
  }
  Value alu(nv::SdpAluAlgo algo, Value x, Value y) {
    switch (algo) {
    case nv::SdpAluAlgo::Max:
      return arith::MaxSIOp::create(b, loc, x, y);
    case nv::SdpAluAlgo::Min:
      return arith::MinSIOp::create(b, loc, x, y);
    case nv::SdpAluAlgo::Sum:
      return arith::AddIOp::create(b, loc, x, y);
    case nv::SdpAluAlgo::Eql: {
      Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
      return arith::SelectOp::create(b, loc, equal, c(0), c(1));
    }
    }
    llvm_unreachable("unknown ALU operation");
  }
  /// A unit's operand: its register value or its memory element.
  Value operand(const SdpOperand &o, Value mem) { return o.reg ? c(*o.reg) : mem; }
};

} // namespace

Value reference::sdpXStage(OpBuilder &b, Location loc, Value x, SdpXAttr stage, Value aluMem,
                           Value mulMem) {
  Emitter e{b, loc};
  Value a = x;
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    // SAT32(operand << shift): a 16-bit operand shifted by 48 or more
    // saturates like any shift past 31, and stays a defined i64 shift.
    Value op = e.operand(stage.getAluOperand(), aluMem);
    int64_t shift = std::min<int64_t>(stage.getAluShift(), 48);
    Value shifted = e.sat32(arith::ShLIOp::create(b, loc, op, e.c(shift)));
    // 33 bits, neither saturated nor wrapped.
    a = e.alu(*algo, a, shifted);
  }
  Value t;
  if (stage.getMulOperand().isPresent()) {
    Value op = e.operand(stage.getMulOperand(), mulMem);
    t = e.shr32(arith::MulIOp::create(b, loc, a, op), stage.getMulShift());
    // PReLU passes a non-negative value unmultiplied and unshifted, wrapped
    // to 32 bits.
    if (stage.getPrelu())
      t = arith::SelectOp::create(b, loc, e.nonNegative(a), e.wrap32(a), t);
  } else {
    // MUL bypassed: its shift still applies.
    t = e.shr32(a, stage.getMulShift());
  }
  if (stage.getRelu())
    t = arith::MaxSIOp::create(b, loc, t, e.c(0));
  return t;
}

static Value yOperand(Emitter &e, const SdpOperand &operand, CvtAttr cvt, Value mem) {
  if (operand.reg)
    return e.c(*operand.reg);
  if (!cvt)
    return mem;
  // SAT32(RHA((op - offset) * scale, truncate)): 49 bits before the shift.
  Value t = arith::MulIOp::create(e.b, e.loc,
                                  arith::SubIOp::create(e.b, e.loc, mem, e.c(cvt.getOffset())),
                                  e.c(cvt.getScale()));
  return e.shr32(t, cvt.getShift());
}

Value reference::sdpYStage(OpBuilder &b, Location loc, Value x, SdpYAttr stage, Value aluMem,
                           Value mulMem) {
  Emitter e{b, loc};
  Value m = x;
  if (stage.getMulOperand().isPresent()) {
    Value op = yOperand(e, stage.getMulOperand(), stage.getMulCvt(), mulMem);
    Value product = e.shr32(arith::MulIOp::create(b, loc, m, op), stage.getTruncate());
    // PReLU passes a non-negative value untouched.
    m = stage.getPrelu() ? Value(arith::SelectOp::create(b, loc, e.nonNegative(m), m, product))
                         : product;
  }
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    Value op = yOperand(e, stage.getAluOperand(), stage.getAluCvt(), aluMem);
    m = e.sat32(e.alu(*algo, m, op));
  }
  return m;
}
