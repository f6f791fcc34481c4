//===- PdpProgram.cpp - A PDP layer's registers from its descriptors ------===//
//
// Field by field as NVIDIA's firmware programs a pooling layer offline
// (kmd/firmware/pdp.c processor_pdp_program): PDP_RDMA's source cube and
// split, then PDP's cubes, window, reciprocals and padding values.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Format/NvdlaPdpFp16.h"
#include "dla/Format/NvdlaRegisters.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

void mlir::dla::regplan::programPdpLayer(const NetworkPlan &plan, const PdpDesc &d,
                                       LayerProgram &p) {
  const DescDataCube &in = d.src_data, &out = d.dst_data;
  const uint64_t input = addressOf(plan, in), output = addressOf(plan, out);
  const int64_t method = d.pool_mode == kDescPoolAvg   ? kPoolAverage
                         : d.pool_mode == kDescPoolMax ? kPoolMax
                                                       : kPoolMin;
  // A width of a split's pass as its 10-bit field holds it (0: unused).
  auto partial = [](int64_t w) { return w ? w - 1 : 0; };
  // The firmware's reciprocals per precision (recip_kernel_size[precision
  // == FP16]): 16-bit fractions for integer data, 1/k in fp17 for fp16.
  PdpReciprocals recip = pdpFirmwareReciprocals(d.pool_height + 1, d.pool_width + 1);
  if (d.precision == kDescPrecisionFp16)
    recip = {pdpRecipFp17(d.pool_width + 1), pdpRecipFp17(d.pool_height + 1)};

  p.interrupts = {"PDP"};
  p.write(R::PDP_RDMA_S_POINTER, 0);
  p.write(R::PDP_S_POINTER, 0);
  // PDP_RDMA: the source cube from DBB.
  p.write(R::PDP_RDMA_D_DATA_CUBE_IN_WIDTH, in.width - 1);
  p.write(R::PDP_RDMA_D_DATA_CUBE_IN_HEIGHT, in.height - 1);
  p.write(R::PDP_RDMA_D_DATA_CUBE_IN_CHANNEL, in.channel - 1);
  p.write(R::PDP_RDMA_D_FLYING_MODE, {{PDP_RDMA_D_FLYING_MODE_FLYING_MODE, kPdpOffFlying}});
  p.write(R::PDP_RDMA_D_SRC_BASE_ADDR_HIGH, static_cast<uint32_t>(input >> 32));
  p.write(R::PDP_RDMA_D_SRC_BASE_ADDR_LOW, static_cast<uint32_t>(input));
  p.write(R::PDP_RDMA_D_SRC_LINE_STRIDE, in.line_stride);
  p.write(R::PDP_RDMA_D_SRC_SURFACE_STRIDE, in.surf_stride);
  p.write(R::PDP_RDMA_D_DATA_FORMAT, {{PDP_RDMA_D_DATA_FORMAT_INPUT_DATA, d.precision}});
  p.write(R::PDP_RDMA_D_SRC_RAM_CFG, {{PDP_RDMA_D_SRC_RAM_CFG_SRC_RAM_TYPE, kRamTypeMc}});
  p.write(R::PDP_RDMA_D_OPERATION_MODE_CFG,
          {{PDP_RDMA_D_OPERATION_MODE_CFG_SPLIT_NUM, d.split_num - 1}});
  p.write(R::PDP_RDMA_D_POOLING_KERNEL_CFG,
          {{PDP_RDMA_D_POOLING_KERNEL_CFG_KERNEL_WIDTH, d.pool_width},
           {PDP_RDMA_D_POOLING_KERNEL_CFG_KERNEL_STRIDE_WIDTH, d.stride_x - 1}});
  p.write(R::PDP_RDMA_D_POOLING_PADDING_CFG, {{PDP_RDMA_D_POOLING_PADDING_CFG_PAD_WIDTH, d.pad_left}});
  p.write(R::PDP_RDMA_D_PARTIAL_WIDTH_IN,
          {{PDP_RDMA_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_FIRST, partial(d.partial_in_width_first)},
           {PDP_RDMA_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_LAST, partial(d.partial_in_width_last)},
           {PDP_RDMA_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_MID, partial(d.partial_in_width_mid)}});
  // PDP: the cubes, the window, the average's registers, the destination.
  p.write(R::PDP_D_DATA_CUBE_IN_WIDTH, in.width - 1);
  p.write(R::PDP_D_DATA_CUBE_IN_HEIGHT, in.height - 1);
  p.write(R::PDP_D_DATA_CUBE_IN_CHANNEL, in.channel - 1);
  p.write(R::PDP_D_DATA_CUBE_OUT_WIDTH, out.width - 1);
  p.write(R::PDP_D_DATA_CUBE_OUT_HEIGHT, out.height - 1);
  p.write(R::PDP_D_DATA_CUBE_OUT_CHANNEL, out.channel - 1);
  p.write(R::PDP_D_OPERATION_MODE_CFG, {{PDP_D_OPERATION_MODE_CFG_POOLING_METHOD, method},
                                        {PDP_D_OPERATION_MODE_CFG_FLYING_MODE, kPdpOffFlying},
                                        {PDP_D_OPERATION_MODE_CFG_SPLIT_NUM, d.split_num - 1}});
  p.write(R::PDP_D_PARTIAL_WIDTH_IN,
          {{PDP_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_FIRST, partial(d.partial_in_width_first)},
           {PDP_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_LAST, partial(d.partial_in_width_last)},
           {PDP_D_PARTIAL_WIDTH_IN_PARTIAL_WIDTH_IN_MID, partial(d.partial_in_width_mid)}});
  p.write(R::PDP_D_PARTIAL_WIDTH_OUT,
          {{PDP_D_PARTIAL_WIDTH_OUT_PARTIAL_WIDTH_OUT_FIRST, partial(d.partial_width_first)},
           {PDP_D_PARTIAL_WIDTH_OUT_PARTIAL_WIDTH_OUT_LAST, partial(d.partial_width_last)},
           {PDP_D_PARTIAL_WIDTH_OUT_PARTIAL_WIDTH_OUT_MID, partial(d.partial_width_mid)}});
  p.write(R::PDP_D_POOLING_KERNEL_CFG,
          {{PDP_D_POOLING_KERNEL_CFG_KERNEL_WIDTH, d.pool_width},
           {PDP_D_POOLING_KERNEL_CFG_KERNEL_HEIGHT, d.pool_height},
           {PDP_D_POOLING_KERNEL_CFG_KERNEL_STRIDE_WIDTH, d.stride_x - 1},
           {PDP_D_POOLING_KERNEL_CFG_KERNEL_STRIDE_HEIGHT, d.stride_y - 1}});
  p.write(R::PDP_D_RECIP_KERNEL_WIDTH, {{PDP_D_RECIP_KERNEL_WIDTH_RECIP_KERNEL_WIDTH,
                                         d.ext.recip_kernel_width.value_or(recip.width)}});
  p.write(R::PDP_D_RECIP_KERNEL_HEIGHT, {{PDP_D_RECIP_KERNEL_HEIGHT_RECIP_KERNEL_HEIGHT,
                                          d.ext.recip_kernel_height.value_or(recip.height)}});
  p.write(R::PDP_D_POOLING_PADDING_CFG, {{PDP_D_POOLING_PADDING_CFG_PAD_LEFT, d.pad_left},
                                         {PDP_D_POOLING_PADDING_CFG_PAD_TOP, d.pad_top},
                                         {PDP_D_POOLING_PADDING_CFG_PAD_RIGHT, d.pad_right},
                                         {PDP_D_POOLING_PADDING_CFG_PAD_BOTTOM, d.pad_bottom}});
  for (int n = 0; n < 7; ++n)
    p.write(kPdpPadValueRegs[n],
            CsbField{kPdpPadValueRegs[n], 0, kPdpPadValueBits}.place(d.padding_value[n]));
  p.write(R::PDP_D_SRC_LINE_STRIDE, in.line_stride);
  p.write(R::PDP_D_SRC_SURFACE_STRIDE, in.surf_stride);
  p.write(R::PDP_D_DST_BASE_ADDR_LOW, static_cast<uint32_t>(output));
  p.write(R::PDP_D_DST_BASE_ADDR_HIGH, static_cast<uint32_t>(output >> 32));
  p.write(R::PDP_D_DST_LINE_STRIDE, out.line_stride);
  p.write(R::PDP_D_DST_SURFACE_STRIDE, out.surf_stride);
  p.write(R::PDP_D_DST_RAM_CFG, {{PDP_D_DST_RAM_CFG_DST_RAM_TYPE, kRamTypeMc}});
  p.write(R::PDP_D_DATA_FORMAT, {{PDP_D_DATA_FORMAT_INPUT_DATA, d.precision}});
  // As NVIDIA's PDP traces: the core first, then its read DMA.
  p.write(R::PDP_D_OP_ENABLE, 1);
  p.write(R::PDP_RDMA_D_OP_ENABLE, 1);
}
