//===- SdpProgram.cpp - dla.sdp as SDP and SDP_RDMA register writes -------===//
//
// Field by field as NVIDIA's firmware programs an SDP layer
// (kmd/firmware/sdp.c processor_sdp_program), from the op's register
// attributes (docs/IntegerAttributes.md section 4).
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaLrn.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
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

/// A register operand's value (0 for a memory operand, read from its surface).
int64_t reg(const SdpOperand &o) { return o.reg.value_or(0); }
int64_t src(const SdpOperand &o) { return o.mem ? kSrcMem : kSrcReg; }

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
  p.write(r.aluCfg, {{r.aluSrcSel, src(x.getAluOperand())}, {r.aluShift, x.getAluShift()}});
  p.write(r.aluSrc, {{r.aluOperand, reg(x.getAluOperand())}});
  // The shift applies with MUL bypassed too (sdp.c: "MUL truncate will
  // take effect no matter MUL is bypassed or not").
  p.write(r.mulCfg, {{r.mulSrcSel, src(x.getMulOperand())}, {r.mulShift, x.getMulShift()}});
  p.write(r.mulSrc, {{r.mulOperand, reg(x.getMulOperand())}});
}

/// The registers of one EW operand converter (ALU_CVT or MUL_CVT).
struct EwCvtRegs {
  R offset, scale, truncate;
  CsbField offsetField, scaleField, truncateField;
};
const EwCvtRegs kEwAluCvt{R::SDP_D_DP_EW_ALU_CVT_OFFSET_VALUE,
                          R::SDP_D_DP_EW_ALU_CVT_SCALE_VALUE,
                          R::SDP_D_DP_EW_ALU_CVT_TRUNCATE_VALUE,
                          SDP_D_DP_EW_ALU_CVT_OFFSET_VALUE_EW_ALU_CVT_OFFSET,
                          SDP_D_DP_EW_ALU_CVT_SCALE_VALUE_EW_ALU_CVT_SCALE,
                          SDP_D_DP_EW_ALU_CVT_TRUNCATE_VALUE_EW_ALU_CVT_TRUNCATE};
const EwCvtRegs kEwMulCvt{R::SDP_D_DP_EW_MUL_CVT_OFFSET_VALUE,
                          R::SDP_D_DP_EW_MUL_CVT_SCALE_VALUE,
                          R::SDP_D_DP_EW_MUL_CVT_TRUNCATE_VALUE,
                          SDP_D_DP_EW_MUL_CVT_OFFSET_VALUE_EW_MUL_CVT_OFFSET,
                          SDP_D_DP_EW_MUL_CVT_SCALE_VALUE_EW_MUL_CVT_SCALE,
                          SDP_D_DP_EW_MUL_CVT_TRUNCATE_VALUE_EW_MUL_CVT_TRUNCATE};

/// A stated converter's values (its CFG's CVT_BYPASS says whether it applies).
void programEwCvt(CvtAttr cvt, const EwCvtRegs &r, LayerProgram &p) {
  if (!cvt)
    return;
  p.write(r.offset, {{r.offsetField, cvt.getOffset()}});
  p.write(r.scale, {{r.scaleField, cvt.getScale()}});
  p.write(r.truncate, {{r.truncateField, cvt.getShift()}});
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
           {SDP_D_DP_EW_CFG_EW_LUT_BYPASS, !y.getLut()}});
  if (LutAttr lut = y.getLut())
    programLut(getLutProgram(lut), kSdpLutRegs, p);
  // A memory operand meets its converter (ALU_CVT / MUL_CVT) when stated;
  // register operands never do.
  CvtAttr aluCvt = y.getAluCvt(), mulCvt = y.getMulCvt();
  p.write(R::SDP_D_DP_EW_ALU_CFG, {{SDP_D_DP_EW_ALU_CFG_EW_ALU_SRC, src(y.getAluOperand())},
                                   {SDP_D_DP_EW_ALU_CFG_EW_ALU_CVT_BYPASS, !aluCvt}});
  p.write(R::SDP_D_DP_EW_ALU_SRC_VALUE,
          {{SDP_D_DP_EW_ALU_SRC_VALUE_EW_ALU_OPERAND, reg(y.getAluOperand())}});
  programEwCvt(aluCvt, kEwAluCvt, p);
  p.write(R::SDP_D_DP_EW_MUL_CFG, {{SDP_D_DP_EW_MUL_CFG_EW_MUL_SRC, src(y.getMulOperand())},
                                   {SDP_D_DP_EW_MUL_CFG_EW_MUL_CVT_BYPASS, !mulCvt}});
  p.write(R::SDP_D_DP_EW_MUL_SRC_VALUE,
          {{SDP_D_DP_EW_MUL_SRC_VALUE_EW_MUL_OPERAND, reg(y.getMulOperand())}});
  programEwCvt(mulCvt, kEwMulCvt, p);
  p.write(R::SDP_D_DP_EW_TRUNCATE_VALUE, {{SDP_D_DP_EW_TRUNCATE_VALUE_EW_TRUNCATE, y.getTruncate()}});
}

