//===- ConvertTosa.cpp - --dla-convert-tosa -------------------------------===//

#include "AttentionSoftmax.h"
#include "Patterns.h"

#include "dla/Conversion/Passes.h"
#include "dla/Dialect/DLA/IR/DLA.h"
#include "dla/Format/EnumTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Format.h"

namespace mlir::dla {
#define GEN_PASS_DEF_DLACONVERTTOSA
#include "dla/Conversion/Passes.h.inc"
} // namespace mlir::dla

using namespace mlir;
using namespace mlir::dla;
using namespace mlir::dla::tosa_to_dla;
namespace nv = ::dlaformat::nvdla;

namespace {
struct ConvertTosaPass : mlir::dla::impl::DLAConvertTosaBase<ConvertTosaPass> {
  using DLAConvertTosaBase::DLAConvertTosaBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<OffloadTarget> resolved = resolveTarget(module);
    if (failed(resolved))
      return signalPassFailure();
    // The same target for the passes after this one.
    module->setAttr(TargetAttr::kAttrName,
                    TargetAttr::get(module.getContext(),
                                    ::dlaformat::Target{::dlaformat::Accelerator::Nvdla,
                                                        resolved->config.kind}));
    preparePatterns(module.getContext(), *resolved);
    // Pixel shuffles first, over folded constants, while the bias added
    // after them is still TOSA (else it may have become an SDP layer).
    if (failed(applyPatternsGreedily(module, *shufflePatterns))) {
      module.emitError("--dla-convert-tosa did not converge");
      return signalPassFailure();
    }
    // Attention cores first: the other patterns would offload their q k^T
    // and p v apart, the softmax between them left on the host.
    if (failed(applyPatternsGreedily(module, *attentionPatterns))) {
      module.emitError("--dla-convert-tosa did not converge");
      return signalPassFailure();
    }
    module.walk([&](tosa::MatMulOp op) {
      if (op->hasAttr(kAttentionSoftmaxMark))
        mlir::emitRemark(op->getLoc(), "the attention's softmax and p v stay on the host: ")
            << whyNotAttentionSoftmax(op, target);
    });
    if (failed(applyPatternsGreedily(module, *patterns))) {
      module.emitError("--dla-convert-tosa did not converge");
      return signalPassFailure();
    }
    int64_t hostLayers = 0;
    module.walk([&](Operation *op) {
      if (!isa<tosa::TosaDialect>(op->getDialect()))
        return;
      if (std::optional<std::string> why = explainHostOp(op, rules, target)) {
        // By location: op->emitRemark would attach the op printed, which
        // numbers the whole module each time (quadratic on a network).
        mlir::emitRemark(op->getLoc(), "stays on the host: ") << *why;
        ++hostLayers;
      }
    });
    if (summary)
      emitSummary(module, hostLayers);
    remarkBatches(module);
  }

  /// The `target` option (or its deprecated alias `config`), else the
  /// module's dla.target, else nv_full: an NVDLA configuration, with a
  /// precision it computes.
  FailureOr<OffloadTarget> resolveTarget(ModuleOp module) {
    std::string option = targetOption;
    if (!config.empty()) {
      mlir::emitWarning(module.getLoc(), "--dla-convert-tosa: 'config' is deprecated, use "
                                         "'target=")
          << config << "'";
      if (!option.empty() && option != config)
        return module.emitError() << "--dla-convert-tosa: target=" << option
                                  << " and config=" << config << " name different targets";
      option = config;
    }
    FailureOr<::dlaformat::Target> resolved = TargetAttr::resolve(module, option);
    if (failed(resolved))
      return failure();
    if (resolved->accelerator != ::dlaformat::Accelerator::Nvdla)
      return module.emitError() << "--dla-convert-tosa offloads onto NVDLA, the target is "
                                << resolved->toString();
    const nv::HardwareConfig &hw = nv::getHardwareConfig(resolved->config);
    // A precision the configuration does not compute is the user's
    // mistake, not a reason to leave every layer on the host.
    if (std::string why = nv::whyNotPrecision(hw, precision); !why.empty())
      return module.emitError() << "--dla-convert-tosa: precision="
                                << ::dlaformat::enumName(precision.getValue()) << ": " << why;
    return OffloadTarget{hw, precision, emulator};
  }

