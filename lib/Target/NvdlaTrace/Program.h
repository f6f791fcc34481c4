//===- Program.h - One hardware layer's register writes ---------*- C++ -*-===//
#ifndef DLA_LIB_TARGET_NVDLATRACE_PROGRAM_H
#define DLA_LIB_TARGET_NVDLATRACE_PROGRAM_H

#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaPixel.h"
#include "dla/Format/NvdlaRegisterMap.h"
#include "dla/Format/NvdlaSdp.h"

#include "mlir/IR/Operation.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace mlir::dla::trace {

/// A feature cube in memory, as a layer's DMA reads or writes it.
struct CubeAddress {
  uint64_t address = 0;
  int64_t width = 0, height = 0, channels = 0;
  int64_t lineStride = 0, surfaceStride = 0;
};

/// An image (pixel data, pitch linear) as CDMA's image DMA reads it: its
/// planes from `address` as the layout places them.
struct ImageAddress {
  uint64_t address = 0;
  const ::dlaformat::nvdla::PixelBoundLayout *layout = nullptr;
};

/// A memory operand of an SDP (bias, batch-norm, element-wise, PReLU) as
/// its stage's DMA reads it; no layout: the op has no such operand.
struct SdpMemSurface {
  uint64_t address = 0;
  const ::dlaformat::nvdla::AuxBoundLayout *layout = nullptr;
};
/// By ::dlaformat::nvdla::SdpMemOperand.
using SdpMemSurfaces =
    std::array<SdpMemSurface, ::dlaformat::enumCount<::dlaformat::nvdla::SdpMemOperand>()>;

/// The writes of one layer, in order; the last ones enable its units.
struct LayerProgram {
  /// The done interrupts the layer raises, as intr_notify names their
  /// blocks ("SDP", "CACC", "CDMA_DAT", ...); the last is its end.
  std::vector<std::string> interrupts;
  std::vector<std::pair<::dlaformat::nvdla::CsbReg, uint32_t>> writes;

  void write(::dlaformat::nvdla::CsbReg reg, uint32_t value) { writes.push_back({reg, value}); }
  /// One register from its fields (all of `reg`).
  void write(::dlaformat::nvdla::CsbReg reg,
             std::initializer_list<std::pair<::dlaformat::nvdla::CsbField, int64_t>> fields) {
    uint32_t v = 0;
    for (auto [f, value] : fields) {
      assert(f.reg == reg && "a field of another register");
      v |= f.place(value);
    }
    write(reg, v);
  }
};

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

/// Rewrites each dla.conv with a bias operand into the convolution and an
/// on-the-fly dla.sdp whose BS stage adds the bias from memory, as the
/// hardware computes it (ConvBias.cpp).
void splitConvolutionBiases(Operation *root);

/// dla.pool offline in one split (kmd firmware pdp.c's
/// processor_pdp_program): window, reciprocals, padding values.
LogicalResult programPdp(Operation *pool, const CubeAddress &in, const CubeAddress &out,
                         LayerProgram &program);

/// dla.lrn (kmd firmware cdp.c's processor_cdp_program, common.c's
/// update_lut): the lookup tables, the window, the converters.
LogicalResult programCdp(Operation *lrn, const CubeAddress &in, const CubeAddress &out,
                         LayerProgram &program);

} // namespace mlir::dla::trace

#endif
