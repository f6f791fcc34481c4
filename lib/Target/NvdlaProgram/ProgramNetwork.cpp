//===- ProgramNetwork.cpp - Each hardware layer's register writes ---------===//
//
// The unit a layer runs on (LayerOpInterface::getLayerKind) picks its
// program; a new kind of layer fails to compile here until it has one.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;
namespace nv = dlaformat::nvdla;

/// `op` as the op the program of its unit reads, else a located error: a
/// layer op on a unit whose program does not cover it yet.
template <typename OpTy>
static FailureOr<OpTy> programmedAs(Operation *op) {
  if (auto typed = dyn_cast_or_null<OpTy>(op))
    return typed;
  return op->emitOpError() << "runs on the " << cast<LayerOpInterface>(op).getHardwareUnit()
                           << ", whose register program covers " << OpTy::getOperationName()
                           << " only yet";
}

static LogicalResult programLayer(const NetworkPlan &plan, const HardwareLayer &layer,
                                  LayerProgram &program) {
  Operation *op = layer.op;
  Value in = op->getOperand(0);
  switch (cast<LayerOpInterface>(op).getLayerKind()) {
  case nv::LayerKind::Convolution: {
    FailureOr<ConvOp> typed = programmedAs<ConvOp>(op);
    if (failed(typed) || (layer.fused && failed(programmedAs<SdpOp>(layer.fused))))
      return failure();
    ConvOp conv = *typed;
    Value w = conv.getWeight();
    const Surface &input = plan.surface(conv.getInput());
    ImageAddress image{plan.addressOf(conv.getInput()),
                       static_cast<const nv::PixelBoundLayout *>(input.pixel.get())};
    return programConv(op, layer.fused, plan.cube(conv.getInput()),
                       input.pixel ? &image : nullptr, plan.addressOf(w), plan.placed(w).bytes,
                       plan.cube(layer.result()), plan.memoryOperands(layer.fused), program);
  }
  case nv::LayerKind::SdpOffline:
    if (failed(programmedAs<SdpOp>(op)))
      return failure();
    return programSdp(op, plan.cube(in), plan.cube(layer.result()), plan.memoryOperands(op),
                      program);
  case nv::LayerKind::SdpOnTheFly:
    llvm_unreachable("planNetwork starts a hardware layer at its convolution");
  case nv::LayerKind::Pooling:
    if (failed(programmedAs<PoolOp>(op)))
      return failure();
    return programPdp(op, plan.cube(in), plan.cube(layer.result()), program);
  case nv::LayerKind::Lrn:
    if (failed(programmedAs<LrnOp>(op)))
      return failure();
    return programCdp(op, plan.cube(in), plan.cube(layer.result()), program);
  }
  llvm_unreachable("every layer kind is programmed above");
}

FailureOr<std::vector<LayerProgram>> regplan::programNetwork(const NetworkPlan &plan) {
  std::vector<LayerProgram> programs(plan.layers.size());
  for (auto [layer, program] : llvm::zip_equal(plan.layers, programs))
    if (failed(programLayer(plan, layer, program)))
      return failure();
  return programs;
}
