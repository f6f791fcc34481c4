//===- CdpProgram.cpp - A CDP layer's registers from its descriptors ------===//
//
// As NVIDIA's firmware programs a CDP layer (kmd/firmware/cdp.c
// processor_cdp_program, common.c update_lut): the lookup tables, then the
// layer's cube, window and converters.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

void mlir::dla::regplan::programCdpLayer(const NetworkPlan &plan, const NetworkDescs &descs,
                                       const CdpDesc &d, LayerProgram &p) {
  const DescDataCube &in = d.src_data, &out = d.dst_data;
  const uint64_t input = addressOf(plan, in), output = addressOf(plan, out);
  p.interrupts = {"CDP"};
  p.write(R::CDP_S_POINTER, 0);
  p.write(R::CDP_RDMA_S_POINTER, 0);
  if (d.lut_index >= 0)
    programLut(descs.luts.at(static_cast<size_t>(d.lut_index)), kCdpLutRegs, p);
  // CDP_RDMA: the source cube from DBB.
  p.write(R::CDP_RDMA_D_DATA_CUBE_WIDTH, in.width - 1);
  p.write(R::CDP_RDMA_D_DATA_CUBE_HEIGHT, in.height - 1);
  p.write(R::CDP_RDMA_D_DATA_CUBE_CHANNEL, in.channel - 1);
  p.write(R::CDP_RDMA_D_SRC_BASE_ADDR_LOW, static_cast<uint32_t>(input));
  p.write(R::CDP_RDMA_D_SRC_BASE_ADDR_HIGH, static_cast<uint32_t>(input >> 32));
  p.write(R::CDP_RDMA_D_SRC_LINE_STRIDE, in.line_stride);
  p.write(R::CDP_RDMA_D_SRC_SURFACE_STRIDE, in.surf_stride);
  p.write(R::CDP_RDMA_D_SRC_DMA_CFG, {{CDP_RDMA_D_SRC_DMA_CFG_SRC_RAM_TYPE, kRamTypeMc}});
  p.write(R::CDP_RDMA_D_DATA_FORMAT, {{CDP_RDMA_D_DATA_FORMAT_INPUT_DATA, d.in_precision}});
  // CDP: destination, window, converters.
  p.write(R::CDP_D_DST_BASE_ADDR_LOW, static_cast<uint32_t>(output));
  p.write(R::CDP_D_DST_BASE_ADDR_HIGH, static_cast<uint32_t>(output >> 32));
  p.write(R::CDP_D_DST_LINE_STRIDE, out.line_stride);
  p.write(R::CDP_D_DST_SURFACE_STRIDE, out.surf_stride);
  p.write(R::CDP_D_DST_DMA_CFG, {{CDP_D_DST_DMA_CFG_DST_RAM_TYPE, kRamTypeMc}});
  p.write(R::CDP_D_DATA_FORMAT, {{CDP_D_DATA_FORMAT_INPUT_DATA_TYPE, d.in_precision}});
  // NORMALZ_LEN: LEN3 0, LEN5 1, LEN7 2, LEN9 3 (cdp.c map_local_size).
  p.write(R::CDP_D_LRN_CFG, {{CDP_D_LRN_CFG_NORMALZ_LEN, (d.local_size - 3) / 2}});
  p.write(R::CDP_D_DATIN_OFFSET, {{CDP_D_DATIN_OFFSET_DATIN_OFFSET, d.in_cvt.offset}});
  p.write(R::CDP_D_DATIN_SCALE, {{CDP_D_DATIN_SCALE_DATIN_SCALE, d.in_cvt.scale}});
  p.write(R::CDP_D_DATIN_SHIFTER, {{CDP_D_DATIN_SHIFTER_DATIN_SHIFTER, d.in_cvt.truncate}});
  p.write(R::CDP_D_DATOUT_OFFSET, {{CDP_D_DATOUT_OFFSET_DATOUT_OFFSET, d.out_cvt.offset}});
  p.write(R::CDP_D_DATOUT_SCALE, {{CDP_D_DATOUT_SCALE_DATOUT_SCALE, d.out_cvt.scale}});
  p.write(R::CDP_D_DATOUT_SHIFTER, {{CDP_D_DATOUT_SHIFTER_DATOUT_SHIFTER, d.out_cvt.truncate}});
  p.write(R::CDP_D_FUNC_BYPASS, {{CDP_D_FUNC_BYPASS_SQSUM_BYPASS, d.bypass_sqsum},
                                 {CDP_D_FUNC_BYPASS_MUL_BYPASS, d.bypass_out_mul}});
  // As NVIDIA's CDP traces: the read DMA first, then the core.
  p.write(R::CDP_RDMA_D_OP_ENABLE, 1);
  p.write(R::CDP_D_OP_ENABLE, 1);
}
