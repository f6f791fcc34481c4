//===- ConvertTosa.cpp - --dla-convert-tosa -------------------------------===//

#include "TosaToDLA.h"

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

  LogicalResult initialize(MLIRContext *context) override {
    ::dlaformat::Expected<nv::HardwareConfig> hw = nv::lookupHardwareConfig(config);
    if (!hw)
      return emitError(UnknownLoc::get(context), "--dla-convert-tosa: ") << hw.message();
    // A precision the configuration does not compute is the user's
    // mistake, not a reason to leave every layer on the host.
    if (std::string why = nv::whyNotPrecision(*hw, precision); !why.empty())
      return emitError(UnknownLoc::get(context), "--dla-convert-tosa: precision=")
             << ::dlaformat::enumName(precision.getValue()) << ": " << why;
    target = OffloadTarget{*hw, precision};
    RewritePatternSet set(context);
    populateConvPatterns(set, target);
    populatePoolPatterns(set, target);
    populateSdpPatterns(set, target);
    populateQuantizedPatterns(set, target);
    populateMatMulPatterns(set, target);
    populateProductPatterns(set, target);
    populateSdpFusionPatterns(set, target);
    populateCleanupPatterns(set);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(applyPatternsGreedily(module, patterns))) {
      module.emitError("--dla-convert-tosa did not converge");
      return signalPassFailure();
    }
    int64_t hostLayers = 0;
    module.walk([&](Operation *op) {
      if (!isa<tosa::TosaDialect>(op->getDialect()))
        return;
      if (std::optional<std::string> why = explainHostOp(op, target)) {
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

  /// Layers on several images where the convolution has no batch mode: each
  /// image is a hardware layer of its own (NVIDIA's compiler's
  /// handleMultiBatch), which the user should know of.
  void remarkBatches(ModuleOp module) {
    std::string why = nv::whyNotBatch(target.config);
    if (why.empty())
      return;
    int64_t layers = 0, hardwareLayers = 0, most = 0;
    module.walk([&](PrecisionConversionOpInterface op) {
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

  /// Multiply-accumulates of a convolution-like op from its result and
  /// weight shapes (N OH OW K x C R S of a KCRS / OHWI weight), else 0.
  static int64_t macs(Operation *op) {
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!out || !out.hasStaticShape())
      return 0;
    auto weightMacs = [&](Value w, int64_t perOutput) -> int64_t {
      auto type = dyn_cast<RankedTensorType>(w.getType());
      if (!type || !type.hasStaticShape())
        return 0;
      return out.getNumElements() * perOutput;
    };
    if (auto c = dyn_cast<ConvOp>(op)) {
      ArrayRef<int64_t> k = c.getWeight().getType().getShape();
      return weightMacs(c.getWeight(), k[1] * k[2] * k[3]);
    }
    if (auto c = dyn_cast<tosa::Conv2DOp>(op)) {
      auto k = cast<RankedTensorType>(c.getWeight().getType()).getShape();
      return weightMacs(c.getWeight(), k[1] * k[2] * k[3]);
    }
    if (auto c = dyn_cast<tosa::DepthwiseConv2DOp>(op)) {
      auto k = cast<RankedTensorType>(c.getWeight().getType()).getShape();
      return weightMacs(c.getWeight(), k[0] * k[1]);
    }
    if (auto c = dyn_cast<tosa::TransposeConv2DOp>(op)) {
      auto k = cast<RankedTensorType>(c.getWeight().getType()).getShape();
      return weightMacs(c.getWeight(), k[1] * k[2] * k[3]);
    }
    if (auto m = dyn_cast<tosa::MatMulOp>(op)) {
      auto a = cast<RankedTensorType>(m.getA().getType());
      return a.hasStaticShape() ? out.getNumElements() * a.getDimSize(2) : 0;
    }
    return 0;
  }

  void emitSummary(ModuleOp module, int64_t hostLayers) {
    int64_t layers = 0, onMacs = 0, hostMacs = 0;
    module.walk([&](Operation *op) {
      if (isa<PrecisionConversionOpInterface>(op)) { // every dla layer op
        ++layers;
        onMacs += macs(op);
      } else if (isa<tosa::TosaDialect>(op->getDialect())) {
        hostMacs += macs(op);
      }
    });
    const int64_t total = onMacs + hostMacs;
    InFlightDiagnostic d = mlir::emitRemark(module.getLoc(), "dla-convert-tosa: ");
    d << layers << " of " << layers + hostLayers << " layers on " << config << " "
      << ::dlaformat::enumName(precision.getValue());
    if (total) {
      llvm::SmallString<16> share;
      llvm::raw_svector_ostream(share) << llvm::format("%.1f", 100.0 * onMacs / total);
      d << " (" << share << "% of the multiply-accumulates)";
    }
    d << "; " << hostLayers << " stay on the host";
  }

  OffloadTarget target{nv::getDefaultHardwareConfig(), nv::Precision::Fp16};
  FrozenRewritePatternSet patterns;
};
} // namespace
