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

#include "dla/Format/NvdlaAux.h"
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

void regplan::atBatchInput(const NetworkPlan &plan, DescDataCube &cube, int64_t b) {
  if (b == 0 || cube.type == DescMemType::Hw || cube.surface < 0)
    return;
  const Surface &s = plan.surfaces[static_cast<size_t>(cube.surface)];
  // The surface's atom cube: feature data, or per-element operand data.
  const auto *aux = static_cast<const nv::AuxBoundLayout *>(s.aux.get());
  const nv::AtomCube *atoms = s.feature ? &s.feature->getCube()
                              : aux && aux->getCube() ? &*aux->getCube()
                                                      : nullptr;
  if (!atoms || atoms->getSpec().batches == 1)
    return; // read by every input: per-channel data, weights
  assert(b < atoms->getSpec().batches && "an input of the surface's batch");
  const uint64_t offset = static_cast<uint64_t>(b * atoms->getBatchStride());
  cube.offset += offset;
  cube.size -= offset;
}

void regplan::atBatchInput(const NetworkPlan &plan, DescOp &op, int64_t b) {
  auto cubes = [&](std::initializer_list<DescDataCube *> all) {
    for (DescDataCube *cube : all)
      atBatchInput(plan, *cube, b);
  };
  switch (op.type) {
  case DescOpType::Conv:
    return cubes({&op.conv.src_data, &op.conv.dst_data});
  case DescOpType::Sdp:
    return cubes({&op.sdp.src_data, &op.sdp.x1_data, &op.sdp.x2_data, &op.sdp.y_data,
                  &op.sdp.dst_data});
  case DescOpType::Pdp:
    return cubes({&op.pdp.src_data, &op.pdp.dst_data});
  case DescOpType::Cdp:
    return cubes({&op.cdp.src_data, &op.cdp.dst_data});
  case DescOpType::Bdma:
    for (DescBdmaTransfer &t : op.bdma.transfers)
      cubes({&t.src, &t.dst});
    return;
  case DescOpType::Rubik:
    break;
  }
  llvm_unreachable("describeNetwork describes no Rubik operation");
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
    // A layer on a batch outside batch mode: its operations (described for
    // input 0: the cubes' shapes leave N out) once per input, each at the
    // input's batch stride in every batched surface.
    if (const int64_t n = batchInputs(layer); n > 1 && !runsInBatchMode(layer)) {
      const std::vector<DescOp> first = std::move(out.ops);
      out.ops.clear();
      for (int64_t b = 0; b < n; ++b)
        for (DescOp op : first) {
          atBatchInput(plan, op, b);
          out.ops.push_back(std::move(op));
        }
    }
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
  return plan.baseOf(s.memory) + static_cast<uint64_t>(plan.placement[s.placed].offset) +
         cube.offset;
}
