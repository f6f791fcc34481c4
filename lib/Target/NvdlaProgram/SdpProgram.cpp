//===- SdpProgram.cpp - An SDP's registers from its descriptors -----------===//
//
// Field by field as NVIDIA's firmware programs an SDP (kmd/firmware/sdp.c
// processor_sdp_program) from dla_sdp_op_desc: SDP_RDMA's source and
// operand DMAs, the X1 (BS), X2 (BN) and Y (EW) stages, the output
// converter. The project's extensions (NvdlaDescriptors.h) where the
// firmware's descriptor holds less.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

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


bool uses(const DescSdpStage &s, uint8_t op) { return s.type == op || s.type == kDescSdpOpBoth; }
int64_t src(bool memory) { return memory ? kSrcMem : kSrcReg; }

void programX(const DescSdpStage &x, const XStageRegs &r, LayerProgram &p) {
  if (!x.enable) {
    p.write(r.cfg, {{r.bypass, 1}, {r.aluBypass, 1}, {r.mulBypass, 1}, {r.reluBypass, 1}});
    return;
  }
  p.write(r.cfg, {{r.bypass, 0},
                  {r.aluBypass, !uses(x, kDescSdpOpAdd)},
                  {r.aluAlgo, x.alu_type},
                  {r.mulBypass, !uses(x, kDescSdpOpMul)},
                  {r.mulPrelu, x.act == kDescActPrelu},
                  {r.reluBypass, !(x.act == kDescActRelu || x.ext.reluAfterPrelu)}});
  p.write(r.aluCfg, {{r.aluSrcSel, src(x.ext.aluFromMemory)}, {r.aluShift, x.shift_value}});
  p.write(r.aluSrc, {{r.aluOperand, x.alu_operand}});
  // The shift applies with MUL bypassed too (sdp.c: "MUL truncate will
  // take effect no matter MUL is bypassed or not").
  p.write(r.mulCfg, {{r.mulSrcSel, src(x.ext.mulFromMemory)}, {r.mulShift, x.truncate}});
  p.write(r.mulSrc, {{r.mulOperand, x.mul_operand}});
}

/// A stated converter's values (its CFG's CVT_BYPASS says whether it applies).
void programEwCvt(const DescCvt &cvt, const EwCvtRegs &r, LayerProgram &p) {
  if (!cvt.enable)
    return;
  p.write(r.offset, {{r.offsetField, cvt.offset}});
  p.write(r.scale, {{r.scaleField, cvt.scale}});
  p.write(r.truncate, {{r.truncateField, cvt.truncate}});
}

void programY(const NetworkDescs &descs, const SdpDesc &sdp, LayerProgram &p) {
  const DescSdpStage &y = sdp.y_op;
  if (!y.enable) {
    p.write(R::SDP_D_DP_EW_CFG, {{SDP_D_DP_EW_CFG_EW_BYPASS, 1},
                                 {SDP_D_DP_EW_CFG_EW_ALU_BYPASS, 1},
                                 {SDP_D_DP_EW_CFG_EW_MUL_BYPASS, 1},
                                 {SDP_D_DP_EW_CFG_EW_LUT_BYPASS, 1}});
    return;
  }
  const bool lut = y.act == kDescActLut;
  p.write(R::SDP_D_DP_EW_CFG,
          {{SDP_D_DP_EW_CFG_EW_BYPASS, 0},
           {SDP_D_DP_EW_CFG_EW_ALU_BYPASS, !uses(y, kDescSdpOpAdd)},
           {SDP_D_DP_EW_CFG_EW_ALU_ALGO, y.alu_type},
           {SDP_D_DP_EW_CFG_EW_MUL_BYPASS, !uses(y, kDescSdpOpMul)},
           {SDP_D_DP_EW_CFG_EW_MUL_PRELU, y.act == kDescActPrelu || y.ext.preluBeforeLut},
           {SDP_D_DP_EW_CFG_EW_LUT_BYPASS, !lut}});
  if (lut)
    programLut(descs.luts.at(static_cast<size_t>(sdp.lut_index)), kSdpLutRegs, p);
  // A memory operand meets its converter (ALU_CVT / MUL_CVT) when stated;
  // register operands never do.
  p.write(R::SDP_D_DP_EW_ALU_CFG, {{SDP_D_DP_EW_ALU_CFG_EW_ALU_SRC, src(y.ext.aluFromMemory)},
                                   {SDP_D_DP_EW_ALU_CFG_EW_ALU_CVT_BYPASS, !y.alu_cvt.enable}});
  p.write(R::SDP_D_DP_EW_ALU_SRC_VALUE, {{SDP_D_DP_EW_ALU_SRC_VALUE_EW_ALU_OPERAND, y.alu_operand}});
  programEwCvt(y.alu_cvt, kEwAluCvt, p);
  p.write(R::SDP_D_DP_EW_MUL_CFG, {{SDP_D_DP_EW_MUL_CFG_EW_MUL_SRC, src(y.ext.mulFromMemory)},
                                   {SDP_D_DP_EW_MUL_CFG_EW_MUL_CVT_BYPASS, !y.mul_cvt.enable}});
  p.write(R::SDP_D_DP_EW_MUL_SRC_VALUE, {{SDP_D_DP_EW_MUL_SRC_VALUE_EW_MUL_OPERAND, y.mul_operand}});
  programEwCvt(y.mul_cvt, kEwMulCvt, p);
  p.write(R::SDP_D_DP_EW_TRUNCATE_VALUE, {{SDP_D_DP_EW_TRUNCATE_VALUE_EW_TRUNCATE, y.truncate}});
}

