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
#include "ReferenceInts.h"
#include "ReferenceLut.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::reference;
namespace nv = ::dlaformat::nvdla;

namespace {

/// SAT32(RHA(v, shift)): the C model's IntShiftRight into 32 bits.
Value shr32(Ints &m, Value v, int64_t shift) { return m.sat(m.rha(v, shift), 32); }

/// Two's-complement truncation to 32 bits, sign-extended back.
Value wrap32(Ints &m, Value v) {
  Value low = arith::TruncIOp::create(m.b, m.loc, m.b.getI32Type(), v);
  return arith::ExtSIOp::create(m.b, m.loc, m.b.getI64Type(), low);
}

Value alu(Ints &m, nv::SdpAluAlgo algo, Value x, Value y) {
  switch (algo) {
  case nv::SdpAluAlgo::Max:
    return m.max(x, y);
  case nv::SdpAluAlgo::Min:
    return m.min(x, y);
  case nv::SdpAluAlgo::Sum:
    return m.add(x, y);
  case nv::SdpAluAlgo::Eql:
    return m.sel(m.cmp(arith::CmpIPredicate::eq, x, y), m.c(0), m.c(1));
  }
  llvm_unreachable("unknown ALU operation");
}

/// A unit's operand: its register value or its memory element.
Value operand(Ints &m, const SdpOperand &o, Value mem) { return o.reg ? m.c(*o.reg) : mem; }

} // namespace

Value reference::sdpXStage(OpBuilder &b, Location loc, Value x, SdpXAttr stage, Value aluMem,
                           Value mulMem) {
  Ints m{b, loc};
  Value a = x;
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    // SAT32(operand << shift): a 16-bit operand shifted by 48 or more
    // saturates like any shift past 31, and stays a defined i64 shift.
    Value op = operand(m, stage.getAluOperand(), aluMem);
    Value shifted = m.sat(m.shl(op, m.c(std::min<int64_t>(stage.getAluShift(), 48))), 32);
    // 33 bits, neither saturated nor wrapped.
    a = alu(m, *algo, a, shifted);
  }
  Value t;
  if (stage.getMulOperand().isPresent()) {
    Value op = operand(m, stage.getMulOperand(), mulMem);
    t = shr32(m, m.mul(a, op), stage.getMulShift());
    // PReLU passes a non-negative value unmultiplied and unshifted, wrapped
    // to 32 bits.
    if (stage.getPrelu())
      t = m.sel(m.ge(a, m.c(0)), wrap32(m, a), t);
  } else {
    // MUL bypassed: its shift still applies.
    t = shr32(m, a, stage.getMulShift());
  }
  if (stage.getRelu())
    t = m.max(t, m.c(0));
  return t;
}

/// A float stage's register operand: the register's fp16 pattern, widened
/// exactly (docs/IntegerAttributes.md section 4.7).
static Value floatRegister(OpBuilder &b, Location loc, const SdpOperand &o, Value mem) {
  if (!o.reg)
    return mem;
  APFloat h(APFloat::IEEEhalf(), APInt(16, static_cast<uint64_t>(*o.reg) & 0xffff));
  bool lost;
  h.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(h.convertToFloat()));
}

