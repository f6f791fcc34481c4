//===- SdpProgram.cpp - dla.sdp as SDP and SDP_RDMA register writes -------===//
//
// Field by field as NVIDIA's firmware programs an SDP layer
// (kmd/firmware/sdp.c processor_sdp_program), from the op's register
// attributes (docs/IntegerAttributes.md section 4).
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include "dla/Dialect/DLA/IR/DLA.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::trace;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

namespace {
/// The registers of one X stage (BS or BN).
struct XStageRegs {
  R cfg, aluCfg, aluSrc, mulCfg, mulSrc;
  CsbField bypass, aluBypass, aluAlgo, mulBypass, mulPrelu, reluBypass;
  CsbField aluSrcSel, aluShift, aluOperand, mulSrcSel, mulShift, mulOperand;
};
const XStageRegs kBs{R::SDP_D_DP_BS_CFG, R::SDP_D_DP_BS_ALU_CFG, R::SDP_D_DP_BS_ALU_SRC_VALUE,
                     R::SDP_D_DP_BS_MUL_CFG, R::SDP_D_DP_BS_MUL_SRC_VALUE,
                     SDP_D_DP_BS_CFG_BS_BYPASS, SDP_D_DP_BS_CFG_BS_ALU_BYPASS,
                     SDP_D_DP_BS_CFG_BS_ALU_ALGO, SDP_D_DP_BS_CFG_BS_MUL_BYPASS,
                     SDP_D_DP_BS_CFG_BS_MUL_PRELU, SDP_D_DP_BS_CFG_BS_RELU_BYPASS,
                     SDP_D_DP_BS_ALU_CFG_BS_ALU_SRC, SDP_D_DP_BS_ALU_CFG_BS_ALU_SHIFT_VALUE,
                     SDP_D_DP_BS_ALU_SRC_VALUE_BS_ALU_OPERAND, SDP_D_DP_BS_MUL_CFG_BS_MUL_SRC,
                     SDP_D_DP_BS_MUL_CFG_BS_MUL_SHIFT_VALUE,
                     SDP_D_DP_BS_MUL_SRC_VALUE_BS_MUL_OPERAND};
const XStageRegs kBn{R::SDP_D_DP_BN_CFG, R::SDP_D_DP_BN_ALU_CFG, R::SDP_D_DP_BN_ALU_SRC_VALUE,
                     R::SDP_D_DP_BN_MUL_CFG, R::SDP_D_DP_BN_MUL_SRC_VALUE,
                     SDP_D_DP_BN_CFG_BN_BYPASS, SDP_D_DP_BN_CFG_BN_ALU_BYPASS,
                     SDP_D_DP_BN_CFG_BN_ALU_ALGO, SDP_D_DP_BN_CFG_BN_MUL_BYPASS,
                     SDP_D_DP_BN_CFG_BN_MUL_PRELU, SDP_D_DP_BN_CFG_BN_RELU_BYPASS,
                     SDP_D_DP_BN_ALU_CFG_BN_ALU_SRC, SDP_D_DP_BN_ALU_CFG_BN_ALU_SHIFT_VALUE,
                     SDP_D_DP_BN_ALU_SRC_VALUE_BN_ALU_OPERAND, SDP_D_DP_BN_MUL_CFG_BN_MUL_SRC,
                     SDP_D_DP_BN_MUL_CFG_BN_MUL_SHIFT_VALUE,
                     SDP_D_DP_BN_MUL_SRC_VALUE_BN_MUL_OPERAND};

/// A register operand's value; memory operands are refused earlier.
int64_t reg(const SdpOperand &o) { return o.reg.value_or(0); }

void programX(SdpXAttr x, const XStageRegs &r, LayerProgram &p) {
  if (!x) {
    p.write(r.cfg, {{r.bypass, 1}, {r.aluBypass, 1}, {r.mulBypass, 1}, {r.reluBypass, 1}});
    return;
  }
  bool alu = x.getAlu().has_value(), mul = x.getMulOperand().isPresent();
  p.write(r.cfg, {{r.bypass, 0},
                  {r.aluBypass, !alu},
                  {r.aluAlgo, alu ? static_cast<int64_t>(*x.getAlu()) : 0},
                  {r.mulBypass, !mul},
                  {r.mulPrelu, x.getPrelu()},
                  {r.reluBypass, !x.getRelu()}});
  p.write(r.aluCfg, {{r.aluSrcSel, kSrcReg}, {r.aluShift, x.getAluShift()}});
  p.write(r.aluSrc, {{r.aluOperand, reg(x.getAluOperand())}});
  // The shift applies with MUL bypassed too (sdp.c: "MUL truncate will
  // take effect no matter MUL is bypassed or not").
  p.write(r.mulCfg, {{r.mulSrcSel, kSrcReg}, {r.mulShift, x.getMulShift()}});
  p.write(r.mulSrc, {{r.mulOperand, reg(x.getMulOperand())}});
}

void programY(SdpYAttr y, LayerProgram &p) {
  if (!y) {
    p.write(R::SDP_D_DP_EW_CFG, {{SDP_D_DP_EW_CFG_EW_BYPASS, 1},
                                 {SDP_D_DP_EW_CFG_EW_ALU_BYPASS, 1},
                                 {SDP_D_DP_EW_CFG_EW_MUL_BYPASS, 1},
                                 {SDP_D_DP_EW_CFG_EW_LUT_BYPASS, 1}});
    return;
  }
  bool alu = y.getAlu().has_value(), mul = y.getMulOperand().isPresent();
  p.write(R::SDP_D_DP_EW_CFG,
          {{SDP_D_DP_EW_CFG_EW_BYPASS, 0},
           {SDP_D_DP_EW_CFG_EW_ALU_BYPASS, !alu},
           {SDP_D_DP_EW_CFG_EW_ALU_ALGO, alu ? static_cast<int64_t>(*y.getAlu()) : 0},
           {SDP_D_DP_EW_CFG_EW_MUL_BYPASS, !mul},
           {SDP_D_DP_EW_CFG_EW_MUL_PRELU, y.getPrelu()},
           {SDP_D_DP_EW_CFG_EW_LUT_BYPASS, 1}});
  p.write(R::SDP_D_DP_EW_ALU_CFG,
          {{SDP_D_DP_EW_ALU_CFG_EW_ALU_SRC, kSrcReg}, {SDP_D_DP_EW_ALU_CFG_EW_ALU_CVT_BYPASS, 1}});
  p.write(R::SDP_D_DP_EW_ALU_SRC_VALUE,
          {{SDP_D_DP_EW_ALU_SRC_VALUE_EW_ALU_OPERAND, reg(y.getAluOperand())}});
  p.write(R::SDP_D_DP_EW_MUL_CFG,
          {{SDP_D_DP_EW_MUL_CFG_EW_MUL_SRC, kSrcReg}, {SDP_D_DP_EW_MUL_CFG_EW_MUL_CVT_BYPASS, 1}});
  p.write(R::SDP_D_DP_EW_MUL_SRC_VALUE,
          {{SDP_D_DP_EW_MUL_SRC_VALUE_EW_MUL_OPERAND, reg(y.getMulOperand())}});
  p.write(R::SDP_D_DP_EW_TRUNCATE_VALUE, {{SDP_D_DP_EW_TRUNCATE_VALUE_EW_TRUNCATE, y.getTruncate()}});
}

bool usesMemory(SdpXAttr x) {
  return x && (x.getAluOperand().mem || x.getMulOperand().mem);
}
bool usesMemory(SdpYAttr y) {
  return y && (y.getAluOperand().mem || y.getMulOperand().mem);
}
} // namespace