  /// The patterns and rules of `offload`, built once per target (a batch
  /// of modules for one target shares them).
  void preparePatterns(MLIRContext *context, const OffloadTarget &offload) {
    if (patterns && target.config.kind == offload.config.kind &&
        target.precision == offload.precision && target.emulator == offload.emulator)
      return;
    target = offload;
    rules = OffloadRules();
    RewritePatternSet set(context);
    populateTosaToDLAPatterns(set, rules, target);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(set));
    RewritePatternSet shuffles(context);
    populatePixelShufflePatterns(shuffles, target);
    populateConstantFoldPatterns(shuffles);
    shufflePatterns = std::make_shared<FrozenRewritePatternSet>(std::move(shuffles));
    RewritePatternSet attention(context);
    populateAttentionSoftmaxPatterns(attention, target);
    attentionPatterns = std::make_shared<FrozenRewritePatternSet>(std::move(attention));
  }

  /// Layers on several images where the convolution has no batch mode: each
  /// image is a hardware layer of its own (NVIDIA's compiler's
  /// handleMultiBatch), which the user should know of.
  void remarkBatches(ModuleOp module) {
    std::string why = nv::whyNotBatch(target.config);
    if (why.empty())
      return;
    int64_t layers = 0, hardwareLayers = 0, most = 0;
    module.walk([&](LayerOpInterface op) {
      auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (op.getFusedProducer() || !out || out.getRank() != 4 || out.isDynamicDim(0) ||
          out.getDimSize(0) < 2)
        return;
      ++layers;
      hardwareLayers += out.getDimSize(0);
      most = std::max(most, out.getDimSize(0));
    });
    if (layers)
      mlir::emitRemark(module.getLoc(), "dla-convert-tosa: ")
          << layers << " layers take a batch of up to " << most << " images: " << why
          << ", so each runs as one hardware layer per image (" << hardwareLayers << " in all)";
  }

  void emitSummary(ModuleOp module, int64_t hostLayers) {
    int64_t layers = 0, onMacs = 0, hostMacs = 0;
    module.walk([&](Operation *op) {
      if (auto layer = dyn_cast<LayerOpInterface>(op)) {
        ++layers;
        onMacs += layer.getMacs();
      } else if (const OffloadRules::Rule *rule = rules.lookup(op); rule && rule->macs) {
        hostMacs += rule->macs(op);
      }
    });
    const int64_t total = onMacs + hostMacs;
    InFlightDiagnostic d = mlir::emitRemark(module.getLoc(), "dla-convert-tosa: ");
    d << layers << " of " << layers + hostLayers << " layers on "
      << target.config.name << " " << ::dlaformat::enumName(target.precision);
    if (total) {
      llvm::SmallString<16> share;
      llvm::raw_svector_ostream(share) << llvm::format("%.1f", 100.0 * onMacs / total);
      d << " (" << share << "% of the multiply-accumulates)";
    }
    d << "; " << hostLayers << " stay on the host";
  }

  OffloadTarget target{nv::getDefaultHardwareConfig(), nv::Precision::Fp16};
  OffloadRules rules;
  std::shared_ptr<FrozenRewritePatternSet> patterns, shufflePatterns, attentionPatterns;
};
} // namespace

void tosa_to_dla::populateTosaToDLAPatterns(RewritePatternSet &patterns, OffloadRules &rules,
                                            const OffloadTarget &target) {
  populateConvPatterns(patterns, rules, target);
  populatePixelShufflePatterns(patterns, target);
  populatePoolPatterns(patterns, rules, target);
  populateSdpPatterns(patterns, rules, target);
  populateResizePatterns(patterns, rules, target);
  populateQuantizedPatterns(patterns, rules, target);
  populateMatMulPatterns(patterns, rules, target);
  populateProductPatterns(patterns, target);
  populateSdpFusionPatterns(patterns, target);
  populateChannelJoinPatterns(patterns, target);
  populateChannelSlicePatterns(patterns, target);
  populateReshapeViewPatterns(patterns, target);
  populateEmulatorPatterns(patterns, target);
  populateCleanupPatterns(patterns);
  populateConstantFoldPatterns(patterns);
}
