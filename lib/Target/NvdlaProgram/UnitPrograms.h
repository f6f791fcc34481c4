//===- UnitPrograms.h - Each unit's register writes -------------*- C++ -*-===//
//
// One function per NVDLA unit writes a hardware layer's registers as the
// firmware programs them; programNetwork (ProgramNetwork.cpp) picks the
// function by the layer's kind.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_TARGET_NVDLAPROGRAM_UNITPROGRAMS_H
#define DLA_LIB_TARGET_NVDLAPROGRAM_UNITPROGRAMS_H

#include "dla/Target/NvdlaProgram.h"

#include "dla/Format/NvdlaLrn.h"

#include <optional>

namespace mlir::dla::regplan {

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
void programLut(const ::dlaformat::nvdla::LutProgram &lut, const LutRegs &regs,
                LayerProgram &program);

/// dla.sdp in offline mode (kmd firmware sdp.c's processor_sdp_program):
/// the source cube and the stages' memory operands from memory, the
/// stages, the output converter, the destination cube.
LogicalResult programSdp(Operation *sdp, const CubeAddress &in, const CubeAddress &out,
                         const SdpMemSurfaces &mem, LayerProgram &program);

/// The SDP core's registers but its OP_ENABLE: the stages of `sdp` (null:
/// every stage bypassed, identity converter), on a cube of `in`'s size
/// read from SDP_RDMA or, on the fly, from CACC.
void programSdpCore(Operation *sdp, bool onTheFly, const CubeAddress &in, const CubeAddress &out,
                    LayerProgram &program);
/// SDP_RDMA's operand DMAs (BRDMA for BS, NRDMA for BN) for the memory
/// operands `sdp` reads; whether any reads memory.
bool programSdpOperandDmas(Operation *sdp, const SdpMemSurfaces &mem, LayerProgram &program);
/// For an on-the-fly `sdp` with memory operands: SDP_RDMA in flying mode
/// over the output cube `out`, its operand DMAs; whether it is needed.
bool programSdpRdmaOnTheFly(Operation *sdp, const CubeAddress &out, const SdpMemSurfaces &mem,
                            LayerProgram &program);
/// Fails with a diagnostic on what the SDP program does not cover yet.
LogicalResult checkSdpProgrammable(Operation *sdp, const SdpMemSurfaces &mem);

/// dla.conv direct on int8 feature data, or image on int8 pixels (`image`,
/// else null), with its on-the-fly dla.sdp (or none: the SDP bypassed), as
/// kmd firmware conv.c's processor_conv_program with the values NVIDIA's
/// compiler gives it (ConvolutionOp.cpp): CDMA, CSC, CMAC_A/B, CACC and the
/// SDP core; the buffer plan from the format library (NvdlaConvBuffer.h).
/// `in` is the input cube's extent (an image: its pixels, the format's
/// channels).
LogicalResult programConv(Operation *conv, Operation *sdp, const CubeAddress &in,
                          const ImageAddress *image, uint64_t weightAddress,
                          int64_t weightBytes, const CubeAddress &out,
                          const SdpMemSurfaces &mem, LayerProgram &program);

/// dla.pool offline in one split (kmd firmware pdp.c's
/// processor_pdp_program): window, reciprocals, padding values.
LogicalResult programPdp(Operation *pool, const CubeAddress &in, const CubeAddress &out,
                         LayerProgram &program);

/// dla.lrn (kmd firmware cdp.c's processor_cdp_program, common.c's
/// update_lut): the lookup tables, the window, the converters.
LogicalResult programCdp(Operation *lrn, const CubeAddress &in, const CubeAddress &out,
                         LayerProgram &program);

} // namespace mlir::dla::regplan

#endif
