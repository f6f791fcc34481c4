//===- ProgramNetwork.cpp - Each hardware layer's register writes ---------===//
//
// The registers of each hardware layer from its descriptors alone
// (describeNetwork), as the firmware derives them: the trace and the
// loadable carry the same decisions.
//
//===----------------------------------------------------------------------===//

#include "UnitPrograms.h"

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::regplan;

static void programLayer(const NetworkPlan &plan, const NetworkDescs &descs,
                         const LayerDescs &layer, LayerProgram &program) {
  const DescOp &first = layer.ops.front();
  switch (first.type) {
  case DescOpType::Conv:
    assert(layer.ops.size() == 2 && layer.ops[1].type == DescOpType::Sdp &&
           "a convolution feeds its SDP");
    return programConvLayer(plan, descs, first.conv, layer.ops[1].sdp, program);
  case DescOpType::Sdp:
    return programSdpLayer(plan, descs, first.sdp, program);
  case DescOpType::Pdp:
    return programPdpLayer(plan, first.pdp, program);
  case DescOpType::Cdp:
    return programCdpLayer(plan, descs, first.cdp, program);
  case DescOpType::Bdma:
  case DescOpType::Rubik:
    break;
  }
  llvm_unreachable("describeNetwork describes no BDMA or Rubik operation");
}

FailureOr<std::vector<LayerProgram>> regplan::programNetwork(const NetworkPlan &plan) {
  FailureOr<NetworkDescs> descs = describeNetwork(plan);
  if (failed(descs))
    return failure();
  std::vector<LayerProgram> programs(plan.layers.size());
  for (auto [layer, program] : llvm::zip_equal(descs->layers, programs))
    programLayer(plan, *descs, layer, program);
  return programs;
}