/// The operand DMA of a stage: BRDMA for BS, NRDMA for BN, ERDMA for EW.
struct OperandDmaRegs {
  R cfg, addrLow, addrHigh, lineStride, surfaceStride;
  CsbField disable, use, size, mode, ramType;
};
const OperandDmaRegs kBrdma{R::SDP_RDMA_D_BRDMA_CFG,
                            R::SDP_RDMA_D_BS_BASE_ADDR_LOW,
                            R::SDP_RDMA_D_BS_BASE_ADDR_HIGH,
                            R::SDP_RDMA_D_BS_LINE_STRIDE,
                            R::SDP_RDMA_D_BS_SURFACE_STRIDE,
                            SDP_RDMA_D_BRDMA_CFG_BRDMA_DISABLE,
                            SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_USE,
                            SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_SIZE,
                            SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_MODE,
                            SDP_RDMA_D_BRDMA_CFG_BRDMA_RAM_TYPE};
const OperandDmaRegs kNrdma{R::SDP_RDMA_D_NRDMA_CFG,
                            R::SDP_RDMA_D_BN_BASE_ADDR_LOW,
                            R::SDP_RDMA_D_BN_BASE_ADDR_HIGH,
                            R::SDP_RDMA_D_BN_LINE_STRIDE,
                            R::SDP_RDMA_D_BN_SURFACE_STRIDE,
                            SDP_RDMA_D_NRDMA_CFG_NRDMA_DISABLE,
                            SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_USE,
                            SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_SIZE,
                            SDP_RDMA_D_NRDMA_CFG_NRDMA_DATA_MODE,
                            SDP_RDMA_D_NRDMA_CFG_NRDMA_RAM_TYPE};
const OperandDmaRegs kErdma{R::SDP_RDMA_D_ERDMA_CFG,
                            R::SDP_RDMA_D_EW_BASE_ADDR_LOW,
                            R::SDP_RDMA_D_EW_BASE_ADDR_HIGH,
                            R::SDP_RDMA_D_EW_LINE_STRIDE,
                            R::SDP_RDMA_D_EW_SURFACE_STRIDE,
                            SDP_RDMA_D_ERDMA_CFG_ERDMA_DISABLE,
                            SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_USE,
                            SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_SIZE,
                            SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_MODE,
                            SDP_RDMA_D_ERDMA_CFG_ERDMA_RAM_TYPE};

/// The memory operand a stage (SdpXAttr, SdpYAttr) reads (the verifier
/// allows one).
template <typename Stage>
std::optional<SdpMemOperand> memOf(Stage x) {
  if (!x)
    return std::nullopt;
  return x.getAluOperand().mem ? x.getAluOperand().mem : x.getMulOperand().mem;
}

/// Programs (or disables) one stage's DMA; whether it reads memory.
template <typename Stage>
bool programDma(Stage x, const OperandDmaRegs &r, const SdpMemSurfaces &mem, LayerProgram &p) {
  std::optional<SdpMemOperand> m = memOf(x);
  if (!m) {
    p.write(r.cfg, {{r.disable, 1}});
    return false;
  }
  const SdpMemSurface &s = mem[static_cast<size_t>(*m)];
  const AuxBoundLayout &layout = *s.layout;
  // A two-component surface (batch-norm, element-wise ALU + MUL) is read
  // whole, its components going to ALU and MUL; one component goes where
  // the stage names it.
  int64_t use = getComponentsPerElement(layout.getConfig()) == 2 ? kDataUseBoth
                : x.getAluOperand().mem                        ? kDataUseAlu
                                                               : kDataUseMul;
  const bool perElement = layout.getConfig().mode == AuxMode::PerElement;
  p.write(r.cfg, {{r.disable, 0},
                  {r.use, use},
                  {r.size, layout.getStorageComponentBytes() == 2 ? 1 : 0},
                  {r.mode, perElement ? kDataModePerElement : kDataModePerKernel},
                  {r.ramType, kRamTypeMc}});
  p.write(r.addrLow, static_cast<uint32_t>(s.address));
  p.write(r.addrHigh, static_cast<uint32_t>(s.address >> 32));
  // Per channel: one 1x1xC run read in groups of the int8 SDP's elements
  // per atom (the C model checks SURFACE_STRIDE = elements per group x
  // bytes per element on a 1x1 cube); an int16 layout's shorter atoms only
  // pad its end differently.
  const int64_t group = getHardwareConfig(layout.getConfig().hardware).caps.memoryAtomBytes *
                        getComponentsPerElement(layout.getConfig()) *
                        layout.getStorageComponentBytes();
  p.write(r.lineStride, perElement ? layout.getCube()->getLineStride() : group);
  p.write(r.surfaceStride, perElement ? layout.getCube()->getSurfaceStride() : group);
  return true;
}
} // namespace

