//===- AssignLayouts.cpp - Layout assignment at the least relayout cost ---===//
//
// The pass: target and options, winograd=auto, then per function the three
// steps of LayoutNets.h (problem, solve, rewrite) and a summary remark.
//
//===----------------------------------------------------------------------===//

#include "CompileTimeConstant.h"
#include "LayoutNets.h"

#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/Window.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLAASSIGNLAYOUTS
#include "dla/Dialect/DLA/Transforms/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
namespace fmt = ::dlaformat;
namespace nv = ::dlaformat::nvdla;

namespace {

struct AssignLayoutsPass : mlir::dla::impl::DLAAssignLayoutsBase<AssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    fmt::Target target = TargetAttr::lookup(module);
    if (!this->target.empty()) {
      fmt::Expected<fmt::Target> parsed = fmt::parseTarget(this->target);
      if (!parsed) {
        module.emitError() << parsed.message();
        return signalPassFailure();
      }
      target = *parsed;
    }
    std::optional<nv::PixelFormat> pixel;
    if (!pixelFormat.empty()) {
      pixel = fmt::parseEnum<nv::PixelFormat>(pixelFormat);
      if (!pixel) {
        module.emitError() << "unknown pixel format '" << pixelFormat << "'";
        return signalPassFailure();
      }
    }
    // Every later pass (and the verifiers) read the target from here.
    module->setAttr(TargetAttr::kAttrName, TargetAttr::get(&getContext(), target));
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(assign(func, target, pixel)))
        return signalPassFailure();
  }

  void switchToWinograd(func::FuncOp func);
  LogicalResult assign(func::FuncOp func, const fmt::Target &target,
                       std::optional<nv::PixelFormat> pixel);
};

void AssignLayoutsPass::switchToWinograd(func::FuncOp func) {
  func.walk([&](ConvOp conv) {
    if (conv.getMode() != nv::ConvMode::Direct || encodingOf(conv.getWeight()) ||
        !matchCompileTimeConstant(conv.getWeight()))
      return;
    ArrayRef<int64_t> s = conv.getStrides(), d = conv.getDilations();
    auto weight = conv.getWeight().getType();
    if (s[0] != s[1] || d[0] != 1 || d[1] != 1 || !weight.hasStaticShape() ||
        fmt::strideExtendedExtent(weight.getDimSize(2), s[0]) != 3 ||
        fmt::strideExtendedExtent(weight.getDimSize(3), s[0]) != 3)
      return;
    FailureOr<nv::ConversionQuery> query = cast<PrecisionConversionOpInterface>(*conv)
                                               .getConversionQuery();
    if (failed(query))
      return;
    query->convMode = nv::ConvMode::Winograd;
    if (!nv::checkConversion(*query).valid)
      return;
    conv.setMode(nv::ConvMode::Winograd);
    ++numWinograd;
    conv.emitRemark() << "direct convolution turned into Winograd (winograd=auto): "
                      << weight.getDimSize(2) << "x" << weight.getDimSize(3)
                      << " kernel, stride " << s[0] << ", constant weights";
  });
}

LogicalResult AssignLayoutsPass::assign(func::FuncOp func, const fmt::Target &target,
                                        std::optional<nv::PixelFormat> pixel) {
  if (winograd == WinogradPolicy::Auto)
    switchToWinograd(func);

  FailureOr<LayoutNets> nets = buildLayoutNets(func, target, pixel, pixelFormat);
  if (failed(nets))
    return failure();
  fmt::LayoutSolution solution = fmt::solveLayoutAssignment(nets->problem);
  LayoutRewriteStats stats = rewriteLayouts(func, *nets, solution, compression);
  numRelayouts += stats.relayouts;
  numRelayoutBytes += stats.relayoutBytes;
  numConstantRelayouts += stats.constantRelayouts;
  numCompressed += stats.compressed;
  func.emitRemark() << "layouts assigned to " << nets->nodes.size()
                    << " ops: " << stats.relayouts << " run-time relayouts of "
                    << stats.relayoutBytes << " bytes, " << stats.constantRelayouts
                    << " constants packed at compile time; "
                    << (solution.provablyOptimal
                            ? "minimum cost (exact: no cycle of the graph passes through a choice)"
                            : "best found (reconvergent paths: exact on a spanning forest, "
                              "then local moves)");
  return success();
}

} // namespace