/// Whether the firmware reads the stage's operands from memory (sdp.c's
/// x1_rdma_ena).
bool readsMemory(const DescSdpStage &s) {
  return s.enable && s.type != kDescSdpOpNone && s.mode != kDescSdpPerLayer;
}

/// Programs (or disables) one stage's DMA; whether it reads memory.
bool programDma(const NetworkPlan &plan, const DescSdpStage &x, const DescDataCube &data,
                const OperandDmaRegs &r, LayerProgram &p) {
  if (!readsMemory(x)) {
    p.write(r.cfg, {{r.disable, 1}});
    return false;
  }
  // DATA_USE from the stage's type (sdp.c map_op_type); where one operand
  // is a register, the other memory, the memory one.
  const int64_t use = x.ext.mixedSources               ? (x.ext.aluFromMemory ? kDataUseAlu : kDataUseMul)
                      : uses(x, kDescSdpOpBoth) || x.ext.dataUseBoth ? kDataUseBoth
                      : x.type == kDescSdpOpAdd                      ? kDataUseAlu
                                                                     : kDataUseMul;
  const uint64_t address = addressOf(plan, data);
  p.write(r.cfg, {{r.disable, 0},
                  {r.use, use},
                  {r.size, x.precision == kDescPrecisionInt8 ? 0 : 1},
                  {r.mode, x.mode == kDescSdpPerPoint ? kDataModePerElement : kDataModePerKernel},
                  {r.ramType, kRamTypeMc}});
  p.write(r.addrLow, static_cast<uint32_t>(address));
  p.write(r.addrHigh, static_cast<uint32_t>(address >> 32));
  p.write(r.lineStride, data.line_stride);
  p.write(r.surfaceStride, data.surf_stride);
  return true;
}

/// SDP_RDMA's group: its mode, the operand DMAs, the cube it walks.
void programRdmaGroup(const NetworkPlan &plan, const SdpDesc &sdp, LayerProgram &p) {
  const bool onTheFly = sdp.src_data.type == DescMemType::Hw;
  p.write(R::SDP_RDMA_S_POINTER, 0);
  p.write(R::SDP_RDMA_D_FEATURE_MODE_CFG,
          {{SDP_RDMA_D_FEATURE_MODE_CFG_FLYING_MODE, onTheFly},
           {SDP_RDMA_D_FEATURE_MODE_CFG_WINOGRAD, sdp.conv_mode == kDescConvWinograd},
           {SDP_RDMA_D_FEATURE_MODE_CFG_IN_PRECISION, sdp.src_precision},
           {SDP_RDMA_D_FEATURE_MODE_CFG_PROC_PRECISION,
            sdpProcPrecision(sdp.dst_precision, sdp.src_precision)},
           {SDP_RDMA_D_FEATURE_MODE_CFG_OUT_PRECISION, sdp.dst_precision},
           {SDP_RDMA_D_FEATURE_MODE_CFG_BATCH_NUMBER, sdp.batch_num - 1}});
  programDma(plan, sdp.x1_op, sdp.x1_data, kBrdma, p);
  programDma(plan, sdp.x2_op, sdp.x2_data, kNrdma, p);
  programDma(plan, sdp.y_op, sdp.y_data, kErdma, p);
  p.write(R::SDP_RDMA_D_DATA_CUBE_WIDTH, sdp.src_data.width - 1);
  p.write(R::SDP_RDMA_D_DATA_CUBE_HEIGHT, sdp.src_data.height - 1);
  p.write(R::SDP_RDMA_D_DATA_CUBE_CHANNEL, sdp.src_data.channel - 1);
}
} // namespace

