//===- UnitPrograms.h - Each unit's descriptors and register writes -------===//
//
// Per unit, two halves: describe* makes the layer's decisions from its ops
// (the descriptors of NvdlaDescriptors.h, shared by every writer), and
// program* writes the registers from the descriptors alone, as NVIDIA's
// firmware does (kmd/firmware <unit>.c processor_<unit>_program), at the
// plan's addresses. describeNetwork and programNetwork pick them by the
// layer's kind (DescribeNetwork.cpp, ProgramNetwork.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_TARGET_NVDLAPROGRAM_UNITPROGRAMS_H
#define DLA_LIB_TARGET_NVDLAPROGRAM_UNITPROGRAMS_H

#include "dla/Target/NvdlaProgram.h"

#include "dla/Format/NvdlaLrn.h"

#include <optional>

namespace mlir::dla::regplan {

//===- Descriptors from ops ------------------------------------------------===//

/// The precision field every unit's registers take for data of `p`
/// (dla_conv_op_desc's in_ / out_precision, the SDP's, PDP's and CDP's:
/// INT8 0, INT16 1, FP16 2), the one mapping of the descriptors.
constexpr uint8_t describePrecision(::dlaformat::nvdla::Precision p) {
  switch (p) {
  case ::dlaformat::nvdla::Precision::Int8:
    return kDescPrecisionInt8;
  case ::dlaformat::nvdla::Precision::Int16:
    return kDescPrecisionInt16;
  case ::dlaformat::nvdla::Precision::Fp16:
    return kDescPrecisionFp16;
  }
  return kDescPrecisionInt8;
}

/// The SDP's processing precision (SDP_RDMA and SDP PROC_PRECISION) for
/// data of descriptor precision `src` written as `dst`: NVIDIA's firmware's
/// map_proc_precision[dst][src] (sdp.c), the one table. Between int16 and
/// int8 the SDP processes in int8: int16 data through SDP_RDMA's
/// int16-to-int8 buffer (two int16 surfaces to one int8 atom), int8 data
/// written as int16 by the WDMA's int8-to-int16 path (NV_NVDLA_sdp.cpp).
constexpr uint8_t sdpProcPrecision(uint8_t dst, uint8_t src) {
  constexpr uint8_t i8 = kDescPrecisionInt8, i16 = kDescPrecisionInt16, f16 = kDescPrecisionFp16;
  constexpr uint8_t table[3][3] = {{i8, i8, f16}, {i8, i16, f16}, {i8, i16, f16}};
  return dst < 3 && src < 3 ? table[dst][src] : i8;
}

/// describePrecision's inverse.
constexpr ::dlaformat::nvdla::Precision precisionOfDesc(uint8_t code) {
  return code == kDescPrecisionInt16  ? ::dlaformat::nvdla::Precision::Int16
         : code == kDescPrecisionFp16 ? ::dlaformat::nvdla::Precision::Fp16
                                      : ::dlaformat::nvdla::Precision::Int8;
}

/// `v`'s cube as its surface holds it (an image: its pixels, the format's
/// channels, plane 0's lines, no surface stride), in the memory the plan
/// placed it in (DRAM or CV-SRAM), or on the fly when `type` is Hw.
DescDataCube describeCube(const NetworkPlan &plan, Value v, DescMemType type = DescMemType::Mc);

/// A DMA's *_RAM_TYPE for a cube in `memory`: MC (DBB) 1, CV-SRAM 0, in
/// every unit's field (arnvdla.h: BDMA_CFG_CMD's SRC/DST_RAM_TYPE_CVSRAM,
/// CDMA_D_DAIN_RAM_TYPE's DATAIN_RAM_TYPE_CVIF, the SDP's *_RAM_TYPE_CV;
/// the firmware's map_mem / map_ram / map_ram_type, bdma.c, conv.c and
/// sdp.c, index them by the descriptor's type).
inline int64_t ramTypeOf(DescMemType memory) {
  return memory == DescMemType::Cv ? 0 : ::dlaformat::nvdla::csb::kRamTypeMc;
}

/// `cube` at input `b` of its surface's batch: b times the feature
/// layout's batch stride further (the one place a batch input's address
/// is computed); a cube of a surface without a batch (per-channel operand
/// data, weights, the accumulator's) stays.
void atBatchInput(const NetworkPlan &plan, DescDataCube &cube, int64_t b);
/// Every memory cube of `op` (described for input 0) at input `b`.
void atBatchInput(const NetworkPlan &plan, DescOp &op, int64_t b);

/// A copy between two feature layouts of one precision (a dla.relayout
/// planNetwork admits, DescribeBdma.cpp): BDMA operations of at most
/// NUM_MAX_BDMA_OPS transfers each.
LogicalResult describeBdma(const NetworkPlan &plan, Operation *copy, std::vector<DescOp> &ops);

/// dla.conv direct on int8 feature data, or image on int8 pixels, with
/// the values NVIDIA's compiler gives (umd ConvolutionOp.cpp) and the
/// buffer plan of the format library (NvdlaConvBuffer.h), and the SDP it
/// feeds: a CONV and an SDP operation for the layer, or for each band of
/// output rows when its input does not fit the buffer beside its weights.
LogicalResult describeConvLayer(const NetworkPlan &plan, const HardwareLayer &layer,
                                std::vector<DescLut> &luts, std::vector<DescOp> &ops);

/// Whether the Winograd convolution `op` is one the register plan programs
/// (int8, stride 1, an output of whole 4x4 tiles, not by bands); else its
/// located error (DescribeWinograd.cpp).
LogicalResult checkWinogradConv(ConvOp op);

/// The Winograd values of `d`, a convolution describeWhole described as
/// every convolution is: NVIDIA's compiler's extended sizes, kernel and
/// padding (DescribeWinograd.cpp, the one place stating them).
void describeWinograd(ConvOp op, ConvDesc &d);

/// dla.sdp (null: every stage bypassed, the identity converter), offline
/// from `in` or on the fly from a convolution, writing `out`; a Y-stage
/// lookup table is appended to `luts`.
LogicalResult describeSdp(const NetworkPlan &plan, Operation *sdp, bool onTheFly, Value in,
                          Value out, SdpDesc &desc, std::vector<DescLut> &luts);

/// dla.upsample: offline SDP passes with every stage bypassed, one per
/// channel group, output phase and band of the 13-bit cube fields
/// (DescribeUpsample.cpp).
LogicalResult describeUpsample(const NetworkPlan &plan, Operation *upsample,
                               std::vector<DescOp> &ops);

/// dla.interleave: the same passes, phase (py, px) reading its own input
/// (DescribeUpsample.cpp).
LogicalResult describeInterleave(const NetworkPlan &plan, Operation *interleave,
                                 std::vector<DescOp> &ops);

/// dla.pool offline, split by output width when PDP's line buffer needs it.
LogicalResult describePdp(const NetworkPlan &plan, Operation *pool, PdpDesc &desc);

/// dla.lrn: its tables (appended to `luts`), window and converters.
LogicalResult describeCdp(const NetworkPlan &plan, Operation *lrn, CdpDesc &desc,
                          std::vector<DescLut> &luts);

/// A #dla.lut / LRN table as the firmware's dla_lut_param.
DescLut describeLut(const ::dlaformat::nvdla::LutProgram &lut);

//===- Registers from descriptors ------------------------------------------===//

/// One unit's lookup-table registers (the SDP's Y stage, the CDP).
struct LutRegs {
  /// S_LUT_ACCESS_CFG's fields, S_LUT_ACCESS_DATA's.
  ::dlaformat::nvdla::CsbField tableId, accessType, data;
  /// S_LUT_CFG's fields.
  ::dlaformat::nvdla::CsbField leFunction, uflowPriority, oflowPriority, hybridPriority;
  /// S_LUT_INFO's fields.
  ::dlaformat::nvdla::CsbField leIndexOffset, leIndexSelect, loIndexSelect;
  /// LE start, LE end, LO start, LO end: the low 32 bits, and the bits
  /// above in a HIGH register where the unit has one.
  struct Bound {
    ::dlaformat::nvdla::CsbField low;
    std::optional<::dlaformat::nvdla::CsbField> high;
  };
  Bound bounds[4];
  struct Slopes {
    ::dlaformat::nvdla::CsbField leUflowScale, leOflowScale, leUflowShift, leOflowShift;
    ::dlaformat::nvdla::CsbField loUflowScale, loOflowScale, loUflowShift, loOflowShift;
  } slopes;
};
extern const LutRegs kSdpLutRegs, kCdpLutRegs;

/// `lut` loaded as the firmware loads a table (common.c update_lut), into
/// the unit whose registers `regs` are (LutProgram.cpp).
void programLut(const DescLut &lut, const LutRegs &regs, LayerProgram &program);

/// A convolution layer: CDMA, CSC, CMAC_A/B, CACC (conv.c), the SDP it
/// feeds on the fly (sdp.c), enabled consumer first.
void programConvLayer(const NetworkPlan &plan, const NetworkDescs &descs, const ConvDesc &conv,
                      const SdpDesc &sdp, LayerProgram &program);

/// The SDP core's registers but its OP_ENABLE (on the fly or offline).
void programSdpCore(const NetworkPlan &plan, const NetworkDescs &descs, const SdpDesc &sdp,
                    LayerProgram &program);
/// On the fly: SDP_RDMA over the output cube for the stages' memory
/// operands when any stage reads memory (sdp.c's is_rdma_needed); whether
/// it did.
bool programSdpRdma(const NetworkPlan &plan, const SdpDesc &sdp, LayerProgram &program);

/// An offline SDP layer: SDP_RDMA's source and operands, the SDP core.
void programSdpLayer(const NetworkPlan &plan, const NetworkDescs &descs, const SdpDesc &sdp,
                     LayerProgram &program);

/// A PDP layer offline (pdp.c).
void programPdpLayer(const NetworkPlan &plan, const PdpDesc &pdp, LayerProgram &program);

/// A BDMA operation (bdma.c): each transfer, then group 0's launch.
void programBdmaLayer(const NetworkPlan &plan, const BdmaDesc &bdma, LayerProgram &program);

/// A CDP layer (cdp.c): its tables, cube, window and converters.
void programCdpLayer(const NetworkPlan &plan, const NetworkDescs &descs, const CdpDesc &cdp,
                     LayerProgram &program);

} // namespace mlir::dla::regplan

#endif
