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

/// The pass of `layer` whose operations start at ops[i]; the next one's i.
static size_t programPass(const NetworkPlan &plan, const NetworkDescs &descs,
                          const LayerDescs &layer, size_t i, LayerProgram &program) {
  const DescOp &first = layer.ops[i];
  switch (first.type) {
  case DescOpType::Conv:
    assert(i + 1 < layer.ops.size() && layer.ops[i + 1].type == DescOpType::Sdp &&
           "a convolution feeds its SDP");
    programConvLayer(plan, descs, first.conv, layer.ops[i + 1].sdp, program);
    return i + 2;
  case DescOpType::Sdp:
    programSdpLayer(plan, descs, first.sdp, program);
    return i + 1;
  case DescOpType::Pdp:
    programPdpLayer(plan, first.pdp, program);
    return i + 1;
  case DescOpType::Cdp:
    programCdpLayer(plan, descs, first.cdp, program);
    return i + 1;
  case DescOpType::Bdma:
    programBdmaLayer(plan, first.bdma, program);
    return i + 1;
  case DescOpType::Rubik:
    break;
  }
  llvm_unreachable("describeNetwork describes no Rubik operation");
}

FailureOr<std::vector<LayerProgram>> regplan::programNetwork(const NetworkPlan &plan) {
  FailureOr<NetworkDescs> descs = describeNetwork(plan);
  if (failed(descs))
    return failure();
  std::vector<LayerProgram> programs;
  for (auto [index, layer] : llvm::enumerate(descs->layers)) {
    const size_t first = programs.size();
    for (size_t i = 0; i < layer.ops.size();) {
      LayerProgram &program = programs.emplace_back();
      program.layer = index;
      program.pass = programs.size() - 1 - first;
      i = programPass(plan, *descs, layer, i, program);
    }
    for (size_t p = first; p < programs.size(); ++p)
      programs[p].passes = programs.size() - first;
  }
  return programs;
}
