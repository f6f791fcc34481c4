//===- CdpProgram.cpp - dla.lrn as CDP and CDP_RDMA register writes -------===//
//
// As NVIDIA's firmware programs a CDP layer (kmd/firmware/cdp.c
// processor_cdp_program): the lookup tables (programLut), then the layer's
// cube, window and converters. The
// tables and converters are the op's, stated or derived (getLrnTables).
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Dialect/DLA/IR/RegisterAttrs.h"
#include "dla/Format/NvdlaLrn.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;


LogicalResult mlir::dla::regplan::programCdp(Operation *o, const CubeAddress &in,
                                           const CubeAddress &out, LayerProgram &p) {
  auto op = cast<LrnOp>(o);
  LrnTables t = getLrnTables(op);
  const LutProgram &lut = t.lut;

  p.interrupts = {"CDP"};
  p.write(R::CDP_S_POINTER, 0);
  p.write(R::CDP_RDMA_S_POINTER, 0);
  programLut(lut, kCdpLutRegs, p);
  // CDP_RDMA: the source cube from DBB.
  p.write(R::CDP_RDMA_D_DATA_CUBE_WIDTH, in.width - 1);
  p.write(R::CDP_RDMA_D_DATA_CUBE_HEIGHT, in.height - 1);
  p.write(R::CDP_RDMA_D_DATA_CUBE_CHANNEL, in.channels - 1);
  p.write(R::CDP_RDMA_D_SRC_BASE_ADDR_LOW, static_cast<uint32_t>(in.address));
  p.write(R::CDP_RDMA_D_SRC_BASE_ADDR_HIGH, static_cast<uint32_t>(in.address >> 32));
  p.write(R::CDP_RDMA_D_SRC_LINE_STRIDE, in.lineStride);
  p.write(R::CDP_RDMA_D_SRC_SURFACE_STRIDE, in.surfaceStride);
  p.write(R::CDP_RDMA_D_SRC_DMA_CFG, {{CDP_RDMA_D_SRC_DMA_CFG_SRC_RAM_TYPE, kRamTypeMc}});
  p.write(R::CDP_RDMA_D_DATA_FORMAT, {{CDP_RDMA_D_DATA_FORMAT_INPUT_DATA, kPrecisionInt8}});
  // CDP: destination, window, converters; square sum and multiplier used.
  p.write(R::CDP_D_DST_BASE_ADDR_LOW, static_cast<uint32_t>(out.address));
  p.write(R::CDP_D_DST_BASE_ADDR_HIGH, static_cast<uint32_t>(out.address >> 32));
  p.write(R::CDP_D_DST_LINE_STRIDE, out.lineStride);
  p.write(R::CDP_D_DST_SURFACE_STRIDE, out.surfaceStride);
  p.write(R::CDP_D_DST_DMA_CFG, {{CDP_D_DST_DMA_CFG_DST_RAM_TYPE, kRamTypeMc}});
  p.write(R::CDP_D_DATA_FORMAT, {{CDP_D_DATA_FORMAT_INPUT_DATA_TYPE, kPrecisionInt8}});
  // NORMALZ_LEN: LEN3 0, LEN5 1, LEN7 2, LEN9 3 (the verifier allows only these).
  p.write(R::CDP_D_LRN_CFG, {{CDP_D_LRN_CFG_NORMALZ_LEN, (op.getSize() - 3) / 2}});
  p.write(R::CDP_D_DATIN_OFFSET, {{CDP_D_DATIN_OFFSET_DATIN_OFFSET, t.in.offset}});
  p.write(R::CDP_D_DATIN_SCALE, {{CDP_D_DATIN_SCALE_DATIN_SCALE, t.in.scale}});
  p.write(R::CDP_D_DATIN_SHIFTER, {{CDP_D_DATIN_SHIFTER_DATIN_SHIFTER, t.in.shift}});
  p.write(R::CDP_D_DATOUT_OFFSET, {{CDP_D_DATOUT_OFFSET_DATOUT_OFFSET, t.out.offset}});
  p.write(R::CDP_D_DATOUT_SCALE, {{CDP_D_DATOUT_SCALE_DATOUT_SCALE, t.out.scale}});
  p.write(R::CDP_D_DATOUT_SHIFTER, {{CDP_D_DATOUT_SHIFTER_DATOUT_SHIFTER, t.out.shift}});
  p.write(R::CDP_D_FUNC_BYPASS, {{CDP_D_FUNC_BYPASS_SQSUM_BYPASS, 0},
                                 {CDP_D_FUNC_BYPASS_MUL_BYPASS, 0}});
  // As NVIDIA's CDP traces: the read DMA first, then the core.
  p.write(R::CDP_RDMA_D_OP_ENABLE, 1);
  p.write(R::CDP_D_OP_ENABLE, 1);
  return success();
}
