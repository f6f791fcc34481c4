//===- DescribeNetwork.cpp - Each hardware layer as descriptors -----------===//
//
// The unit a layer runs on (LayerOpInterface::getLayerKind) picks how it is
// described; a new kind of layer fails to compile here until it has a
// description. A convolution always feeds an SDP (CACC writes no memory):
// its own, or one with every stage bypassed; one that runs by bands of
// output rows is a CONV and SDP operation per band.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

#include "dla/Format/NvdlaHardware.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
namespace nv = dlaformat::nvdla;

/// `op` as the op its unit's description reads, else a located error: a
/// layer op on a unit whose program does not cover it yet.
template <typename OpTy>
static FailureOr<OpTy> programmedAs(Operation *op) {
  if (auto typed = dyn_cast_or_null<OpTy>(op))
    return typed;
  return op->emitOpError() << "runs on the " << cast<LayerOpInterface>(op).getHardwareUnit()
                           << ", whose register program covers " << OpTy::getOperationName()
                           << " only yet";
}

static DescOp descOp(DescOpType type) {
  DescOp op;
  op.type = type;
  return op;
}

static LogicalResult describeLayer(const NetworkPlan &plan, const HardwareLayer &layer,
                                   NetworkDescs &descs, LayerDescs &out) {
  Operation *op = layer.op;
  // A copy between two feature layouts (planNetwork admits it on
  // configurations with BDMA).
  if (isa<RelayoutOp>(op))
    return describeBdma(plan, op, out.ops);
  switch (cast<LayerOpInterface>(op).getLayerKind()) {
  case nv::LayerKind::Convolution: {
    if (failed(programmedAs<ConvOp>(op)) ||
        (layer.fused && failed(programmedAs<SdpOp>(layer.fused))))
      return failure();
    return describeConvLayer(plan, layer, descs.luts, out.ops);
  }
  case nv::LayerKind::SdpOffline: {
    // Copies by pass-through passes (DescribeUpsample.cpp).
    if (isa<UpsampleOp>(op))
      return describeUpsample(plan, op, out.ops);
    if (isa<InterleaveOp>(op))
      return describeInterleave(plan, op, out.ops);
    if (failed(programmedAs<SdpOp>(op)))
      return failure();
    DescOp sdp = descOp(DescOpType::Sdp);
    if (failed(describeSdp(plan, op, /*onTheFly=*/false, op->getOperand(0), layer.result(),
                           sdp.sdp, descs.luts)))
      return failure();
    out.ops = {sdp};
    return success();
  }
  case nv::LayerKind::SdpOnTheFly:
    llvm_unreachable("planNetwork starts a hardware layer at its convolution");
  case nv::LayerKind::Pooling: {
    if (failed(programmedAs<PoolOp>(op)))
      return failure();
    DescOp pdp = descOp(DescOpType::Pdp);
    if (failed(describePdp(plan, op, pdp.pdp)))
      return failure();
    out.ops = {pdp};
    return success();
  }
  case nv::LayerKind::Lrn: {
    if (failed(programmedAs<LrnOp>(op)))
      return failure();
    DescOp cdp = descOp(DescOpType::Cdp);
    if (failed(describeCdp(plan, op, cdp.cdp, descs.luts)))
      return failure();
    out.ops = {cdp};
    return success();
  }
  }
  llvm_unreachable("every layer kind is described above");
}

/// Every cube `op` reads or writes within the 13-bit dimension fields
/// (csb::kCubeDimensionBits); a larger one would be programmed modulo
/// 8192, silently.
static LogicalResult checkCubeDimensions(Operation *op, const DescOp &d) {
  constexpr int64_t most = int64_t(1) << nv::csb::kCubeDimensionBits;
  auto check = [&](const DescDataCube &cube, StringRef name) -> LogicalResult {
    for (auto [dim, value] : {std::pair<StringRef, uint32_t>{"width", cube.width},
                              {"height", cube.height},
                              {"channels", cube.channel}})
      if (value > most)
        return op->emitOpError() << "has a " << name << " cube of " << value << " " << dim
                                 << ": NVDLA's cube fields hold at most " << most;
    return success();
  };
  switch (d.type) {
  case DescOpType::Conv:
    return success(succeeded(check(d.conv.src_data, "source")) &&
                   succeeded(check(d.conv.dst_data, "result")));
  case DescOpType::Sdp:
    return success(succeeded(check(d.sdp.src_data, "source")) &&
                   succeeded(check(d.sdp.dst_data, "result")));
  case DescOpType::Pdp:
    return success(succeeded(check(d.pdp.src_data, "source")) &&
                   succeeded(check(d.pdp.dst_data, "result")));
  case DescOpType::Cdp:
    return success(succeeded(check(d.cdp.src_data, "source")) &&
                   succeeded(check(d.cdp.dst_data, "result")));
  case DescOpType::Bdma:
  case DescOpType::Rubik:
    break;
  }
  return success();
}

/// The configuration of the plan's feature data (planNetwork admits one
/// NVDLA configuration's surfaces).
static const nv::HardwareConfig *configOf(const NetworkPlan &plan) {
  for (const Surface &s : plan.surfaces)
    if (s.feature)
      return &nv::getHardwareConfig(s.feature->getConfig().hardware);
  return nullptr;
}

FailureOr<NetworkDescs> regplan::describeNetwork(const NetworkPlan &plan) {
  NetworkDescs descs;
  const nv::HardwareConfig *config = configOf(plan);
  assert(config && "planNetwork returns feature data");
  descs.atom_size = static_cast<uint32_t>(config->caps.memoryAtomBytes);
  descs.layers.resize(plan.layers.size());
  for (auto [layer, out] : llvm::zip_equal(plan.layers, descs.layers)) {
    if (failed(describeLayer(plan, layer, descs, out)))
      return failure();
    for (const DescOp &op : out.ops)
      if (failed(checkCubeDimensions(layer.op, op)))
        return failure();
  }
  return descs;
}

uint64_t regplan::addressOf(const NetworkPlan &plan, const DescDataCube &cube) {
  if (cube.surface < 0)
    return 0;
  const Surface &s = plan.surfaces[static_cast<size_t>(cube.surface)];
  return plan.base + static_cast<uint64_t>(plan.placement[s.placed].offset) + cube.offset;
}