void mlir::dla::regplan::programSdpCore(const NetworkPlan &plan, const NetworkDescs &descs, const SdpDesc &sdp,
                    LayerProgram &p) {
  const DescDataCube &in = sdp.src_data, &out = sdp.dst_data;
  const uint64_t output = addressOf(plan, out);
  p.write(R::SDP_S_POINTER, 0);
  p.write(R::SDP_D_DATA_CUBE_WIDTH, in.width - 1);
  p.write(R::SDP_D_DATA_CUBE_HEIGHT, in.height - 1);
  p.write(R::SDP_D_DATA_CUBE_CHANNEL, in.channel - 1);
  p.write(R::SDP_D_DST_BASE_ADDR_LOW, static_cast<uint32_t>(output));
  p.write(R::SDP_D_DST_BASE_ADDR_HIGH, static_cast<uint32_t>(output >> 32));
  p.write(R::SDP_D_DST_LINE_STRIDE, out.line_stride);
  p.write(R::SDP_D_DST_SURFACE_STRIDE, out.surf_stride);
  programX(sdp.x1_op, kBs, p);
  programX(sdp.x2_op, kBn, p);
  programY(descs, sdp, p);
  p.write(R::SDP_D_FEATURE_MODE_CFG,
          {{SDP_D_FEATURE_MODE_CFG_FLYING_MODE, in.type == DescMemType::Hw},
           {SDP_D_FEATURE_MODE_CFG_OUTPUT_DST, 0},
           // After a Winograd convolution CACC delivers 4x4 output tiles
           // (2 atoms wide, 4 lines) and the SDP writes them so (sdp.c).
           {SDP_D_FEATURE_MODE_CFG_WINOGRAD, sdp.conv_mode == kDescConvWinograd},
           {SDP_D_FEATURE_MODE_CFG_BATCH_NUMBER, sdp.batch_num - 1}});
  p.write(R::SDP_D_DST_DMA_CFG, {{SDP_D_DST_DMA_CFG_DST_RAM_TYPE, ramTypeOf(out.type)}});
  if (sdp.batch_num > 1) // as sdp.c: the stride only for a batch
    p.write(R::SDP_D_DST_BATCH_STRIDE, sdp.batch_stride);
  p.write(R::SDP_D_DATA_FORMAT, {{SDP_D_DATA_FORMAT_PROC_PRECISION,
                                  sdpProcPrecision(sdp.dst_precision, sdp.src_precision)},
                                 {SDP_D_DATA_FORMAT_OUT_PRECISION, sdp.dst_precision}});
  p.write(R::SDP_D_CVT_OFFSET, {{SDP_D_CVT_OFFSET_CVT_OFFSET, sdp.out_cvt.offset}});
  p.write(R::SDP_D_CVT_SCALE, {{SDP_D_CVT_SCALE_CVT_SCALE, sdp.out_cvt.scale}});
  p.write(R::SDP_D_CVT_SHIFT, {{SDP_D_CVT_SHIFT_CVT_SHIFT, sdp.out_cvt.truncate}});
}

bool mlir::dla::regplan::programSdpRdma(const NetworkPlan &plan, const SdpDesc &sdp, LayerProgram &p) {
  if (!readsMemory(sdp.x1_op) && !readsMemory(sdp.x2_op) && !readsMemory(sdp.y_op))
    return false;
  programRdmaGroup(plan, sdp, p);
  return true;
}

void mlir::dla::regplan::programSdpLayer(const NetworkPlan &plan, const NetworkDescs &descs,
                                       const SdpDesc &sdp, LayerProgram &p) {
  const DescDataCube &in = sdp.src_data;
  const uint64_t input = addressOf(plan, in);
  p.interrupts = {"SDP"};
  // SDP_RDMA: the source cube and the stages' operands from DBB.
  programRdmaGroup(plan, sdp, p);
  p.write(R::SDP_RDMA_D_SRC_BASE_ADDR_LOW, static_cast<uint32_t>(input));
  p.write(R::SDP_RDMA_D_SRC_BASE_ADDR_HIGH, static_cast<uint32_t>(input >> 32));
  p.write(R::SDP_RDMA_D_SRC_LINE_STRIDE, in.line_stride);
  p.write(R::SDP_RDMA_D_SRC_SURFACE_STRIDE, in.surf_stride);
  p.write(R::SDP_RDMA_D_SRC_DMA_CFG, {{SDP_RDMA_D_SRC_DMA_CFG_SRC_RAM_TYPE, ramTypeOf(in.type)}});
  programSdpCore(plan, descs, sdp, p);
  // As NVIDIA's SDP traces: the core first, then its read DMA.
  p.write(R::SDP_D_OP_ENABLE, 1);
  p.write(R::SDP_RDMA_D_OP_ENABLE, 1);
}
