//===- DescribeBdma.cpp - A copy between feature layouts as BDMA ----------===//
//
// A dla.relayout between two NVDLA feature encodings of one precision and
// configuration (strides or a channel view's offset differ: a block
// argument or a value a second join reads, copied into a join's surface,
// docs/ChannelSplits.md) moves whole atoms and changes nothing in them:
// per input of the batch, the cube's surfaces of H lines of W atoms. BDMA
// copies exactly that shape (kmd/firmware bdma.c, v1 cmod/bdma BdmaCore):
// `surface_repeat` surfaces of `line_repeat` lines of `line_size` bytes, at
// the source's and the destination's own line and surface strides. One
// transfer per input of the batch, or one for the whole batch when both
// sides hold the inputs one after another; operations of at most
// NUM_MAX_BDMA_OPS transfers. Either end may lie in the CV-SRAM (the plan's
// memory: CFG_CMD's RAM types).
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Format/NvdlaHardware.h"
#include "dla/Format/NvdlaRegisterMap.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
namespace nv = dlaformat::nvdla;

LogicalResult regplan::describeBdma(const NetworkPlan &plan, Operation *copy,
                                    std::vector<DescOp> &ops) {
  Value in = copy->getOperand(0), out = copy->getResult(0);
  const nv::FeatureBoundLayout &src = *plan.surface(in).feature, &dst = *plan.surface(out).feature;
  auto shape = cast<RankedTensorType>(out.getType()).getShape();
  const int64_t n = shape[0], h = shape[2], w = shape[3];
  const int64_t atom = src.getCube().getBytesPerAtom();
  const int64_t surfaces = src.getNumSurfaces(), line = w * atom;
  assert(dst.getNumSurfaces() == surfaces && dst.getCube().getBytesPerAtom() == atom &&
         "planNetwork admits copies of one precision and configuration");
  DescDataCube from = describeCube(plan, in), to = describeCube(plan, out);
  // Every address and stride in 32-byte units (the registers' bits 31..5).
  for (auto [what, bytes] :
       {std::pair<StringRef, int64_t>{"source address", int64_t(addressOf(plan, from))},
        {"result address", int64_t(addressOf(plan, to))},
        {"source line stride", src.getLineStride()},
        {"result line stride", dst.getLineStride()},
        {"source surface stride", src.getSurfaceStride()},
        {"result surface stride", dst.getSurfaceStride()},
        {"source batch stride", n > 1 ? src.getBatchStride() : 0},
        {"result batch stride", n > 1 ? dst.getBatchStride() : 0}})
    if (bytes % 32)
      return copy->emitOpError() << "copies with a " << what << " of " << bytes
                                 << " bytes: BDMA's addresses and strides are in 32-byte units";
  if (line > nv::csb::kBdmaMaxLineBytes)
    return copy->emitOpError() << "copies lines of " << line << " bytes (" << w
                               << " atoms): BDMA's CFG_LINE holds at most "
                               << nv::csb::kBdmaMaxLineBytes;
  // The whole batch as one run of surfaces when both sides hold it so.
  const bool packed = n > 1 && src.getBatchStride() == surfaces * src.getSurfaceStride() &&
                      dst.getBatchStride() == surfaces * dst.getSurfaceStride();
  const int64_t perTransfer = packed ? n * surfaces : surfaces;
  if (h > nv::csb::kBdmaMaxRepeat || perTransfer > nv::csb::kBdmaMaxRepeat)
    return copy->emitOpError() << "copies " << perTransfer << " surfaces of " << h
                               << " lines: NVIDIA's firmware programs at most "
                               << nv::csb::kBdmaMaxRepeat << " of each per transfer";
  DescBdmaTransfer t;
  t.line_size = static_cast<uint32_t>(line);
  t.line_repeat = static_cast<uint32_t>(h);
  t.source_line = static_cast<uint32_t>(src.getLineStride());
  t.destination_line = static_cast<uint32_t>(dst.getLineStride());
  t.surface_repeat = static_cast<uint32_t>(perTransfer);
  t.source_surface = static_cast<uint32_t>(src.getSurfaceStride());
  t.destination_surface = static_cast<uint32_t>(dst.getSurfaceStride());
  std::vector<DescBdmaTransfer> transfers;
  for (int64_t b = 0; b < (packed ? 1 : n); ++b) {
    t.src = from;
    t.dst = to;
    atBatchInput(plan, t.src, b);
    atBatchInput(plan, t.dst, b);
    transfers.push_back(t);
  }
  for (size_t first = 0; first < transfers.size(); first += nv::csb::kBdmaMaxTransfers) {
    DescOp op;
    op.type = DescOpType::Bdma;
    // One memory at each end (the plan's: DRAM or CV-SRAM).
    op.bdma.source_type = from.type;
    op.bdma.destination_type = to.type;
    auto end = transfers.begin() +
               std::min(transfers.size(), first + size_t(nv::csb::kBdmaMaxTransfers));
    op.bdma.transfers.assign(transfers.begin() + first, end);
    ops.push_back(std::move(op));
  }
  return success();
}
