//===- BdmaProgram.cpp - A BDMA operation's registers from its descriptor -===//
//
// As NVIDIA's firmware programs a BDMA operation (kmd/firmware/bdma.c
// processor_bdma_program_slot per transfer, then dla_bdma_enable): each
// transfer's addresses, sizes and strides and its CFG_OP, then the group's
// launch. The trace waits for each layer before the next, so every
// operation uses group 0 (CFG_LAUNCH0, GLB's BDMA_DONE_STATUS0).
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::csb;
using R = CsbReg;

void mlir::dla::regplan::programBdmaLayer(const NetworkPlan &plan, const BdmaDesc &d,
                                          LayerProgram &p) {
  p.interrupts = {"BDMA"};
  for (const DescBdmaTransfer &t : d.transfers) {
    const uint64_t src = addressOf(plan, t.src), dst = addressOf(plan, t.dst);
    p.write(R::BDMA_CFG_SRC_ADDR_LOW, static_cast<uint32_t>(src));
    p.write(R::BDMA_CFG_SRC_ADDR_HIGH, static_cast<uint32_t>(src >> 32));
    p.write(R::BDMA_CFG_DST_ADDR_LOW, static_cast<uint32_t>(dst));
    p.write(R::BDMA_CFG_DST_ADDR_HIGH, static_cast<uint32_t>(dst >> 32));
    p.write(R::BDMA_CFG_LINE, {{BDMA_CFG_LINE_SIZE, (t.line_size >> 5) - 1}});
    p.write(R::BDMA_CFG_CMD, {{BDMA_CFG_CMD_SRC_RAM_TYPE, ramTypeOf(d.source_type)},
                              {BDMA_CFG_CMD_DST_RAM_TYPE, ramTypeOf(d.destination_type)}});
    p.write(R::BDMA_CFG_LINE_REPEAT, {{BDMA_CFG_LINE_REPEAT_NUMBER, t.line_repeat - 1}});
    p.write(R::BDMA_CFG_SRC_LINE, t.source_line);
    p.write(R::BDMA_CFG_DST_LINE, t.destination_line);
    p.write(R::BDMA_CFG_SURF_REPEAT, {{BDMA_CFG_SURF_REPEAT_NUMBER, t.surface_repeat - 1}});
    p.write(R::BDMA_CFG_SRC_SURF, t.source_surface);
    p.write(R::BDMA_CFG_DST_SURF, t.destination_surface);
    p.write(R::BDMA_CFG_OP, {{BDMA_CFG_OP_EN, 1}});
  }
  p.write(R::BDMA_CFG_LAUNCH0, {{BDMA_CFG_LAUNCH0_GRP0_LAUNCH, 1}});
}