void mlir::dla::trace::programSdpCore(Operation *o, bool onTheFly, const CubeAddress &in,
                                      const CubeAddress &out, LayerProgram &p) {
  auto op = dyn_cast_or_null<SdpOp>(o);
  p.write(R::SDP_S_POINTER, 0);
  p.write(R::SDP_D_DATA_CUBE_WIDTH, in.width - 1);
  p.write(R::SDP_D_DATA_CUBE_HEIGHT, in.height - 1);
  p.write(R::SDP_D_DATA_CUBE_CHANNEL, in.channels - 1);
  p.write(R::SDP_D_DST_BASE_ADDR_LOW, static_cast<uint32_t>(out.address));
  p.write(R::SDP_D_DST_BASE_ADDR_HIGH, static_cast<uint32_t>(out.address >> 32));
  p.write(R::SDP_D_DST_LINE_STRIDE, out.lineStride);
  p.write(R::SDP_D_DST_SURFACE_STRIDE, out.surfaceStride);
  programX(op ? op.getBsAttr() : SdpXAttr(), kBs, p);
  programX(op ? op.getBnAttr() : SdpXAttr(), kBn, p);
  programY(op ? op.getEwAttr() : SdpYAttr(), p);
  p.write(R::SDP_D_FEATURE_MODE_CFG,
          {{SDP_D_FEATURE_MODE_CFG_FLYING_MODE, onTheFly}, {SDP_D_FEATURE_MODE_CFG_OUTPUT_DST, 0}});
  p.write(R::SDP_D_DST_DMA_CFG, {{SDP_D_DST_DMA_CFG_DST_RAM_TYPE, kRamTypeMc}});
  p.write(R::SDP_D_DATA_FORMAT, {{SDP_D_DATA_FORMAT_PROC_PRECISION, kPrecisionInt8},
                                 {SDP_D_DATA_FORMAT_OUT_PRECISION, kPrecisionInt8}});
  CvtAttr cvt = op ? op.getOutCvtAttr() : CvtAttr();
  p.write(R::SDP_D_CVT_OFFSET, {{SDP_D_CVT_OFFSET_CVT_OFFSET, cvt ? cvt.getOffset() : 0}});
  p.write(R::SDP_D_CVT_SCALE, {{SDP_D_CVT_SCALE_CVT_SCALE, cvt ? cvt.getScale() : 1}});
  p.write(R::SDP_D_CVT_SHIFT, {{SDP_D_CVT_SHIFT_CVT_SHIFT, cvt ? cvt.getShift() : 0}});
}

