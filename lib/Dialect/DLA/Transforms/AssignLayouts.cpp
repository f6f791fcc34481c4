//===- AssignLayouts.cpp - Layout assignment at the least relayout cost ---===//
//
// The pass: target and options, winograd=auto, then per function the three
// steps of LayoutNets.h (problem, solve, rewrite) and a summary remark.
//
//===----------------------------------------------------------------------===//

#include "dla/Dialect/DLA/Transforms/CompileTimeConstant.h"
#include "LayoutNets.h"

#include "dla/Dialect/DLA/IR/LayerOpUtils.h"
#include "dla/Dialect/DLA/Transforms/Passes.h"
#include "dla/Format/NvdlaPerformance.h"
#include "dla/Format/NvdlaWeight.h"
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
    FailureOr<fmt::Target> resolved = TargetAttr::resolve(module, this->target);
    if (failed(resolved))
      return signalPassFailure();
    const fmt::Target &target = *resolved;
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

  void switchToWinograd(func::FuncOp func, const fmt::Target &target, bool byTime);
  LogicalResult assign(func::FuncOp func, const fmt::Target &target,
                       std::optional<nv::PixelFormat> pixel);
};

/// Why `conv` cannot run as Winograd on `config`, or empty.
static std::string whyNotWinograd(ConvOp conv, const nv::HardwareConfig &config,
                                  int64_t banks, int64_t bankEntries) {
  std::optional<CompileTimeConstant> constant = matchCompileTimeConstant(conv.getWeight());
  if (!constant)
    return "its weights are not a compile-time constant (Winograd weights are transformed "
           "when packed)";
  ArrayRef<int64_t> s = conv.getStrides(), d = conv.getDilations();
  auto weight = conv.getWeight().getType();
  if (d[0] != 1 || d[1] != 1)
    return "it is dilated";
  if (conv.getInputCvtAttr())
    return std::string("it has an input converter: ") + nv::kWinogradInputConverterReason;
  if (s[0] != s[1])
    return "its strides differ";
  if (!weight.hasStaticShape() || fmt::strideExtendedExtent(weight.getDimSize(2), s[0]) != 3 ||
      fmt::strideExtendedExtent(weight.getDimSize(3), s[0]) != 3)
    return "its kernel is not 3x3 after channel extension for its stride";
  FailureOr<nv::ConversionQuery> query =
      cast<PrecisionConversionOpInterface>(*conv).getConversionQuery();
  if (failed(query))
    return "its precisions are not a conversion of the tables";
  query->convMode = nv::ConvMode::Winograd;
  if (nv::ConversionVerdict check = nv::checkConversion(*query); !check.valid)
    return check.message;
  // Integer weights (quantized already: the f32 values and their scales
  // are gone) become taps round(G q G^T): only where that is exact does
  // Winograd compute what the direct convolution does. (NVIDIA's compiler
  // never picks Winograd at int8.)
  if (weight.getElementType().isInteger()) {
    std::optional<std::vector<int64_t>> q = readCompileTimeIntegers(*constant);
    nv::WeightShape shape{weight.getDimSize(0), weight.getDimSize(1), weight.getDimSize(2),
                          weight.getDimSize(3)};
    if (!q || static_cast<int64_t>(q->size()) != shape.getNumElements())
      return "its integer weights cannot be read at compile time";
    const nv::Precision precision = weight.getElementType().getIntOrFloatBitWidth() == 8
                                        ? nv::Precision::Int8
                                        : nv::Precision::Int16;
    if (std::string why = nv::whyWinogradTapsInexact(q->data(), shape, s[0], precision);
        !why.empty())
      return "its integer Winograd taps would not be exact (" + why + ")";
  }
  // Winograd layers are not cut (NVIDIA's compiler runs them direct when
  // they do not fit the whole buffer).
  if (std::optional<int64_t> rows = conv.getRowsPerPart())
    return "it runs by bands of " + std::to_string(*rows) +
           " output rows (rows_per_part) and Winograd layers are not cut";
  if (std::optional<nv::ConvBufferQuery> q = getConvBufferQuery(conv, nv::ConvMode::Winograd)) {
    q->banks = banks;
    q->bankEntries = bankEntries;
    fmt::Expected<nv::ConvBufferPlan> plan = nv::planConvBuffer(config, *q);
    if (!plan)
      return plan.message();
  }
  return "";
}

