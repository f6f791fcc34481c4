//===- PdpProgram.cpp - dla.pool as PDP and PDP_RDMA register writes ------===//
//
// Field by field as NVIDIA's firmware programs a pooling layer
// (kmd/firmware/pdp.c processor_pdp_program), offline (the source cube
// from memory): in one pass when the output width fits PDP's line buffer,
// else split by output width as NVIDIA's compiler splits it
// (planPdpSplit, NvdlaPdp.h): SPLIT_NUM, the passes' input and output
// widths, the right padding the last pass's windows reach into.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaPdp.h"
#include "dla/Format/NvdlaRegisters.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

LogicalResult mlir::dla::regplan::programPdp(Operation *o, const CubeAddress &in,
                                           const CubeAddress &out, LayerProgram &p) {
  auto op = cast<PoolOp>(o);
  ArrayRef<int64_t> kernel = op.getKernel(), stride = op.getStrides(), pad = op.getPadding();
  const int64_t kh = kernel[0], kw = kernel[1];
  // padding is [top, bottom, left, right].
  const int64_t top = pad[0], bottom = pad[1], left = pad[2], right = pad[3];
  int64_t method = op.getKind() == PoolKind::Average ? kPoolAverage
                   : op.getKind() == PoolKind::Max   ? kPoolMax
                                                     : kPoolMin;
  PdpReciprocals recip = pdpFirmwareReciprocals(kh, kw);
  // One pass when the output width fits PDP's line buffer, else NVIDIA's
  // split by output width (PDPNode.cpp pdpHWSplitWidth).
  auto feature = cast<FeatureAttr>(cast<RankedTensorType>(op.getInput().getType()).getEncoding());
  const HardwareConfig &config = getHardwareConfig(feature.getConfig());
  const Precision precision = feature.getPrecision();
  const int64_t maxWidth = pdpMaxFlyingWidth(config.getKernelsPerGroup(precision),
                                             getBytesPerElement(precision) == 1, kh, stride[0]);
  PdpSplit split;
  split.firstOut = out.width;
  split.rightPad = right;
  if (out.width > maxWidth) {
    auto passes = [&](InFlightDiagnostic d) -> InFlightDiagnostic {
      d << "needs " << (out.width + maxWidth - 1) / maxWidth
        << " passes by output width (PDP's line buffer holds " << maxWidth
        << " output columns at kernel height " << kh << " and stride " << stride[0] << ")";
      return d;
    };
    std::optional<PdpSplit> s = planPdpSplit(in.width, out.width, kw, stride[1], left, maxWidth);
    if (!s)
      return passes(op.emitOpError()) << ": NVIDIA's split (pdpHWSplitWidth) leaves a pass "
                                         "without columns";
    if (s->splits > kPdpMaxSplits)
      return passes(op.emitOpError()) << ": the firmware programs at most " << kPdpMaxSplits
                                      << " (MAX_SPLIT_NUM)";
    for (int64_t w : {s->firstIn, s->midIn, s->lastIn})
      if (w > kPdpMaxPartialWidth)
        return passes(op.emitOpError()) << ": a pass reads " << w
                                        << " input columns, PARTIAL_WIDTH_IN holds at most "
                                        << kPdpMaxPartialWidth;
    split = *s;
  }
  // A width of a split's pass as its 10-bit field holds it (0: unused).
  auto partial = [](int64_t w) { return w ? w - 1 : 0; };

  p.interrupts = {"PDP"};
  p.write(R::PDP_RDMA_S_POINTER, 0);
  p.write(R::PDP_S_POINTER, 0);
  // PDP_RDMA: the source cube from DBB.
  p.write(R::PDP_RDMA_D_DATA_CUBE_IN_WIDTH, in.width - 1);
  p.write(R::PDP_RDMA_D_DATA_CUBE_IN_HEIGHT, in.height - 1);
  p.write(R::PDP_RDMA_D_DATA_CUBE_IN_CHANNEL, in.channels - 1);
  p.write(R::PDP_RDMA_D_FLYING_MODE, {{PDP_RDMA_D_FLYING_MODE_FLYING_MODE, kPdpOffFlying}});
  p.write(R::PDP_RDMA_D_SRC_BASE_ADDR_HIGH, static_cast<uint32_t>(in.address >> 32));
  p.write(R::PDP_RDMA_D_SRC_BASE_ADDR_LOW, static_cast<uint32_t>(in.address));
  p.write(R::PDP_RDMA_D_SRC_LINE_STRIDE, in.lineStride);
  p.write(R::PDP_RDMA_D_SRC_SURFACE_STRIDE, in.surfaceStride);
  p.write(R::PDP_RDMA_D_DATA_FORMAT, {{PDP_RDMA_D_DATA_FORMAT_INPUT_DATA, kPrecisionInt8}});
  p.write(R::PDP_RDMA_D_SRC_RAM_CFG, {{PDP_RDMA_D_SRC_RAM_CFG_SRC_RAM_TYPE, kRamTypeMc}});
  p.write(R::PDP_RDMA_D_OPERATION_MODE_CFG,
          {{PDP_RDMA_D_OPERATION_MODE_CFG_SPLIT_NUM, split.splits - 1}});
  p.write(R::PDP_RDMA_D_POOLING_KERNEL_CFG,
          {{PDP_RDMA_D_POOLING_KERNEL_CFG_KERNEL_WIDTH, kw - 1},
           {PDP_RDMA_D_POOLING_KERNEL_CFG_KERNEL_STRIDE_WIDTH, stride[1] - 1}});
  p.write(R::PDP_RDMA_D_POOLING_PADDING_CFG, {{PDP_RDMA_D_POOLING_PADDING_CFG_PAD_WIDTH, left}});
  p.write(R::PDP_RDMA_D_PARTIAL_WIDTH_IN,
          {{PDP_RDMA_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_FIRST, partial(split.firstIn)},
           {PDP_RDMA_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_LAST, partial(split.lastIn)},
           {PDP_RDMA_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_MID, partial(split.midIn)}});
  // PDP: the cubes, the window, the average's registers, the destination.
  p.write(R::PDP_D_DATA_CUBE_IN_WIDTH, in.width - 1);
  p.write(R::PDP_D_DATA_CUBE_IN_HEIGHT, in.height - 1);
  p.write(R::PDP_D_DATA_CUBE_IN_CHANNEL, in.channels - 1);
  p.write(R::PDP_D_DATA_CUBE_OUT_WIDTH, out.width - 1);
  p.write(R::PDP_D_DATA_CUBE_OUT_HEIGHT, out.height - 1);
  p.write(R::PDP_D_DATA_CUBE_OUT_CHANNEL, out.channels - 1);
  p.write(R::PDP_D_OPERATION_MODE_CFG, {{PDP_D_OPERATION_MODE_CFG_POOLING_METHOD, method},
                                        {PDP_D_OPERATION_MODE_CFG_FLYING_MODE, kPdpOffFlying},
                                        {PDP_D_OPERATION_MODE_CFG_SPLIT_NUM, split.splits - 1}});
  p.write(R::PDP_D_PARTIAL_WIDTH_IN,
          {{PDP_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_FIRST, partial(split.firstIn)},
           {PDP_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_LAST, partial(split.lastIn)},
           {PDP_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_MID, partial(split.midIn)}});
  // One pass writes no output widths (NVIDIA's compiler leaves them 0).
  const bool splitting = split.splits > 1;
  p.write(R::PDP_D_PARTIAL_WIDTH_OUT,
          {{PDP_D_PARTIAL_WIDTH_OUT_PARTIAL_WIDTH_OUT_FIRST,
            splitting ? partial(split.firstOut) : 0},
           {PDP_D_PARTIAL_WIDTH_OUT_PARTIAL_WIDTH_OUT_LAST, partial(split.lastOut)},
           {PDP_D_PARTIAL_WIDTH_OUT_PARTIAL_WIDTH_OUT_MID, partial(split.midOut)}});
  p.write(R::PDP_D_POOLING_KERNEL_CFG, {{PDP_D_POOLING_KERNEL_CFG_KERNEL_WIDTH, kw - 1},
                                        {PDP_D_POOLING_KERNEL_CFG_KERNEL_HEIGHT, kh - 1},
                                        {PDP_D_POOLING_KERNEL_CFG_KERNEL_STRIDE_WIDTH, stride[1] - 1},
                                        {PDP_D_POOLING_KERNEL_CFG_KERNEL_STRIDE_HEIGHT, stride[0] - 1}});
  p.write(R::PDP_D_RECIP_KERNEL_WIDTH, {{PDP_D_RECIP_KERNEL_WIDTH_RECIP_KERNEL_WIDTH,
                                         op.getRecipKernelWidth().value_or(recip.width)}});
  p.write(R::PDP_D_RECIP_KERNEL_HEIGHT, {{PDP_D_RECIP_KERNEL_HEIGHT_RECIP_KERNEL_HEIGHT,
                                          op.getRecipKernelHeight().value_or(recip.height)}});
  p.write(R::PDP_D_POOLING_PADDING_CFG, {{PDP_D_POOLING_PADDING_CFG_PAD_LEFT, left},
                                         {PDP_D_POOLING_PADDING_CFG_PAD_TOP, top},
                                         {PDP_D_POOLING_PADDING_CFG_PAD_RIGHT, split.rightPad},
                                         {PDP_D_POOLING_PADDING_CFG_PAD_BOTTOM, bottom}});
  std::optional<ArrayRef<int64_t>> padValues = op.getPadValues();
  for (int n = 0; n < 7; ++n) {
    int64_t v = padValues ? (*padValues)[n] : 0;
    p.write(kPdpPadValueRegs[n], CsbField{kPdpPadValueRegs[n], 0, kPdpPadValueBits}.place(v));
  }
  p.write(R::PDP_D_SRC_LINE_STRIDE, in.lineStride);
  p.write(R::PDP_D_SRC_SURFACE_STRIDE, in.surfaceStride);
  p.write(R::PDP_D_DST_BASE_ADDR_LOW, static_cast<uint32_t>(out.address));
  p.write(R::PDP_D_DST_BASE_ADDR_HIGH, static_cast<uint32_t>(out.address >> 32));
  p.write(R::PDP_D_DST_LINE_STRIDE, out.lineStride);
  p.write(R::PDP_D_DST_SURFACE_STRIDE, out.surfaceStride);
  p.write(R::PDP_D_DST_RAM_CFG, {{PDP_D_DST_RAM_CFG_DST_RAM_TYPE, kRamTypeMc}});
  p.write(R::PDP_D_DATA_FORMAT, {{PDP_D_DATA_FORMAT_INPUT_DATA, kPrecisionInt8}});
  // As NVIDIA's PDP traces: the core first, then its read DMA.
  p.write(R::PDP_D_OP_ENABLE, 1);
  p.write(R::PDP_RDMA_D_OP_ENABLE, 1);
  return success();
}