LogicalResult mlir::dla::trace::checkSdpProgrammable(Operation *o) {
  auto op = cast<SdpOp>(o);
  if (!op.getBsAttr() && !op.getBnAttr() && !op.getEwAttr())
    return op.emitOpError("has no register stages (bs, bn, ew): only the stage form is "
                          "programmed");
  if (usesMemory(op.getBsAttr()) || usesMemory(op.getBnAttr()) || usesMemory(op.getEwAttr()))
    return op.emitOpError("reads a memory operand: only register operands are programmed yet");
  if (op.getEwAttr() && op.getEwAttr().getLut())
    return op.emitOpError("uses the lookup table, which is not programmed yet");
  return success();
}

LogicalResult mlir::dla::trace::programSdp(Operation *o, const CubeAddress &in,
                                           const CubeAddress &out, LayerProgram &p) {
  auto op = cast<SdpOp>(o);
  // The verifier makes an on-the-fly SDP read a convolution, whose layer
  // it joins.
  assert(op.getMode() == SdpMode::Offline && "an on-the-fly SDP is part of its convolution");
  if (failed(checkSdpProgrammable(op)))
    return failure();

  p.interrupts = {"SDP"};
  p.write(R::SDP_RDMA_S_POINTER, 0);
  // SDP_RDMA: the source cube from DBB, no operand DMAs.
  p.write(R::SDP_RDMA_D_FEATURE_MODE_CFG, {{SDP_RDMA_D_FEATURE_MODE_CFG_FLYING_MODE, 0},
                                           {SDP_RDMA_D_FEATURE_MODE_CFG_IN_PRECISION, kPrecisionInt8},
                                           {SDP_RDMA_D_FEATURE_MODE_CFG_PROC_PRECISION, kPrecisionInt8},
                                           {SDP_RDMA_D_FEATURE_MODE_CFG_OUT_PRECISION, kPrecisionInt8}});
  p.write(R::SDP_RDMA_D_BRDMA_CFG, {{SDP_RDMA_D_BRDMA_CFG_BRDMA_DISABLE, 1}});
  p.write(R::SDP_RDMA_D_NRDMA_CFG, {{SDP_RDMA_D_NRDMA_CFG_NRDMA_DISABLE, 1}});
  p.write(R::SDP_RDMA_D_ERDMA_CFG, {{SDP_RDMA_D_ERDMA_CFG_ERDMA_DISABLE, 1}});
  p.write(R::SDP_RDMA_D_DATA_CUBE_WIDTH, in.width - 1);
  p.write(R::SDP_RDMA_D_DATA_CUBE_HEIGHT, in.height - 1);
  p.write(R::SDP_RDMA_D_DATA_CUBE_CHANNEL, in.channels - 1);
  p.write(R::SDP_RDMA_D_SRC_BASE_ADDR_LOW, static_cast<uint32_t>(in.address));
  p.write(R::SDP_RDMA_D_SRC_BASE_ADDR_HIGH, static_cast<uint32_t>(in.address >> 32));
  p.write(R::SDP_RDMA_D_SRC_LINE_STRIDE, in.lineStride);
  p.write(R::SDP_RDMA_D_SRC_SURFACE_STRIDE, in.surfaceStride);
  p.write(R::SDP_RDMA_D_SRC_DMA_CFG, {{SDP_RDMA_D_SRC_DMA_CFG_SRC_RAM_TYPE, kRamTypeMc}});
  programSdpCore(op, /*onTheFly=*/false, in, out, p);
  // As NVIDIA's SDP traces: the core first, then its read DMA.
  p.write(R::SDP_D_OP_ENABLE, 1);
  p.write(R::SDP_RDMA_D_OP_ENABLE, 1);
  return success();
}