/// Why `conv` stays direct by time (winograd=fastest): the model's estimates
/// of both modes, or empty when Winograd is faster (`note` then says by how
/// much). Clock and bandwidth are dla-compile's defaults (1 GHz, 10 GB/s).
static std::string whyDirectFaster(ConvOp conv, const fmt::Target &target, std::string &note) {
  std::optional<nv::PerfLayer> direct = getConvPerfLayer(conv);
  if (!direct)
    return "its shapes are not static (the performance model needs them)";
  fmt::Expected<nv::PerfConfig> config =
      nv::getHardwarePerfConfig(target.config, getConvWeightPrecision(conv));
  if (!config)
    return "the performance model: " + config.message();
  nv::PerfLayer winograd = *direct;
  winograd.winograd = true;
  winograd.weightBanks = 0;
  fmt::Expected<nv::PerfComparison> c = nv::compareLayers(*config, *direct, winograd);
  if (!c)
    return "the performance model: " + c.message();
  auto said = [](const nv::PerfEstimate &e) {
    return std::to_string(static_cast<int64_t>(std::ceil(e.cycles))) + " cycles (" +
           std::string(nv::getLongPoleName(e.longPole)) + ")";
  };
  std::string both = "the performance model estimates " + said(c->alternative) +
                     " as Winograd, " + said(c->current) + " direct";
  if (!c->alternativeFaster)
    return "it is not faster as Winograd: " + both;
  note = both;
  return "";
}

void AssignLayoutsPass::switchToWinograd(func::FuncOp func, const fmt::Target &target,
                                         bool byTime) {
  if (std::string why = nv::whyNotWinograd(nv::getHardwareConfig(target.config)); !why.empty()) {
    mlir::emitRemark(func.getLoc())
        << "winograd=auto: " << why << "; every convolution stays direct";
    return;
  }
  const nv::HardwareConfig &config = nv::getHardwareConfig(target.config);
  func.walk([&](ConvOp conv) {
    if (conv.getMode() != nv::ConvMode::Direct || encodingOf(conv.getWeight()))
      return;
    const char *policy = byTime ? "winograd=fastest" : "winograd=auto";
    if (std::string why = whyNotWinograd(conv, config, banks, bankEntries); !why.empty()) {
      mlir::emitRemark(conv.getLoc()) << "stays direct (" << policy << "): " << why;
      return;
    }
    std::string note;
    if (byTime) {
      if (std::string why = whyDirectFaster(conv, target, note); !why.empty()) {
        mlir::emitRemark(conv.getLoc()) << "stays direct (" << policy << "): " << why;
        return;
      }
    }
    auto weight = conv.getWeight().getType();
    conv.setMode(nv::ConvMode::Winograd);
    ++numWinograd;
    InFlightDiagnostic remark = mlir::emitRemark(conv.getLoc());
    remark << "direct convolution turned into Winograd (" << policy
           << "): " << weight.getDimSize(2) << "x" << weight.getDimSize(3) << " kernel, stride "
           << conv.getStrides()[0] << ", constant weights";
    if (!note.empty())
      remark << "; " << note;
  });
}

LogicalResult AssignLayoutsPass::assign(func::FuncOp func, const fmt::Target &target,
                                        std::optional<nv::PixelFormat> pixel) {
  if (winograd != WinogradPolicy::Off)
    switchToWinograd(func, target, winograd == WinogradPolicy::Fastest);
  // Compression where the configuration's hardware has it.
  const bool compress =
      compression && nv::getHardwareConfig(target.config).caps.weightCompression;

  splitLayersReadAsWeights(func);
  FailureOr<LayoutNets> nets = buildLayoutNets(func, target, pixel, pixelFormat);
  if (failed(nets))
    return failure();
  fmt::LayoutSolution solution = fmt::solveLayoutAssignment(nets->problem);
  LayoutRewriteStats stats = rewriteLayouts(func, *nets, solution, compress);
  assignChannelViewStrides(func, stats);
  numRelayouts += stats.relayouts;
  numRelayoutBytes += stats.relayoutBytes;
  numConstantRelayouts += stats.constantRelayouts;
  numCompressed += stats.compressed;
  // What runs from transformed or compressed storage, counted after the
  // rewrite (explicit Winograd layers too): tools report it, tests pin it.
  int64_t winogradConvs = 0;
  func.walk([&](ConvOp conv) { winogradConvs += conv.getMode() == nv::ConvMode::Winograd; });
  mlir::emitRemark(func.getLoc())
      << "layouts assigned to " << nets->nodes.size() << " ops: " << stats.relayouts
      << " run-time relayouts of " << stats.relayoutBytes << " bytes, " << stats.constantRelayouts
      << " constants packed at compile time; "
      << (solution.provablyOptimal
              ? "minimum cost (exact: no cycle of the graph passes through a choice)"
              : "best found (reconvergent paths: exact on a spanning forest, "
                "then local moves)")
      << "; " << winogradConvs << " Winograd convolutions, " << stats.compressed
      << " compressed weights";
  return success();
}

} // namespace