Value reference::sdpXStageFloat(OpBuilder &b, Location loc, Value x, SdpXAttr stage,
                                Value aluMem, Value mulMem) {
  aluMem = floatRegister(b, loc, stage.getAluOperand(), aluMem);
  mulMem = floatRegister(b, loc, stage.getMulOperand(), mulMem);
  Value a = x;
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    switch (*algo) {
    case nv::SdpAluAlgo::Max:
      a = arith::MaximumFOp::create(b, loc, a, aluMem);
      break;
    case nv::SdpAluAlgo::Min:
      a = arith::MinimumFOp::create(b, loc, a, aluMem);
      break;
    case nv::SdpAluAlgo::Sum:
      a = arith::AddFOp::create(b, loc, a, aluMem);
      break;
    case nv::SdpAluAlgo::Eql: {
      // As the integer stage: 0 where equal, else 1.
      Value eq = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a, aluMem);
      a = arith::SelectOp::create(b, loc, eq, scalarConstant(b, loc, a.getType(), 0),
                                  scalarConstant(b, loc, a.getType(), 1));
      break;
    }
    }
  }
  Value zero = scalarConstant(b, loc, a.getType(), 0);
  Value t = a;
  if (stage.getMulOperand().isPresent()) {
    t = arith::MulFOp::create(b, loc, a, mulMem);
    // PReLU passes a non-negative value unmultiplied.
    if (stage.getPrelu()) {
      Value nonNegative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, a, zero);
      t = arith::SelectOp::create(b, loc, nonNegative, a, t);
    }
  }
  if (stage.getRelu())
    t = arith::MaximumFOp::create(b, loc, t, zero);
  return t;
}

/// A float Y-stage register operand: the 32-bit register's fp32 pattern
/// (docs/NvdlaFp16.md, "The SDP's Y stage in fp16").
static Value floatYRegister(OpBuilder &b, Location loc, const SdpOperand &o, Value mem) {
  if (!o.reg)
    return mem;
  APFloat f(APFloat::IEEEsingle(), APInt(32, static_cast<uint64_t>(*o.reg) & 0xffffffffu));
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(f.convertToFloat()));
}

Value reference::sdpYStageFloat(OpBuilder &b, Location loc, Value x, SdpYAttr stage,
                                Value aluMem, Value mulMem) {
  Value v = x;
  if (stage.getMulOperand().isPresent()) {
    Value product =
        arith::MulFOp::create(b, loc, v, floatYRegister(b, loc, stage.getMulOperand(), mulMem));
    Value zero = scalarConstant(b, loc, v.getType(), 0);
    // PReLU passes a non-negative value unmultiplied.
    v = stage.getPrelu()
            ? arith::SelectOp::create(
                  b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, v, zero), v,
                  product)
            : product;
  }
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    Value op = floatYRegister(b, loc, stage.getAluOperand(), aluMem);
    switch (*algo) {
    case nv::SdpAluAlgo::Max:
      v = arith::MaximumFOp::create(b, loc, v, op);
      break;
    case nv::SdpAluAlgo::Min:
      v = arith::MinimumFOp::create(b, loc, v, op);
      break;
    case nv::SdpAluAlgo::Sum:
      v = arith::AddFOp::create(b, loc, v, op);
      break;
    case nv::SdpAluAlgo::Eql:
      llvm_unreachable("dla.sdp's verifier refuses ew.alu = eql on an fp16 pipeline");
    }
  }
  return v;
}

static Value yOperand(Ints &m, const SdpOperand &o, CvtAttr cvt, Value mem) {
  if (o.reg || !cvt)
    return operand(m, o, mem);
  // SAT32(RHA((op - offset) * scale, truncate)): 49 bits before the shift.
  return shr32(m, m.mul(m.sub(mem, m.c(cvt.getOffset())), m.c(cvt.getScale())), cvt.getShift());
}

Value reference::sdpYStage(OpBuilder &b, Location loc, Value x, SdpYAttr stage, Value aluMem,
                           Value mulMem) {
  Ints m{b, loc};
  Value v = x;
  if (stage.getMulOperand().isPresent()) {
    Value op = yOperand(m, stage.getMulOperand(), stage.getMulCvt(), mulMem);
    Value product = shr32(m, m.mul(v, op), stage.getTruncate());
    // PReLU passes a non-negative value untouched.
    v = stage.getPrelu() ? m.sel(m.ge(v, m.c(0)), v, product) : product;
  }
  if (std::optional<nv::SdpAluAlgo> algo = stage.getAlu()) {
    Value op = yOperand(m, stage.getAluOperand(), stage.getAluCvt(), aluMem);
    v = m.sat(alu(m, *algo, v, op), 32);
  }
  if (LutAttr lut = stage.getLut())
    v = sdpLookup(b, loc, v, lut);
  return v;
}