void mlir::dla::regplan::programSdpCore(Operation *o, bool onTheFly, const CubeAddress &in,
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

bool mlir::dla::regplan::programSdpOperandDmas(Operation *o, const SdpMemSurfaces &mem,
                                             LayerProgram &p) {
  auto op = cast<SdpOp>(o);
  bool bs = programDma(op.getBsAttr(), kBrdma, mem, p);
  bool bn = programDma(op.getBnAttr(), kNrdma, mem, p);
  bool ew = programDma(op.getEwAttr(), kErdma, mem, p);
  return bs || bn || ew;
}

/// SDP_RDMA's group: its mode, the operand DMAs, the cube it walks.
static void programSdpRdma(SdpOp op, bool onTheFly, const CubeAddress &cube,
                           const SdpMemSurfaces &mem, LayerProgram &p) {
  p.write(R::SDP_RDMA_S_POINTER, 0);
  p.write(R::SDP_RDMA_D_FEATURE_MODE_CFG, {{SDP_RDMA_D_FEATURE_MODE_CFG_FLYING_MODE, onTheFly},
                                           {SDP_RDMA_D_FEATURE_MODE_CFG_IN_PRECISION, kPrecisionInt8},
                                           {SDP_RDMA_D_FEATURE_MODE_CFG_PROC_PRECISION, kPrecisionInt8},
                                           {SDP_RDMA_D_FEATURE_MODE_CFG_OUT_PRECISION, kPrecisionInt8}});
  programSdpOperandDmas(op, mem, p);
  p.write(R::SDP_RDMA_D_DATA_CUBE_WIDTH, cube.width - 1);
  p.write(R::SDP_RDMA_D_DATA_CUBE_HEIGHT, cube.height - 1);
  p.write(R::SDP_RDMA_D_DATA_CUBE_CHANNEL, cube.channels - 1);
}

bool mlir::dla::regplan::programSdpRdmaOnTheFly(Operation *o, const CubeAddress &out,
                                              const SdpMemSurfaces &mem, LayerProgram &p) {
  auto op = cast<SdpOp>(o);
  if (!memOf(op.getBsAttr()) && !memOf(op.getBnAttr()) && !memOf(op.getEwAttr()))
    return false;
  // The data comes from CACC; SDP_RDMA reads only the operands, over the
  // output cube.
  programSdpRdma(op, /*onTheFly=*/true, out, mem, p);
  return true;
}

LogicalResult mlir::dla::regplan::checkSdpProgrammable(Operation *o, const SdpMemSurfaces &mem) {
  auto op = cast<SdpOp>(o);
  if (!op.getBsAttr() && !op.getBnAttr() && !op.getEwAttr())
    return op.emitOpError("has no register stages (bs, bn, ew): only the stage form is "
                          "programmed");
  SdpYAttr y = op.getEwAttr();
  // In EQL mode the SDP writes no data: it sets D_STATUS when a value
  // differs (NV_NVDLA_sdp.cpp SdpDataOperationThread, which also asserts
  // the identity output converter), so no result surface holds the 0 / 1
  // values the op computes.
  if (y && y.getAlu() == SdpAluAlgo::Eql)
    return op.emitOpError("compares in ew (alu = eql): NVDLA's SDP then writes no output, it "
                          "only reports in D_STATUS whether any value differed");
  for (std::optional<SdpMemOperand> m :
       {memOf(op.getBsAttr()), memOf(op.getBnAttr()), memOf(op.getEwAttr())}) {
    if (!m)
      continue;
    const AuxBoundLayout *layout = mem[static_cast<size_t>(*m)].layout;
    if (!layout)
      return op.emitOpError() << "reads " << std::string(::dlaformat::enumName(*m))
                              << " whose surface is no NVDLA operand data";
    // The DMA reads per-element data in the int8 SDP's atoms (8 channels
    // on nv_small): an int16 layout groups fewer channels per atom.
    const AuxConfig &c = layout->getConfig();
    if (c.mode == AuxMode::PerElement && c.precision != Precision::Int8)
      return op.emitOpError() << "reads " << std::string(::dlaformat::enumName(*m))
                              << " per element in int16 atoms; an int8 SDP reads int8 atoms "
                                 "(two-byte components: data_size = two_byte)";
  }
  return success();
}

LogicalResult mlir::dla::regplan::programSdp(Operation *o, const CubeAddress &in,
                                           const CubeAddress &out, const SdpMemSurfaces &mem,
                                           LayerProgram &p) {
  auto op = cast<SdpOp>(o);
  // The verifier makes an on-the-fly SDP read a convolution, whose layer
  // it joins.
  assert(op.getMode() == SdpMode::Offline && "an on-the-fly SDP is part of its convolution");
  if (failed(checkSdpProgrammable(op, mem)))
    return failure();

  p.interrupts = {"SDP"};
  // SDP_RDMA: the source cube and the stages' operands from DBB.
  programSdpRdma(op, /*onTheFly=*/false, in, mem, p);
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
